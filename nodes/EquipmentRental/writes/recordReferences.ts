import type { IDataObject } from 'n8n-workflow';

import type { BodyField } from '../operations/bodyFields';
import type {
	ExternalIdLookup,
	ItemRequest,
	ItemSender,
	RequestParts,
} from '../engine/itemRequest';
import { lookupOf } from '../engine/declaredRequest';
import type { ErrorContext } from '../../shared/errors';
import type { Field, ItemParameters, RecordReference } from '../../shared/parameters';
import { wholeReadOf } from './wholeReads';
import type { ReferencedKind } from '../../shared/paths';
import { idOf } from '../operations/references';
import type { RecordKind } from './recordKind';
import { ID, byName, parentByPlaceholder, recordUrl, updatable } from './recordKind';

/**
 * `body` with every reference to another record (by ID or external ID) replaced by its ID. A kind
 * the run's items name by external ID more often than its list has pages is read whole once
 * (wholeReads.ts), and the references are found there.
 */
export async function withIds(
	context: ErrorContext,
	body: IDataObject,
	fields: BodyField[],
	item: ItemParameters,
	send: ItemSender,
): Promise<IDataObject> {
	for (const kind of new Set(referencedKinds(body, fields))) {
		const named = () =>
			externalIdsNamed(
				send.run
					.checked<{ body?: IDataObject }>()
					.flatMap(({ body: other }) => (other ? [other] : [])),
				fields,
				kind,
			);
		await wholeReadOf(kind, {}, { named }, send, context);
	}
	return await resolved(body, fields, item, send);
}

async function resolved(
	body: IDataObject,
	fields: BodyField[],
	item: ItemParameters,
	send: ItemSender,
	entryLabel?: string,
): Promise<IDataObject> {
	const withTheirIds: IDataObject = { ...body };
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
			withTheirIds[name] = await idOf(value as RecordReference, field.refersTo, named, item, send);
		} else if (field.entries) {
			const { fields: entryFields, label } = field.entries;
			withTheirIds[field.property.name] = await Promise.all(
				(value as IDataObject[]).map(
					async (entry, index) => await resolved(entry, entryFields, item, send, label(index)),
				),
			);
		}
	}
	return withTheirIds;
}

/** The kinds of record `body` names by external ID through `fields` (a list's entries included). */
function referencedKinds(body: IDataObject, fields: BodyField[]): ReferencedKind[] {
	return fields.flatMap((field) => {
		const value = body[field.property.name];
		if (value === undefined || value === null) return [];
		if (field.refersTo) return isByExternalId(value) ? [field.refersTo] : [];
		return field.entries
			? (value as IDataObject[]).flatMap((entry) => referencedKinds(entry, field.entries!.fields))
			: [];
	});
}

/** The external IDs of `kind` that `bodies` name through `fields` (a list's entries included). */
function externalIdsNamed(
	bodies: IDataObject[],
	fields: BodyField[],
	kind: ReferencedKind,
	named = new Set<string>(),
): Set<string> {
	for (const body of bodies) {
		for (const field of fields) {
			const value = body[field.property.name];
			if (value === undefined || value === null) continue;
			if (field.refersTo === kind && isByExternalId(value)) named.add(value.externalId);
			else if (field.entries)
				externalIdsNamed(value as IDataObject[], field.entries.fields, kind, named);
		}
	}
	return named;
}

function isByExternalId(value: unknown): value is { externalId: string } {
	return typeof value === 'object' && value !== null && 'externalId' in value;
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
	send: ItemSender,
): Promise<Record<string, string>> {
	if (!kind.parent || !parent) return {};
	const { field, placeholder } = kind.parent;
	return { [placeholder]: await idOf(parent, field.refersTo!, field.property, item, send) };
}

/** What an item of a write names and sends: its body, and its records' parent where they have one. */
export type WriteParts = RequestParts & { parent?: RecordReference };

/** The parts of an Update's or a Delete's request: the record it names, and what it sends. */
export type RecordParts = WriteParts & { record: RecordReference };

/** A write's request as prepared: its path (the records' IDs) and its body (references as IDs). */
export interface Prepared {
	path: Record<string, string>;
	body: IDataObject;
}

/** The record an Update or a Delete names: by its ID, or by its external ID. */
export function recordNamed(kind: RecordKind, item: ItemParameters): RecordReference {
	return item.reference(kind.recordPicker) as RecordReference;
}

/**
 * The path of the record `reference` names: its parent's ID (if the records have one) and its own,
 * found by its external ID where given so.
 */
export async function recordPath(
	kind: RecordKind,
	{ record: reference, parent }: RecordParts,
	item: ItemParameters,
	send: ItemSender,
): Promise<Record<string, string>> {
	const path = await collectionPath(kind, parent, item, send);
	return { ...path, [ID]: await idOf(reference, kind, kind.recordPicker, item, send, path) };
}

/**
 * What a write of `kind` declares beside its request for the description snapshot (itemRequest.ts):
 * the fields it sends (`sent`, its parent's ID and `pathFields`), and the records it may find by
 * external ID before writing: its parent, those its fields refer to (read whole for the run where
 * that takes fewer requests, see withIds) and, where it names one, its own `record`, which a
 * Create or Update (`upserts`) may find in its collection read whole, and updates when found.
 */
export function sentByWrite(
	kind: RecordKind,
	sent: BodyField[],
	pathFields: Record<string, Field> = {},
	record?: { field: Field; upserts?: boolean },
): Pick<ItemRequest<RequestParts>, 'fieldsSent' | 'lookups' | 'orInstead'> {
	const referred = (fields: BodyField[], within = ''): ExternalIdLookup[] =>
		fields.flatMap(({ property, refersTo, entries }) => {
			const field = { ...property, name: `${within}${property.name}` };
			if (refersTo) return [lookupOf(field, refersTo, { readWhole: true })];
			return entries ? referred(entries.fields, `${field.name}.`) : [];
		});
	const parentField = parentByPlaceholder(kind);
	return {
		fieldsSent: { ...parentField, ...pathFields, ...byName(sent) },
		lookups: [
			...(kind.parent ? [lookupOf(kind.parent.field.property, kind.parent.field.refersTo!)] : []),
			...(record ? [lookupOf(record.field, kind, { readWhole: record.upserts })] : []),
			...referred(sent),
		],
		...(record?.upserts
			? {
					orInstead: {
						method: kind.updateMethod,
						url: recordUrl(kind),
						fieldsSent: { ...parentField, [ID]: record.field, ...byName(updatable(kind)) },
					},
				}
			: {}),
	};
}
