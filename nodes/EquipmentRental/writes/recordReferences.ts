import type { IDataObject } from 'n8n-workflow';

import type { BodyField } from '../operations/bodyFields';
import type { ItemSender, RequestParts } from '../engine/itemRequest';
import type { ItemParameters, RecordReference } from '../../shared/parameters';
import { idOf } from '../operations/references';
import type { RecordKind } from './recordKind';
import { ID } from './recordKind';

/**
 * `body` with every reference to another record (by ID or external ID) replaced by its ID, found
 * in the run's whole read of its kind where readReferencedWhole made one (wholeReads.ts).
 */
export async function withIds(
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
					async (entry, index) => await withIds(entry, entryFields, item, send, label(index)),
				),
			);
		}
	}
	return withTheirIds;
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
