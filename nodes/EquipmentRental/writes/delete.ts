import { runPerItem } from '../engine/itemRouting';
import type { Operation } from '../operations/recordOperations';
import { asGiven } from '../operations/references';
import type { RecordKind } from './recordKind';
import { ID, fieldLabels, recordUrl, shownFor } from './recordKind';
import { previews, writeMode } from './preview';
import type { RecordParts } from './recordReferences';
import { parentNamed, recordNamed, recordPath, sentByWrite } from './recordReferences';

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
					url: recordUrl(kind),
					parts: (item): RecordParts & { preview: boolean } => ({
						record: recordNamed(kind, item),
						parent: parentNamed(kind, item),
						preview: previews(item),
					}),
					fieldsByApiName: fieldLabels(kind, { [ID]: kind.recordPicker }),
					...sentByWrite(kind, [], { [ID]: kind.recordPicker }, { field: kind.recordPicker }),
					output: [
						{ type: 'set', properties: { value: '={{ { "deleted": true, ...$response.body } }}' } },
					],
					changed: ({ path }) => path ?? {},
					identifies: (item) => asGiven(item, kind.recordPicker),
				},
				{
					prepare: async (parts, item, send) => ({
						path: await recordPath(kind, parts, item, send),
						preview: parts.preview,
					}),
					async perform({ path, preview }, _item, send) {
						if (!preview) return await send({ path });
						// A preview outputs the record it would delete (the read's answer goes through the
						// operation's output, which says deleted: nothing is).
						const read = await send({ method: 'GET', url: recordUrl(kind), path });
						return read.map(({ json }) => ({ json: { ...json, deleted: false, preview: true } }));
					},
				},
			),
		},
		fields: shownFor(kind, 'delete', [writeMode, kind.recordPicker]),
	};
}
