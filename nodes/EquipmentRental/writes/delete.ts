import { runPerItem } from '../engine/itemRouting';
import type { Operation } from '../operations/recordOperations';
import { asGiven } from '../operations/references';
import type { RecordKind } from './recordKind';
import { ID, fieldLabels, shownFor } from './recordKind';
import type { RecordParts } from './recordReferences';
import { parentNamed, recordNamed, recordPath } from './recordReferences';

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
