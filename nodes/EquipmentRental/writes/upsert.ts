import type {
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { additionalFieldsCollection } from '../shared/descriptions';
import { mayHaveBeenDone } from '../shared/errors';
import { runPerItem } from '../shared/itemRequest';
import type { Operation } from '../shared/recordOperations';
import { externalIdField } from '../shared/recordOperations';
import { asGiven, recordAt, settled } from '../shared/references';
import { changedValues } from '../shared/storedValues';
import type { RecordKind } from './recordKind';
import {
	ID,
	asCleared,
	asOptions,
	bodyOf,
	emptiedFields,
	emptyValues,
	fieldLabels,
	shownFor,
	split,
	updatable,
} from './recordKind';
import type { Prepared } from './recordReferences';
import { collectionPath, parentNamed, withIds } from './recordReferences';
import { filledIn, sendChanges, withSaid } from './recordRequests';

/**
 * The upserts under way in this n8n process, by API and external ID: items with the same external
 * ID (a sheet with a row twice, two executions at once) are written one after the other, so that
 * the second finds what the first created.
 */
const upsertsUnderWay = new Map<string, Promise<unknown>>();

async function oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T> {
	const before = upsertsUnderWay.get(key) ?? Promise.resolve();
	const run = before.then(task, task);
	const settled = run.then(
		() => undefined,
		() => undefined,
	);
	upsertsUnderWay.set(key, settled);
	try {
		return await run;
	} finally {
		if (upsertsUnderWay.get(key) === settled) upsertsUnderWay.delete(key);
	}
}

type Upserted = 'created' | 'updated' | 'unchanged';

function upsertOutput(answer: INodeExecutionData[], record: IDataObject, upserted: Upserted) {
	return answer.map((item) => ({
		...item,
		json: { ...item.json, ...(item.json.id === undefined ? { id: record.id } : {}), upserted },
	}));
}

/**
 * Create or Update by External ID: finds the record by its external ID, updates it when found and
 * creates it (with that external ID) when not; outputs the record as the API answers, with
 * `upserted: "created"` or `"updated"`, or as found, with `"unchanged"`, when it already holds every
 * value the item gives (nothing is written then; an update sends only the values that differ).
 * Safe to repeat: a run again, or an item retried after a create whose answer was lost, finds the
 * record and updates it. A create refused because the external ID was taken meanwhile (409) is
 * turned into an update of that record; a create whose answer was lost is looked up again, and
 * counts as created when the record there holds its values (otherwise another writer made it, and
 * it is updated).
 */
export function upsertOperation(kind: RecordKind, description: string): Operation {
	const externalId = externalIdField;
	const { required, optional } = split(kind, [externalId.name]);
	const collection: INodeProperties = {
		...additionalFieldsCollection,
		options: asOptions(optional),
	};
	return {
		option: {
			name: 'Create or Update',
			value: 'upsert',
			action: `Create or update a ${kind.recordName}`,
			description,
			routing: runPerItem(
				{
					method: 'POST',
					url: kind.collectionUrl,
					parts: (item) => {
						const optionalValues = bodyOf(item, optional, collection);
						return {
							parent: parentNamed(kind, item),
							body: {
								externalId: item.identifier(externalId) as string,
								...bodyOf(item, required),
								...optionalValues,
							},
							emptied: emptiedFields(item, kind, collection, optionalValues),
						};
					},
					fieldsByApiName: fieldLabels(kind, { externalId }),
					identifies: (item) => asGiven(item, externalId),
				},
				{
					async prepare(parts, item, send): Promise<Prepared & { emptied: string[] }> {
						return {
							path: await collectionPath(kind, parts.parent, item, send),
							body: await withIds(parts.body, kind.fields, item, send),
							emptied: parts.emptied,
						};
					},
					perform: async function (this: IExecutePaginationFunctions, prepared, item, send, api) {
						const { path, body } = prepared;
						const { externalId: key } = body;
						// What the create sends that the update page lacks (a booking's contract) stays as it is;
						// a field that came out empty clears the record's where Empty Values says so.
						const changes = {
							...Object.fromEntries(
								updatable(kind)
									.map((field) => field.property.name)
									.filter((name) => name !== 'externalId' && body[name] !== undefined)
									.map((name) => [name, body[name]]),
							),
							...asCleared(prepared.emptied),
						} as IDataObject;
						// Only what the record does not hold yet is written: a row that has not changed sends
						// nothing, and leaves the record's updatedAt (and the trigger) alone.
						const update = async (record: IDataObject) => {
							const changed = changedValues(record, changes);
							if (Object.keys(changed).length === 0)
								return upsertOutput([{ json: record }], record, 'unchanged');
							return upsertOutput(
								await sendChanges(
									kind,
									{ ...path, [ID]: String(record.id) },
									changed,
									send,
									record,
								),
								record,
								'updated',
							);
						};
						const records = `${api.baseUrl} ${kind.collectionUrl} ${JSON.stringify(path)}`;
						const find = async () =>
							await recordAt(kind.externalIdUrl, { ...path, externalId: String(key) }, send);
						return await oneAtATime(`${records} ${String(key)}`, async () => {
							const found = await find();
							if (found) return await update(found);
							const { body: complete, said } = await filledIn(kind, body, item, send);
							const created = await settled(send({ path, body: complete }));
							if ('answer' in created)
								return withSaid(upsertOutput(created.answer, {}, 'created'), said);
							const taken = (created.error as { httpCode?: string }).httpCode === '409';
							if (!taken && !mayHaveBeenDone(created.error)) throw created.error;
							const after = await find();
							if (!after) throw created.error;
							// A create that may have been done, found holding what it sent, is the record it
							// made. Taken meanwhile, or found with other values, it is another writer's
							// record, which gets this item's values.
							const made = !taken && Object.keys(changedValues(after, changes)).length === 0;
							return made
								? withSaid(upsertOutput([{ json: after }], after, 'created'), said)
								: await update(after);
						});
					},
				},
			),
		},
		fields: shownFor(kind, 'upsert', [
			externalId,
			...required.map((field) => field.property),
			emptyValues,
			collection,
		]),
	};
}
