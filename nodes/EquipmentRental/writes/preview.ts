import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from '../../shared/parameters';
import type { ItemSender } from '../engine/itemRequest';

const WRITE = 'write';
const PREVIEW = 'preview';

/**
 * Whether a write is done or only shown: Preview makes the same checks and reads as a write and
 * sends nothing that writes, so that a user (or an AI agent) sees what a run would do first.
 */
export const writeMode: INodeProperties = {
	displayName: 'Mode',
	name: 'writeMode',
	type: 'options',
	default: WRITE,
	options: [
		{
			name: 'Write',
			value: WRITE,
			description: 'Send the write to the API',
		},
		{
			name: 'Preview (Write Nothing)',
			value: PREVIEW,
			description:
				'Make the same checks and reads as a write, send nothing that writes, and output what a write would do, with preview: true',
		},
	],
	description:
		'Preview shows what the run would write (each row marked preview: true) without writing it',
};

/**
 * Whether the item is previewed. A Mode that comes out empty (an expression, a model's answer) is
 * refused rather than taken as Write: a write the user did not mean cannot be taken back.
 */
export function previews(item: ItemParameters): boolean {
	const mode = item.oneOf(writeMode, [WRITE, PREVIEW]);
	if (mode === undefined) throw item.invalid(writeMode, `one of ${WRITE}, ${PREVIEW}`, mode);
	return mode === PREVIEW;
}

/** What every output item of a preview says beside the record. */
export const previewMarks = (preview: boolean) => (preview ? { preview: true } : {});

/**
 * `send` for a preview: its reads go, and a write is refused before it leaves (a preview that
 * tried to write would be a programming error, never a write).
 */
export function readsOnly(send: ItemSender): ItemSender {
	return Object.assign(
		async (parts: Parameters<ItemSender>[0]) => {
			if (parts.method !== 'GET') throw new Error('A preview tried to send a write');
			return await send(parts);
		},
		{ run: send.run },
	);
}

/**
 * What a write changes in `record`, field by field, under the names the record is read with:
 * `{ from, to }` for each of `changed` (as sent; a field the record lacks comes `from` null).
 */
export function changesOf(
	record: IDataObject,
	changed: IDataObject,
	readBackName: (name: string) => string,
): IDataObject {
	return Object.fromEntries(
		Object.entries(changed).map(([name, to]) => [
			readBackName(name),
			{ from: record[readBackName(name)] ?? null, to: to ?? null },
		]),
	);
}
