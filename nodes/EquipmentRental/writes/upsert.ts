import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { additionalFieldsCollection } from '../../shared/descriptions';
import { isMissingRecord, mayHaveBeenDone } from '../../shared/errors';
import type { ItemRequest } from '../engine/itemRequest';
import { runPerItem } from '../engine/itemRouting';
import { oneAtATime } from '../engine/runState';
import { formOf } from '../operations/bodyFields';
import type { Operation } from '../operations/recordOperations';
import { externalIdField } from '../operations/recordOperations';
import { answerOrError, asGiven, recordAt } from '../operations/references';
import { readReferencedWhole, wholeReadOf } from './wholeReads';
import type { RecordKind } from './recordKind';
import {
	ID,
	asCleared,
	asOptions,
	asReadBack,
	bodyOf,
	emptiedFields,
	emptyValues,
	fieldLabels,
	parentNamed,
	readBackName,
	sentByWrite,
	shownFor,
	split,
	updatable,
} from './recordKind';
import type { WriteParts } from './recordReferences';
import { collectionPath, withIds } from './recordReferences';
import { includeNotInInput, notInInput, sameParent } from './notInInput';
import { previewMarks, previews, readsOnly, writeMode } from './preview';
import {
	changedValues,
	changesOf,
	completedBody,
	deletedMeanwhile,
	sendChanges,
	upsertOutput,
	withNotes,
} from './recordChanges';

/** What a Create or Update item names and sends, as its checks read it. */
interface UpsertParts extends WriteParts {
	body: IDataObject & { externalId: string };
	/** Fields that came out empty and are to be cleared (Empty Values). */
	emptied: string[];
	preview: boolean;
	/** Whether the run lists the records no row names (after the last row of each parent). */
	listsOthers: boolean;
	row: number;
}

/**
 * Create or Update by External ID: finds the record by its external ID, updates it when found and
 * creates it (with that external ID) when not; outputs the record as the API answers, with
 * `upserted: "created"` or `"updated"`, or as found, with `"unchanged"`, when it already holds every
 * value the item gives (nothing is written then; an update sends only the values that differ).
 *
 * Finding: where the kind has a list and its pages are fewer than the run's external IDs, the run
 * reads the collection whole once, before any row is written, and compares each row with the
 * record in that whole read: an unchanged row costs no request (wholeReads.ts). Otherwise each row
 * is looked up by its external ID.
 *
 * Safe to repeat and to run beside other writers: a run again, or an item retried after a create
 * whose answer was lost, finds the record and updates it. A create refused because the external ID
 * was taken meanwhile (409) looks the record up and updates it; a create whose answer was lost is
 * looked up again, and counts as created when the record there holds its values (otherwise another
 * writer made it, and it is updated). An update of a record of the whole read that was deleted
 * meanwhile (404) fails its item, creating nothing.
 *
 * Mode > Preview makes the same checks and reads and sends no write (preview.ts); every updated row
 * says its `changes`. Include Records Not in Input lists, after the rows, the records no row names
 * (notInInput.ts).
 */
export function upsertOperation(kind: RecordKind, description: string): Operation {
	const externalId = externalIdField;
	const { required, optional } = split(kind, [externalId.name]);
	const collection: INodeProperties = {
		...additionalFieldsCollection,
		options: asOptions(optional),
	};
	const readName = readBackName(kind);
	const fields = shownFor(kind, 'upsert', [
		writeMode,
		externalId,
		...required.flatMap(formOf),
		emptyValues,
		collection,
		...(kind.list ? [includeNotInInput] : []),
	]);
	const request: ItemRequest<UpsertParts> = {
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
				preview: previews(item),
				listsOthers: kind.list !== undefined && item.boolean(includeNotInInput) === true,
				row: item.itemIndex ?? 0,
			};
		},
		fieldsByApiName: fieldLabels(kind, { externalId }),
		...sentByWrite(kind, kind.fields, {}, { field: externalId, upserts: true }),
		identifies: (item) => asGiven(item, externalId),
	};
	return {
		option: {
			name: 'Create or Update',
			value: 'upsert',
			action: `Create or update a ${kind.recordName}`,
			description,
			routing: runPerItem(request, {
				async prepare(parts, item, send, api) {
					const path = await collectionPath(kind, parts.parent, item, send);
					// The external IDs the run will look for among the same parent's records.
					const named = () =>
						new Set(sameParent(send, parts).map((other) => other.body.externalId));
					const every = parts.listsOthers;
					// The node's later runs in the execution (a loop's batches) use the run's read,
					// which the run keeps current; a preview's would-be writes are not shared.
					// Asked once per read, not per row: n8n's getNode() copies the whole node.
					const sharedAs = () =>
						send.run.checked<UpsertParts>().some((other) => other.preview)
							? undefined
							: `${this.getNode().credentials?.equipmentRentalApi?.id ?? ''} ${api.baseUrl}`;
					const wholeRead = await wholeReadOf(kind, path, { named, every, sharedAs }, send, this);
					await readReferencedWhole(this, parts.body, kind.fields, send);
					// Listed after the last row of its parent, whatever becomes of that row.
					const marks = previewMarks(parts.preview);
					send.run.outputAfter(parts.row, notInInput({ ...parts, wholeRead }, send, marks));
					return {
						...parts,
						path,
						// Its references replaced by their IDs: the same external ID.
						body: (await withIds(parts.body, kind.fields, item, send)) as UpsertParts['body'],
						wholeRead,
					};
				},
				async perform(prepared, item, sendAll, api) {
					const { path, body, wholeRead, preview } = prepared;
					const send = preview ? readsOnly(sendAll) : sendAll;
					const marks = previewMarks(preview);
					const key = String(body.externalId);
					// What the create sends that the update page lacks (a booking's contract) stays as it
					// is; a field that came out empty clears the record's where Empty Values says so.
					const changes = {
						...Object.fromEntries(
							updatable(kind)
								.map((field) => field.property.name)
								.filter((name) => name !== 'externalId' && body[name] !== undefined)
								.map((name) => [name, body[name]]),
						),
						...asCleared(prepared.emptied),
					} as IDataObject;
					const lookUp = async () =>
						await recordAt(kind.externalIdUrl, { ...path, externalId: key }, send);
					const records = `${api.baseUrl} ${kind.collectionUrl} ${JSON.stringify(path)}`;
					// What a preview's earlier rows would have written, found as a write finds it.
					const previewed = preview && !wholeRead ? send.run.state.previewed : undefined;
					const wouldWrite = (record: IDataObject) =>
						wholeRead ? wholeRead.keep(record) : previewed?.set(`${records} ${key}`, record);
					// Only what the record does not hold yet is written: a row that has not changed sends
					// nothing, and leaves the record's updatedAt (and the trigger) alone.
					const update = async (record: IDataObject) => {
						const changed = changedValues(record, changes, readName);
						if (Object.keys(changed).length === 0)
							return upsertOutput([{ json: record }], record, 'unchanged', marks);
						const notes = { ...marks, changes: changesOf(record, changed, readName) };
						if (preview) {
							const written = { ...record, ...asReadBack(readName, changed) };
							wouldWrite(written);
							return upsertOutput([{ json: written }], record, 'updated', notes);
						}
						const recordPath = { ...path, [ID]: String(record.id) };
						const answer = await answerOrError(
							sendChanges(kind, recordPath, changed, send, record),
						);
						if ('error' in answer) {
							// A write whose answer was lost may have been done: the whole read no longer says.
							if (mayHaveBeenDone(answer.error)) wholeRead?.doubt();
							if (!wholeRead || !isMissingRecord(answer.error)) throw answer.error;
							wholeRead.forget(key);
							throw deletedMeanwhile(this, kind, key, answer.error);
						}
						wholeRead?.keep({
							...record,
							...asReadBack(readName, changed),
							...answer.answer[0]?.json,
						});
						return upsertOutput(answer.answer, record, 'updated', notes);
					};
					// Items with the same external ID (a sheet with a row twice, two executions at once)
					// are written one after the other, so that the second finds what the first created.
					return await oneAtATime(`${records} ${key}`, async () => {
						const found =
							previewed?.get(`${records} ${key}`) ??
							(wholeRead ? wholeRead.find(key) : await lookUp());
						if (found) return await update(found);
						const { body: complete, notes } = await completedBody(kind, body, item, send);
						if (preview) {
							const wouldBe = asReadBack(readName, complete);
							wouldWrite(wouldBe);
							return withNotes(upsertOutput([{ json: wouldBe }], {}, 'created', marks), notes);
						}
						const created = await answerOrError(send({ path, body: complete }));
						if ('answer' in created) {
							wholeRead?.keep({ ...asReadBack(readName, complete), ...created.answer[0]?.json });
							return withNotes(upsertOutput(created.answer, {}, 'created'), notes);
						}
						const taken = (created.error as { httpCode?: string }).httpCode === '409';
						if (mayHaveBeenDone(created.error)) wholeRead?.doubt();
						if (!taken && !mayHaveBeenDone(created.error)) throw created.error;
						// Whatever the run read, the API is asked: another writer may have made the record.
						const after = await lookUp();
						if (!after) throw created.error;
						// A create that may have been done, found holding what it sent, is the record it
						// made. Taken meanwhile, or found with other values, it is another writer's
						// record, which gets this item's values.
						const made =
							!taken && Object.keys(changedValues(after, changes, readName)).length === 0;
						if (!made) return await update(after);
						wholeRead?.keep(after);
						return withNotes(upsertOutput([{ json: after }], after, 'created'), notes);
					});
				},
			}),
		},
		fields,
	};
}
