import type {
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { BodyField } from './bodyFields';
import { withRequired } from './bodyFields';
import { additionalFieldsCollection, updateFieldsCollection } from './descriptions';
import { mayHaveBeenDone } from './errors';
import type { RequestParts, SendParts } from './itemRequest';
import { runPerItem } from './itemRequest';
import type { Field, ItemParameters, RecordReference } from './parameters';
import { withoutUnset } from './parameters';
import type { Operation } from './recordOperations';
import { externalIdField } from './recordOperations';
import type { ReferencedKind } from './references';
import { asGiven, idOf, recordAt, settled } from './references';
import { changedValues } from './storedValues';

/**
 * A kind of master record the reference lets the node write (clients, contact persons, contracts,
 * bookings, products, equipment): where it lives and the fields of its body. The factories below
 * make its Create, Update, Delete and Create or Update from it.
 */
export interface RecordKind extends ReferencedKind {
	resource: string;
	/** Where the records are created and listed; `{name}` placeholders are the parent's. */
	collectionUrl: string;
	/** The record's picker for Update and Delete (its value is the `{id}` after collectionUrl). */
	recordPicker: INodeProperties;
	/** The record that holds these (a contact person's client), picked for every operation. */
	parent?: { field: BodyField; placeholder: string };
	/** PATCH changes the fields sent; PUT replaces the record with what is sent. */
	updateMethod: Extract<IHttpRequestMethods, 'PATCH' | 'PUT'>;
	/** Every field of the create page's body, named as the API names them. */
	fields: BodyField[];
	/** The update page's body, where it differs from the create page's. */
	updatableFields?: BodyField[];
	/** The fields the create page requires, in its order (the form shows them so). */
	requiredOnCreate: string[];
	/**
	 * Other fields a record always has (the API gives them a value when a create leaves them out,
	 * e.g. a generated number), which Fields to Clear does not offer.
	 */
	alwaysSet?: string[];
	/**
	 * What a create takes from elsewhere when the item leaves it empty (a booking's product, from
	 * the equipment booked): the fields it may fill in (required by the create page, shown at the
	 * top, but not required in the form) and how, with what the output says about it.
	 */
	fillIn?: {
		fields: string[];
		complete(
			body: IDataObject,
			item: ItemParameters,
			send: SendParts,
		): Promise<{ body: IDataObject; said: IDataObject }>;
	};
}

const clearFields: INodeProperties = {
	displayName: 'Fields to Clear',
	name: 'clearFields',
	type: 'multiOptions',
	default: [],
	description:
		'Fields whose value the API should remove (sent as null). Fields not chosen here or under Update Fields keep their values.',
};

const ID = 'id';

const KEEP_WHEN_EMPTY = 'keep';
const CLEAR_WHEN_EMPTY = 'clear';

/**
 * What an Update or a Create or Update does with a field the item gives no value (a blank cell, an
 * expression that comes out empty): by default nothing, as everywhere in the node; or clear it.
 */
const emptyValues: INodeProperties = {
	displayName: 'Empty Values',
	name: 'emptyValues',
	type: 'options',
	default: KEEP_WHEN_EMPTY,
	options: [
		{
			name: 'Leave the Field as It Is',
			value: KEEP_WHEN_EMPTY,
			description: 'A field whose value comes out empty is not sent: the record keeps its value',
		},
		{
			name: 'Clear the Field',
			value: CLEAR_WHEN_EMPTY,
			description:
				"A field whose value comes out empty is sent as null: the API removes the record's value, as with Fields to Clear",
		},
	],
	description:
		'What a field added below does when its value comes out empty for an item (e.g. a blank cell in a sheet). Fields not added are never sent.',
};

/**
 * The fields added to `collection` whose value came out empty (not in `body`) that the API lets a
 * record lack, when Empty Values says to clear them; none otherwise.
 */
function emptiedFields(
	item: ItemParameters,
	kind: RecordKind,
	collection: INodeProperties,
	body: IDataObject,
): string[] {
	if (item.oneOf(emptyValues, [KEEP_WHEN_EMPTY, CLEAR_WHEN_EMPTY]) !== CLEAR_WHEN_EMPTY) return [];
	return clearable(kind)
		.map((field) => field.property)
		.filter((field) => !(field.name in body) && item.wasAdded(field, collection))
		.map((field) => field.name);
}

const asCleared = (names: string[]) => Object.fromEntries(names.map((name) => [name, null]));

/** The fields an update sends: the update page's, or the create page's where it has none. */
function updatable(kind: RecordKind): BodyField[] {
	return kind.updatableFields ?? kind.fields;
}

function byName(fields: BodyField[]): Record<string, Field> {
	return Object.fromEntries(fields.map((field) => [field.property.name, field.property]));
}

/** The fields as a collection's options: sorted by label, none required (n8n would mark it). */
function asOptions(fields: BodyField[]): INodeProperties[] {
	return fields
		.map((field) => withRequired(field, false).property)
		.sort((left, right) => left.displayName.localeCompare(right.displayName));
}

/** The fields of `kind` the form shows at the top (required) and under a collection (the rest). */
function split(kind: RecordKind, leaveOut: string[] = []) {
	const shown = kind.fields.filter((field) => !leaveOut.includes(field.property.name));
	const isRequired = (field: BodyField) => kind.requiredOnCreate.includes(field.property.name);
	const rank = (field: BodyField) => kind.requiredOnCreate.indexOf(field.property.name);
	return {
		// In the order the create page lists them.
		required: shown
			.filter(isRequired)
			.sort((left, right) => rank(left) - rank(right))
			.map((field) => withRequired(field, !kind.fillIn?.fields.includes(field.property.name))),
		optional: shown
			.filter((field) => !isRequired(field))
			.map((field) => withRequired(field, false)),
	};
}

/** The item's body of `fields`, each read from the form (from `collection`, if given). */
function bodyOf(item: ItemParameters, fields: BodyField[], collection?: Field): IDataObject {
	return withoutUnset(
		Object.fromEntries(
			fields.map((field) => [field.property.name, field.read(item, field.property, collection)]),
		) as IDataObject,
	);
}

/** `body` with every reference to another record (by ID or external ID) replaced by its ID. */
async function withIds(
	body: IDataObject,
	fields: BodyField[],
	item: ItemParameters,
	send: SendParts,
	entryLabel?: string,
): Promise<IDataObject> {
	const resolved: IDataObject = { ...body };
	for (const field of fields) {
		const value = body[field.property.name];
		// Not given, or cleared (null).
		if (value === undefined || value === null) continue;
		if (field.refersTo) {
			const { name, displayName } = field.property;
			// A field of a list's entry is named by its entry, as its checks name it (bodyFields.ts).
			const named = {
				name,
				displayName: entryLabel ? `${entryLabel}: ${displayName}` : displayName,
			};
			resolved[name] = await idOf(value as RecordReference, field.refersTo, named, item, send);
		} else if (field.entries) {
			const { fields: entryFields, label } = field.entries;
			resolved[field.property.name] = await Promise.all(
				(value as IDataObject[]).map(
					async (entry, index) => await withIds(entry, entryFields, item, send, label(index)),
				),
			);
		}
	}
	return resolved;
}

/** The record that holds the item's records (a contact person's client), as the item names it. */
export function parentNamed(kind: RecordKind, item: ItemParameters): RecordReference | undefined {
	if (!kind.parent) return undefined;
	const { field } = kind.parent;
	return field.read(item, field.property) as RecordReference;
}

/**
 * The path parameters of the records' collection: the ID of their parent (named by `parent`), if
 * they have one.
 */
export async function collectionPath(
	kind: RecordKind,
	parent: RecordReference | undefined,
	item: ItemParameters,
	send: SendParts,
): Promise<Record<string, string>> {
	if (!kind.parent || !parent) return {};
	const { field, placeholder } = kind.parent;
	return { [placeholder]: await idOf(parent, field.refersTo!, field.property, item, send) };
}

/** What an item of a write names and sends: its body, and its records' parent where they have one. */
type WriteParts = RequestParts & { parent?: RecordReference };

/** The parts of an Update's or a Delete's request: the record it names, and what it sends. */
type RecordParts = WriteParts & { record: RecordReference };

/** A write's request as prepared: its path (the records' IDs) and its body (references as IDs). */
interface Prepared {
	path: Record<string, string>;
	body: IDataObject;
}

/** The record an Update or a Delete names: by its ID, or by its external ID. */
function recordNamed(kind: RecordKind, item: ItemParameters): RecordReference {
	return item.reference(kind.recordPicker) as RecordReference;
}

/**
 * The path of the record `reference` names: its parent's ID (if the records have one) and its own,
 * found by its external ID where given so.
 */
async function recordPath(
	kind: RecordKind,
	{ record: reference, parent }: RecordParts,
	item: ItemParameters,
	send: SendParts,
): Promise<Record<string, string>> {
	const path = await collectionPath(kind, parent, item, send);
	return { ...path, [ID]: await idOf(reference, kind, kind.recordPicker, item, send, path) };
}

function fieldLabels<Extra extends Record<string, Field>>(
	kind: RecordKind,
	extra = {} as Extra,
): Record<string, Field> & Extra {
	return {
		...byName(kind.fields),
		...byName(updatable(kind)),
		...(kind.parent ? { [kind.parent.placeholder]: kind.parent.field.property } : {}),
		...extra,
	};
}

function shownFor(kind: RecordKind, operation: string, fields: INodeProperties[]) {
	return updateDisplayOptions({ show: { resource: [kind.resource], operation: [operation] } }, [
		...(kind.parent ? [kind.parent.field.property] : []),
		...fields,
	]);
}

/** Create: the create page's required fields, then Additional Fields; outputs the new record. */
export function createOperation(kind: RecordKind, description: string): Operation {
	const { required, optional } = split(kind);
	const collection: INodeProperties = {
		...additionalFieldsCollection,
		options: asOptions(optional),
	};
	return {
		option: {
			name: 'Create',
			value: 'create',
			action: `Create a ${kind.recordName}`,
			description,
			routing: runPerItem(
				{
					method: 'POST',
					url: kind.collectionUrl,
					parts: (item): WriteParts => ({
						parent: parentNamed(kind, item),
						body: { ...bodyOf(item, required), ...bodyOf(item, optional, collection) },
					}),
					fieldsByApiName: fieldLabels(kind),
					identifies: (item) => asGiven(item, externalIdField, collection),
				},
				{
					async prepare(parts, item, send) {
						const path = await collectionPath(kind, parts.parent, item, send);
						const body = await withIds(parts.body!, kind.fields, item, send);
						return { path, ...(await filledIn(kind, body, item, send)) };
					},
					async perform({ path, body, said }, _item, send) {
						return withSaid(await send({ path, body }), said);
					},
				},
			),
		},
		fields: shownFor(kind, 'create', [...required.map((field) => field.property), collection]),
	};
}

/** A create's body with what the kind fills in where the item left it empty (RecordKind.fillIn). */
async function filledIn(
	kind: RecordKind,
	body: IDataObject,
	item: ItemParameters,
	send: SendParts,
): Promise<{ body: IDataObject; said: IDataObject }> {
	return (await kind.fillIn?.complete(body, item, send)) ?? { body, said: {} };
}

/** The output items, each with what the node says about the write beside the API's answer. */
function withSaid(items: INodeExecutionData[], said: IDataObject): INodeExecutionData[] {
	return items.map((item) => ({ ...item, json: { ...item.json, ...said } }));
}

/** The fields an update may clear: those a record may lack (neither required nor always set). */
function clearable(kind: RecordKind): BodyField[] {
	const kept = [...kind.requiredOnCreate, ...(kind.alwaysSet ?? [])];
	return updatable(kind).filter(
		(field) => !kept.includes(field.property.name) && field.property.type !== 'boolean',
	);
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
async function sendChanges(
	kind: RecordKind,
	path: Record<string, string>,
	changes: IDataObject,
	send: SendParts,
	current?: IDataObject,
): Promise<INodeExecutionData[]> {
	const url = `${kind.collectionUrl}/{${ID}}`;
	if (kind.updateMethod === 'PATCH')
		return await send({ method: 'PATCH', url, path, body: changes });
	const record = current ?? (await send({ method: 'GET', url, path }))[0].json;
	return await send({ method: 'PUT', url, path, body: replacement(kind, record, changes) });
}

/** Update: the record, then Update Fields and Fields to Clear; outputs the updated record. */
export function updateOperation(kind: RecordKind, description: string): Operation {
	const collection: INodeProperties = {
		...updateFieldsCollection,
		options: asOptions(updatable(kind)),
	};
	const toClear: INodeProperties = {
		...clearFields,
		options: asOptions(clearable(kind)).map((field) => ({
			name: field.displayName,
			value: field.name,
		})),
	};
	const clearableNames = clearable(kind).map((field) => field.property.name);
	return {
		option: {
			name: 'Update',
			value: 'update',
			action: `Update a ${kind.recordName}`,
			description,
			routing: runPerItem(
				{
					method: kind.updateMethod,
					url: `${kind.collectionUrl}/{${ID}}`,
					parts: (item): RecordParts & { body: IDataObject } => {
						const record = recordNamed(kind, item);
						const changes = bodyOf(item, updatable(kind), collection);
						const cleared = item.someOf(toClear, clearableNames) ?? [];
						const both = cleared.find((name) => name in changes);
						if (both) {
							throw item.invalid(
								toClear,
								'fields not also given a value under Update Fields',
								both,
								`'${byName(updatable(kind))[both].displayName}' is both set and cleared.`,
							);
						}
						const emptied = emptiedFields(item, kind, collection, changes);
						const body = { ...changes, ...asCleared([...cleared, ...emptied]) };
						if (Object.keys(body).length === 0) {
							throw item.invalid(
								collection,
								'given at least one field to change',
								undefined,
								'Add a field under Update Fields, or choose one under Fields to Clear.',
							);
						}
						return { record, body, parent: parentNamed(kind, item) };
					},
					fieldsByApiName: fieldLabels(kind, { [ID]: kind.recordPicker }),
					identifies: (item) => asGiven(item, kind.recordPicker),
				},
				{
					async prepare(parts, item, send): Promise<Prepared> {
						return {
							path: await recordPath(kind, parts, item, send),
							body: await withIds(parts.body, updatable(kind), item, send),
						};
					},
					async perform({ path, body }, _item, send) {
						return await sendChanges(kind, path, body, send);
					},
				},
			),
		},
		fields: shownFor(kind, 'update', [kind.recordPicker, emptyValues, collection, toClear]),
	};
}

/**
 * Delete: the record; outputs `deleted: true` with its ID once the API has said so. A record that
 * is not there fails the item (a 404 naming it), never a success.
 */
export function deleteOperation(kind: RecordKind, description: string): Operation {
	return {
		option: {
			name: 'Delete',
			value: 'delete',
			action: `Delete a ${kind.recordName}`,
			description,
			routing: runPerItem(
				{
					method: 'DELETE',
					url: `${kind.collectionUrl}/{${ID}}`,
					parts: (item): RecordParts => ({
						record: recordNamed(kind, item),
						parent: parentNamed(kind, item),
					}),
					fieldsByApiName: fieldLabels(kind, { [ID]: kind.recordPicker }),
					output: [
						{ type: 'set', properties: { value: '={{ { "deleted": true, ...$response.body } }}' } },
					],
					changed: ({ path }) => path ?? {},
					identifies: (item) => asGiven(item, kind.recordPicker),
				},
				{
					prepare: async (parts, item, send) => await recordPath(kind, parts, item, send),
					perform: async (path, _item, send) => await send({ path }),
				},
			),
		},
		fields: shownFor(kind, 'delete', [kind.recordPicker]),
	};
}

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
