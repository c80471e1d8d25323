import type { IDataObject, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ErrorContext } from '../../shared/errors';
import { itemSuffix } from '../../shared/errors';
import type { ItemSender } from '../engine/itemRequest';
import type { ItemParameters } from '../../shared/parameters';
import type { RecordKind } from './recordKind';
import { recordUrl } from './recordKind';

/*
 * What a write changes in a record it found, as the output says it; how it sends the changes (or
 * completes a create's body); and what its output items say beside the API's answer.
 */

// A moment as the node sends it and as APIs answer it (with or without milliseconds, Z or offset).
const ISO_DATE_TIME_PATTERN =
	/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function isEmpty(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		(typeof value === 'string' && value.trim() === '') ||
		(Array.isArray(value) && value.length === 0)
	);
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return value;
	if (typeof value === 'string' && value.trim() !== '') {
		const number = Number(value);
		return Number.isFinite(number) ? number : undefined;
	}
	return undefined;
}

/**
 * Whether the record's `stored` value already is the value a write would send, as the API stores
 * it: moments as the same instant whatever their form (the node sends them in UTC), numbers by
 * value, texts and options as given, lists entry by entry, objects by the keys sent (the API adds
 * its own, e.g. an entry's ID); an empty value matches a missing one.
 */
export function holdsValue(stored: unknown, sent: unknown): boolean {
	if (isEmpty(sent)) return isEmpty(stored);
	if (typeof sent === 'number') return asNumber(stored) === sent;
	if (typeof sent === 'boolean') return stored === sent;
	if (typeof sent === 'string') {
		if (stored === sent) return true;
		if (typeof stored === 'number') return asNumber(sent) === stored;
		return (
			typeof stored === 'string' &&
			ISO_DATE_TIME_PATTERN.test(sent) &&
			ISO_DATE_TIME_PATTERN.test(stored) &&
			Date.parse(sent) === Date.parse(stored)
		);
	}
	if (Array.isArray(sent))
		return (
			Array.isArray(stored) &&
			stored.length === sent.length &&
			sent.every((entry, index) => holdsValue(stored[index], entry))
		);
	if (isObject(sent))
		return (
			isObject(stored) &&
			Object.entries(sent).every(([name, value]) => holdsValue(stored[name], value))
		);
	return false;
}

/**
 * The values the record does not hold yet: what an update of it must send. The record holds each
 * under `readBackName(name)`, where the API reads a field back under another name than it takes.
 */
export function changedValues(
	record: IDataObject,
	values: IDataObject,
	readBackName: (name: string) => string = (name) => name,
): IDataObject {
	return Object.fromEntries(
		Object.entries(values).filter(
			([name, value]) => !holdsValue(record[readBackName(name)], value),
		),
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

/** A create's body with what the kind fills in where the item left it empty (RecordKind.fillIn). */
export async function completedBody(
	kind: RecordKind,
	body: IDataObject,
	item: ItemParameters,
	send: ItemSender,
): Promise<{ body: IDataObject; notes: IDataObject }> {
	return (await kind.fillIn?.complete(body, item, send)) ?? { body, notes: {} };
}

/** The output items, each with what the node says about the write beside the API's answer. */
export function withNotes(items: INodeExecutionData[], notes: IDataObject): INodeExecutionData[] {
	return items.map((item) => ({ ...item, json: { ...item.json, ...notes } }));
}

/**
 * What an update sends for PUT, which replaces the record: the record's own values of the body's
 * fields, with the changes over them, so that no field the user did not touch is lost.
 */
function replacement(kind: RecordKind, record: IDataObject, changes: IDataObject): IDataObject {
	const kept = Object.fromEntries(
		kind.fields
			.map((field) => field.property.name)
			.filter((name) => record[name] !== undefined && record[name] !== null)
			.map((name) => [name, record[name]]),
	);
	return { ...kept, ...changes };
}

/**
 * Sends the changes to the record at `path`: PATCH sends them alone; PUT (which replaces) sends
 * them over the record's current values, read first unless the caller has just read it.
 */
export async function sendChanges(
	kind: RecordKind,
	path: Record<string, string>,
	changes: IDataObject,
	send: ItemSender,
	current?: IDataObject,
): Promise<INodeExecutionData[]> {
	const url = recordUrl(kind);
	if (kind.updateMethod === 'PATCH')
		return await send({ method: 'PATCH', url, path, body: changes });
	const record = current ?? (await send({ method: 'GET', url, path }))[0].json;
	return await send({ method: 'PUT', url, path, body: replacement(kind, record, changes) });
}

/**
 * The error of an update of a record the node read whole and another writer deleted since: the row
 * is not written, and no second record is made for its external ID by it (a later row, no longer
 * finding it in the whole read, creates it).
 */
export function deletedMeanwhile(
	context: ErrorContext,
	kind: RecordKind,
	externalId: string,
	notFound: unknown,
): NodeApiError {
	return new NodeApiError(context.getNode(), {} as JsonObject, {
		message: `The ${kind.recordName} with external ID '${externalId}' was deleted while the run went on (HTTP 404)${itemSuffix(context)}`,
		description: `The node read the ${kind.recordName} before it wrote any row (in this run, or an earlier batch of the execution), and the API no longer has it. Nothing was written for this row. Run it again to create the ${kind.recordName} anew. The API said: ${(notFound as NodeApiError).description ?? (notFound as Error).message}`,
		httpCode: '404',
		itemIndex: context.getItemIndex?.(),
	});
}

type Upserted = 'created' | 'updated' | 'unchanged';

/**
 * The output of a Create or Update: the API's answer (or the record found, or the record as it
 * would be), with its ID, what became of it (`upserted`) and the node's `notes`.
 */
export function upsertOutput(
	answer: INodeExecutionData[],
	record: IDataObject,
	upserted: Upserted,
	notes: IDataObject = {},
) {
	return answer.map((item) => ({
		...item,
		json: {
			...item.json,
			...(item.json.id === undefined && record.id !== undefined ? { id: record.id } : {}),
			upserted,
			...notes,
		},
	}));
}
