import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { updateFieldsCollection } from '../../shared/descriptions';
import { runPerItem } from '../engine/itemRouting';
import type { Operation } from '../operations/recordOperations';
import { asGiven } from '../operations/references';
import type { RecordKind } from './recordKind';
import {
	ID,
	asCleared,
	asOptions,
	bodyOf,
	byName,
	clearable,
	emptiedFields,
	emptyValues,
	asReadBack,
	fieldLabels,
	readBackName,
	recordUrl,
	shownFor,
	updatable,
} from './recordKind';
import { changedValues } from './storedValues';
import { changesOf, previews, writeMode } from './preview';
import type { Prepared, RecordParts } from './recordReferences';
import { parentNamed, recordNamed, recordPath, sentByWrite, withIds } from './recordReferences';
import { sendChanges } from './recordRequests';

const clearFields: INodeProperties = {
	displayName: 'Fields to Clear',
	name: 'clearFields',
	type: 'multiOptions',
	default: [],
	description:
		'Fields whose value the API should remove (sent as null). Fields not chosen here or under Update Fields keep their values.',
};

/** Update: the record, then Update Fields and Fields to Clear; outputs the updated record. */
export function updateOperation(kind: RecordKind, description: string): Operation {
	const collection: INodeProperties = {
		...updateFieldsCollection,
		options: asOptions(updatable(kind)),
	};
	const toClear: INodeProperties = {
		...clearFields,
		options: clearable(kind)
			.map(({ property }) => ({ name: property.displayName, value: property.name }))
			.sort((left, right) => left.name.localeCompare(right.name)),
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
					url: recordUrl(kind),
					parts: (item): RecordParts & { body: IDataObject; preview: boolean } => {
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
						return { record, body, parent: parentNamed(kind, item), preview: previews(item) };
					},
					fieldsByApiName: fieldLabels(kind, { [ID]: kind.recordPicker }),
					...sentByWrite(
						kind,
						updatable(kind),
						{ [ID]: kind.recordPicker },
						{ field: kind.recordPicker },
					),
					identifies: (item) => asGiven(item, kind.recordPicker),
				},
				{
					async prepare(parts, item, send): Promise<Prepared & { preview: boolean }> {
						return {
							path: await recordPath(kind, parts, item, send),
							body: await withIds(this, parts.body, updatable(kind), item, send),
							preview: parts.preview,
						};
					},
					async perform({ path, body, preview }, _item, send) {
						if (!preview) return await sendChanges(kind, path, body, send);
						// A preview reads the record and outputs it as the update would leave it.
						const [{ json: record }] = await send({ method: 'GET', url: recordUrl(kind), path });
						const readName = readBackName(kind);
						const changed = changedValues(record, body, readName);
						const changes = changesOf(record, changed, readName);
						return [
							{ json: { ...record, ...asReadBack(readName, changed), preview: true, changes } },
						];
					},
				},
			),
		},
		fields: shownFor(kind, 'update', [
			writeMode,
			kind.recordPicker,
			emptyValues,
			collection,
			toClear,
		]),
	};
}
