import type { INodeProperties } from 'n8n-workflow';

import { additionalFieldsCollection } from '../../shared/descriptions';
import { runPerItem } from '../engine/itemRouting';
import { formOf } from '../operations/bodyFields';
import type { Operation } from '../operations/recordOperations';
import { externalIdField } from '../operations/recordOperations';
import { asGiven } from '../operations/references';
import type { RecordKind } from './recordKind';
import {
	asOptions,
	asReadBack,
	bodyOf,
	fieldLabels,
	readBackName,
	shownFor,
	split,
} from './recordKind';
import { previewMarks, previews, writeMode } from './preview';
import type { WriteParts } from './recordReferences';
import { collectionPath, parentNamed, sentByWrite, withIds } from './recordReferences';
import { completedBody, withNotes } from './recordRequests';

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
					parts: (item): WriteParts & { preview: boolean } => ({
						parent: parentNamed(kind, item),
						body: { ...bodyOf(item, required), ...bodyOf(item, optional, collection) },
						preview: previews(item),
					}),
					fieldsByApiName: fieldLabels(kind),
					...sentByWrite(kind, kind.fields),
					identifies: (item) => asGiven(item, externalIdField, collection),
				},
				{
					async prepare(parts, item, send) {
						const path = await collectionPath(kind, parts.parent, item, send);
						const body = await withIds(this, parts.body!, kind.fields, item, send);
						return {
							path,
							preview: parts.preview,
							...(await completedBody(kind, body, item, send)),
						};
					},
					async perform({ path, body, notes, preview }, _item, send) {
						// A preview outputs the record it would send, named as the API reads it back.
						if (preview)
							return withNotes([{ json: asReadBack(readBackName(kind), body) }], {
								...notes,
								...previewMarks(true),
							});
						return withNotes(await send({ path, body }), notes);
					},
				},
			),
		},
		fields: shownFor(kind, 'create', [writeMode, ...required.flatMap(formOf), collection]),
	};
}
