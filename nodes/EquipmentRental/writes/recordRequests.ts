import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { ItemSender } from '../engine/itemRequest';
import type { ItemParameters } from '../../shared/parameters';
import type { RecordKind } from './recordKind';
import { recordUrl } from './recordKind';

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
