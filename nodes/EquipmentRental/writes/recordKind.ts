import type { IDataObject, IHttpRequestMethods, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { BodyField } from '../operations/bodyFields';
import { formOf, withRequired } from '../operations/bodyFields';
import type { ItemSender } from '../engine/itemRequest';
import type { Field, ItemParameters } from '../../shared/parameters';
import { withoutUnset } from '../../shared/parameters';
import type { ReferencedKind } from '../../shared/paths';

/**
 * A kind of master record the reference lets the node write (clients, contact persons, contracts,
 * bookings, products, equipment): where it lives and the fields of its body. The factories of this
 * folder (create.ts, update.ts, delete.ts, upsert.ts) make its operations from it.
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
			send: ItemSender,
		): Promise<{ body: IDataObject; notes: IDataObject }>;
	};
}

export const ID = 'id';

/** Where one record of `kind` is read, updated and deleted: its `{id}` after the collection. */
export const recordUrl = (kind: RecordKind) => `${kind.collectionUrl}/{${ID}}`;

const KEEP_WHEN_EMPTY = 'keep';
const CLEAR_WHEN_EMPTY = 'clear';

/**
 * What an Update or a Create or Update does with a field the item gives no value (a blank cell, an
 * expression that comes out empty): by default nothing, as everywhere in the node; or clear it.
 */
export const emptyValues: INodeProperties = {
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
export function emptiedFields(
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

export const asCleared = (names: string[]) => Object.fromEntries(names.map((name) => [name, null]));

/** The fields an update sends: the update page's, or the create page's where it has none. */
export function updatable(kind: RecordKind): BodyField[] {
	return kind.updatableFields ?? kind.fields;
}

/**
 * The name under which the API reads back each field of `kind` (BodyField.readBackAs; most are read
 * back under the name they are sent with): the name a record found is compared and held by.
 */
export function readBackName(kind: RecordKind): (name: string) => string {
	const renamed = new Map(
		[...kind.fields, ...updatable(kind)].flatMap((field) =>
			field.readBackAs ? [[field.property.name, field.readBackAs] as const] : [],
		),
	);
	return (name) => renamed.get(name) ?? name;
}

/** `values` as sent, named as the API reads them back (readBackName). */
export function asReadBack(readName: (name: string) => string, values: IDataObject): IDataObject {
	return Object.fromEntries(Object.entries(values).map(([name, value]) => [readName(name), value]));
}

export function byName(fields: BodyField[]): Record<string, Field> {
	return Object.fromEntries(fields.map((field) => [field.property.name, field.property]));
}

/**
 * The fields as a collection's options, each as the form shows it (a list with its input mode and
 * JSON): sorted by label, none required (n8n would mark it).
 */
export function asOptions(fields: BodyField[]): INodeProperties[] {
	return fields
		.flatMap((field) => formOf(withRequired(field, false)))
		.sort((left, right) => left.displayName.localeCompare(right.displayName));
}

/** The fields of `kind` the form shows at the top (required) and under a collection (the rest). */
export function split(kind: RecordKind, leaveOut: string[] = []) {
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
export function bodyOf(item: ItemParameters, fields: BodyField[], collection?: Field): IDataObject {
	return withoutUnset(
		Object.fromEntries(
			fields.map((field) => [field.property.name, field.read(item, field.property, collection)]),
		) as IDataObject,
	);
}

/** The field that names the records' parent, by its path parameter; none where they have none. */
export const parentByPlaceholder = (kind: RecordKind): Record<string, Field> =>
	kind.parent ? { [kind.parent.placeholder]: kind.parent.field.property } : {};

export function fieldLabels<Extra extends Record<string, Field>>(
	kind: RecordKind,
	extra = {} as Extra,
): Record<string, Field> & Extra {
	return {
		...byName(kind.fields),
		...byName(updatable(kind)),
		...parentByPlaceholder(kind),
		...extra,
	};
}

export function shownFor(kind: RecordKind, operation: string, fields: INodeProperties[]) {
	return updateDisplayOptions({ show: { resource: [kind.resource], operation: [operation] } }, [
		...(kind.parent ? [kind.parent.field.property] : []),
		...fields,
	]);
}

/** The fields an update may clear: those a record may lack (neither required nor always set). */
export function clearable(kind: RecordKind): BodyField[] {
	const kept = [...kind.requiredOnCreate, ...(kind.alwaysSet ?? [])];
	return updatable(kind).filter(
		(field) => !kept.includes(field.property.name) && field.property.type !== 'boolean',
	);
}
