import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { isMissingRecord } from '../../shared/errors';
import type { ItemSender } from '../engine/itemRequest';
import type { Field, ItemParameters, RecordReference } from '../../shared/parameters';
import { EXTERNAL_ID_MODE } from '../../shared/parameters';
import type { WholeRead } from '../engine/runState';
import { collectionKey } from '../engine/runState';
import type { ReferencedKind } from '../../shared/paths';

/** What a request came to: its answer, or the item error it failed with. */
export async function answerOrError<T>(
	request: Promise<T>,
): Promise<{ answer: T } | { error: unknown }> {
	return await request.then(
		(answer) => ({ answer }),
		(error: unknown) => ({ error }),
	);
}

/** The record a GET of `url` answers, or undefined when the API says there is no such record. */
export async function recordAt(
	url: string,
	path: Record<string, string>,
	send: ItemSender,
): Promise<IDataObject | undefined> {
	const read = await answerOrError(send({ method: 'GET', url, path }));
	if ('answer' in read) return read.answer[0].json;
	if (isMissingRecord(read.error)) return undefined;
	throw read.error;
}

/** The parent's part of a path that also holds an external ID. */
function withoutExternalId(path: Record<string, string>): Record<string, string> {
	return Object.fromEntries(Object.entries(path).filter(([name]) => name !== 'externalId'));
}

async function recordByExternalId(
	kind: ReferencedKind,
	path: Record<string, string>,
	send: ItemSender,
): Promise<IDataObject | undefined> {
	const { lookups, wholeReads } = send.run.state;
	// A run that has read the kind's collection whole finds it there.
	const wholeRead: WholeRead | undefined = kind.list
		? await wholeReads.get(collectionKey(kind.list, withoutExternalId(path)))
		: undefined;
	if (wholeRead) return wholeRead.find(path.externalId);
	// Items that name the same record (a sheet of contact persons of one client) look it up once. A
	// lookup that failed for another reason than the record's absence is not kept, so that each item
	// tries for itself.
	const key = JSON.stringify([kind.externalIdUrl, path]);
	let lookup = lookups.get(key);
	if (!lookup) {
		lookup = recordAt(kind.externalIdUrl, path, send);
		lookups.set(key, lookup);
		lookup.catch(() => lookups.delete(key));
	}
	return await lookup;
}

/**
 * The record of `kind` with the external ID `reference` gives (once per run), in the parent's
 * records at `parentPath` where the kind has a parent. `field` is named when the API has none.
 */
async function foundByExternalId(
	reference: { externalId: string },
	kind: ReferencedKind,
	field: Field,
	item: ItemParameters,
	send: ItemSender,
	parentPath: Record<string, string>,
): Promise<IDataObject> {
	const path = { ...parentPath, externalId: reference.externalId };
	const record = await recordByExternalId(kind, path, send);
	if (record) return record;
	throw item.invalid(
		field,
		`the external ID of an existing ${kind.recordName}`,
		reference.externalId,
		`The API has no ${kind.recordName} with this external ID. Create it first (e.g. with its own Create or Update earlier in the workflow), or give its ID.`,
	);
}

/**
 * The ID of a record given by reference: as it is, or found by its external ID (once per run), in
 * the parent's records at `parentPath` where the kind has a parent. `field` is named when the API
 * has no record with that external ID.
 */
export async function idOf(
	reference: RecordReference,
	kind: ReferencedKind,
	field: Field,
	item: ItemParameters,
	send: ItemSender,
	parentPath: Record<string, string> = {},
): Promise<string> {
	if ('id' in reference) return reference.id;
	return String((await foundByExternalId(reference, kind, field, item, send, parentPath)).id);
}

/**
 * The record a reference names, as the operation's own request reads it by ID (its `placeholder`
 * filled in `parentPath`): by its external ID, the lookup's answer is that record, so it is not
 * read a second time.
 */
export async function readRecord(
	reference: RecordReference,
	kind: ReferencedKind,
	{ field, placeholder }: { field: Field; placeholder: string },
	item: ItemParameters,
	send: ItemSender,
	parentPath: Record<string, string> = {},
): Promise<INodeExecutionData[]> {
	if ('id' in reference)
		return await send({ path: { ...parentPath, [placeholder]: reference.id } });
	const record = await foundByExternalId(reference, kind, field, item, send, parentPath);
	// The run's other items may read the same record: each output item gets its own copy.
	return [{ json: structuredClone(record) }];
}

/**
 * The record `field` names as the item gave it, without checks: `{ externalId }` where given by
 * external ID (in a picker's mode, or in an External ID field), otherwise `{ id }`; nothing when
 * not given.
 */
export function asGiven(item: ItemParameters, field: Field, collection?: Field): IDataObject {
	const given = item.raw(collection ? `${collection.name}.${field.name}` : field.name);
	const byExternalId =
		field.name === 'externalId' || (isLocator(given) && given.mode === EXTERNAL_ID_MODE);
	const value = isLocator(given) ? given.value : given;
	if (value === undefined || value === null || value === '') return {};
	return byExternalId ? { externalId: value } : { id: value };
}

function isLocator(value: unknown): value is { mode: unknown; value: unknown } {
	return typeof value === 'object' && value !== null && 'mode' in value && 'value' in value;
}
