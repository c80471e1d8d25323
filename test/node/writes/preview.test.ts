/**
 * Preview (Mode > Preview (Write Nothing)): the same checks and reads as a write, nothing that
 * writes sent, and each row output as a write would leave it, with preview: true. For every kind of
 * record with Create or Update, a mix of new, differing and unchanged rows is previewed and then
 * written, on both ways of finding records (the collection read whole, and each row looked up):
 * the outcomes are the same item by item, and each updated row's changes are what the write sent.
 * Include Records Not in Input lists exactly the records no row names. Through n8n's engine against
 * the sandbox in strict mode; the evidence is the requests the sandbox saw.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { BodyField } from '../../../nodes/EquipmentRental/operations/bodyFields';
import { readBackName, split } from '../../../nodes/EquipmentRental/writes/recordKind';
import type { WrittenKind } from '../../harness/everyField';
import { upsertWithEveryField, writtenKinds } from '../../harness/everyField';
import { useSandbox } from '../../harness/sandbox';
import {
	byId,
	CLIENTS,
	createDirectly,
	json,
	newExternalId,
	readBack,
	requestsSeen,
	writesSeen,
} from '../../harness/writes';

const TIMEZONE = 'Europe/Berlin';
const CHANGED_VALUE = 'A value the record does not hold';

describe('Preview', () => {
	const suite = useSandbox({ strict: true });

	/** Runs the node; its output items and the writes the sandbox saw. */
	async function runSeeing(parameters: INodeParameters, items: IDataObject[]) {
		suite.sandbox.resetStats();
		const result = await suite.run(parameters, { items, timezone: TIMEZONE });
		expect(result.error).toBeUndefined();
		return { items: json(result.items), writes: writesSeen(suite) };
	}

	/** `work` for each of `values`, one after the other (the requests seen are each run's own). */
	async function eachInTurn<T, R>(values: T[], work: (value: T) => Promise<R>): Promise<R[]> {
		const results: R[] = [];
		for (const value of values) results.push(await work(value));
		return results;
	}

	/** A text field of the form that a row can change (not one the sandbox checks or numbers). */
	const changeableText = ({ kind }: WrittenKind): BodyField =>
		split(kind, ['externalId']).optional.find(
			({ property, refersTo }) =>
				property.type === 'string' &&
				!refersTo &&
				!property.placeholder?.includes('@') &&
				!['number', 'structureId', 'categoryId', 'modelId', 'brandId', 'billingStatus'].includes(
					property.name,
				),
		)!;

	describe.each(writtenKinds(suite).map((each) => [each.kind.resource, each] as const))(
		'%s > Create or Update',
		(resource, written) => {
			const ways = written.kind.list
				? (['whole read', 'look-ups'] as const)
				: (['look-ups'] as const);

			it.each(ways)(
				'%s: Preview sends no write and outputs what Write then does, item by item; an updated row carries what the write sends, field by field',
				async (way) => {
					const prefix = newExternalId(`PV-${resource}`);
					const [same, differing, fresh] = ['SAME', 'DIFF', 'NEW'].map((row) => `${prefix}-${row}`);
					const existing = upsertWithEveryField(suite, written, [same, differing]);
					const stored = (await runSeeing(existing.parameters, existing.items)).items;
					const changed = changeableText(written).property.name;
					const { parameters, items } = upsertWithEveryField(
						suite,
						written,
						[same, differing, fresh],
						(values) =>
							values.externalId === differing ? { ...values, [changed]: CHANGED_VALUE } : values,
					);
					/** The rows in one run (whole read), or each row in a run of its own (looked up). */
					const runAll = async (writeMode: string) => {
						const runs =
							way === 'whole read'
								? [await runSeeing({ ...parameters, writeMode }, items)]
								: await eachInTurn(
										items,
										async (item) => await runSeeing({ ...parameters, writeMode }, [item]),
									);
						return {
							items: runs.flatMap((run) => run.items),
							writes: runs.flatMap((run) => run.writes),
						};
					};

					const preview = await runAll('preview');
					expect(preview.writes).toEqual([]);
					expect(
						preview.items.map((item) => [item.externalId, item.upserted, item.preview]),
					).toEqual([
						[same, 'unchanged', true],
						[differing, 'updated', true],
						[fresh, 'created', true],
					]);
					const readName = readBackName(written.kind)(changed);
					const before = preview.items[1];
					expect(before.changes).toEqual({
						[readName]: { from: stored[1][readName], to: CHANGED_VALUE },
					});

					const write = await runAll('write');
					expect(write.items.map((item) => [item.externalId, item.upserted])).toEqual(
						preview.items.map((item) => [item.externalId, item.upserted]),
					);
					expect(write.items[1].changes).toEqual(before.changes);
					const update = write.writes.find((request) => request.method !== 'POST')!;
					for (const [name, { to }] of Object.entries(
						before.changes as Record<string, { to: unknown }>,
					))
						expect([name, (update.body as IDataObject)[changed]]).toEqual([name, to]);
					expect(write.writes.map((request) => request.method)).toEqual([
						written.kind.updateMethod,
						'POST',
					]);
				},
			);
		},
	);

	describe.each(
		writtenKinds(suite)
			.filter(({ kind }) => kind.list)
			.map((each) => [each.kind.resource, each] as const),
	)('%s > Create or Update > Include Records Not in Input', (_resource, written) => {
		it.each([1, 3])(
			'with %i rows, outputs after them exactly the records of the collection no row names, as Get Many reads them, and writes nothing for them',
			async (rowCount) => {
				const prefix = newExternalId(`NI-${written.kind.resource}`);
				const rows = [...Array(rowCount).keys()].map((index) => `${prefix}-${index}`);
				const existing = upsertWithEveryField(suite, written, rows.slice(0, 1));
				await runSeeing(existing.parameters, existing.items);
				const { parameters, items } = upsertWithEveryField(suite, written, rows);
				const listed = (await runSeeing(written.getMany!(), [{}])).items;
				const others = listed.filter((record) => !rows.includes(record.externalId as string));
				expect(others.length).toBeGreaterThan(0);

				for (const writeMode of ['preview', 'write']) {
					const run = await runSeeing(
						{ ...parameters, writeMode, includeRecordsNotInInput: true },
						items,
					);
					expect(run.items.slice(0, rowCount).map((item) => item.externalId)).toEqual(rows);
					const notInInput = run.items.slice(rowCount);
					expect(notInInput).toEqual(
						others.map((record) => ({
							...record,
							upserted: 'notInInput',
							...(writeMode === 'preview' ? { preview: true } : {}),
						})),
					);
					if (writeMode === 'preview') expect(run.writes).toEqual([]);
					else
						expect(run.writes.map((request) => request.method)).toEqual(
							rows.slice(1).map(() => 'POST'),
						);
				}
			},
		);
	});

	it('Include Records Not in Input: a collection that cannot be read whole fails the run, listing none of it and writing nothing', async () => {
		suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['400'], methods: ['GET'], seed: 1 } });
		try {
			suite.sandbox.resetStats();
			const { error, items } = await suite.run({
				resource: 'client',
				operation: 'upsert',
				externalId: newExternalId('NI'),
				name: 'Riverbank Civil Works',
				includeRecordsNotInInput: true,
			});
			expect(error?.message).toMatch(/HTTP 400/);
			expect(items).toEqual([]);
			expect(writesSeen(suite)).toEqual([]);
		} finally {
			suite.sandbox.setOptions({ faults: null });
		}
	});

	it('Include Records Not in Input under Continue On Fail: the records come after the last row also when that row fails', async () => {
		const rows = [newExternalId('NIF'), newExternalId('NIF')];
		suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['500'], externalIds: [rows[1]] } });
		try {
			suite.sandbox.resetStats();
			const { error, items } = await suite.run(
				{
					resource: 'client',
					operation: 'upsert',
					externalId: '={{ $json.externalId }}',
					name: 'Riverbank Civil Works',
					includeRecordsNotInInput: true,
				},
				{ items: rows.map((externalId) => ({ externalId })), onError: 'continueRegularOutput' },
			);
			expect(error).toBeUndefined();
			const outputs = json(items);
			expect(
				outputs.slice(0, 2).map((item) => [item.externalId, item.upserted ?? 'failed']),
			).toEqual([
				[rows[0], 'created'],
				[rows[1], 'failed'],
			]);
			const clients = suite.sandbox.store.clients as unknown as IDataObject[];
			// In the list's order; the store holds them in another.
			expect(
				outputs
					.slice(2)
					.map((item) => String(item.id))
					.sort(),
			).toEqual(
				clients
					.filter((client) => !rows.includes(client.externalId as string))
					.map((client) => String(client.id))
					.sort(),
			);
			expect(outputs.slice(2).every((item) => item.upserted === 'notInInput')).toBe(true);
		} finally {
			suite.sandbox.setOptions({ faults: null });
		}
	});

	it('rows with the same external ID are previewed as a write does them: the first created, the next as it finds the first', async () => {
		const externalId = newExternalId('PVD');
		const parameters = {
			resource: 'client',
			operation: 'upsert',
			externalId,
			name: 'Riverbank Civil Works',
			additionalFields: { city: '={{ $json.city }}' },
		};
		const rows = [{ city: 'Leipzig' }, { city: 'Leipzig' }, { city: 'Halle' }];
		const outcomes = async (writeMode: string) =>
			(await runSeeing({ ...parameters, writeMode }, rows)).items.map((item) => [
				item.upserted,
				item.changes,
			]);
		const previewed = await outcomes('preview');
		expect(previewed).toEqual([
			['created', undefined],
			['unchanged', undefined],
			['updated', { city: { from: 'Leipzig', to: 'Halle' } }],
		]);
		expect(await outcomes('write')).toEqual(previewed);
	});

	describe('Create, Update and Delete', () => {
		const clientRows = () => ({
			resource: 'client',
			name: 'Preview Civil Works',
			additionalFields: { city: 'Leipzig', externalId: newExternalId('PVC') },
		});

		it('Create: outputs the record it would send, with preview: true, and sends nothing', async () => {
			const parameters = { ...clientRows(), operation: 'create', writeMode: 'preview' };
			const { items, writes } = await runSeeing(parameters, [{}]);
			expect(writes).toEqual([]);
			expect(items).toEqual([
				{ ...parameters.additionalFields, name: parameters.name, preview: true },
			]);
		});

		it('Update: reads the record, outputs it as the update would leave it with its changes, and sends nothing', async () => {
			const client = await createDirectly(suite, CLIENTS, {
				name: 'Preview Civil Works',
				city: 'Leipzig',
			});
			const { items, writes } = await runSeeing(
				{
					resource: 'client',
					operation: 'update',
					writeMode: 'preview',
					clientId: byId(client.id),
					updateFields: { city: 'Halle', name: 'Preview Civil Works' },
				},
				[{}],
			);
			expect(writes).toEqual([]);
			expect(items).toEqual([
				{
					...client,
					city: 'Halle',
					preview: true,
					changes: { city: { from: 'Leipzig', to: 'Halle' } },
				},
			]);
		});

		it('Delete: outputs the record it would delete, deleted: false, and deletes nothing', async () => {
			const client = await createDirectly(suite, CLIENTS, { name: 'Preview Civil Works' });
			const { items, writes } = await runSeeing(
				{
					resource: 'client',
					operation: 'delete',
					writeMode: 'preview',
					clientId: byId(client.id),
				},
				[{}],
			);
			expect(writes).toEqual([]);
			expect(items).toEqual([{ ...client, deleted: false, preview: true }]);
			expect(await readBack(suite, `${CLIENTS}/${client.id}`)).toEqual(client);
		});

		it('a Mode that comes out empty fails the item, naming the field, and nothing is sent: it is not taken as Write', async () => {
			suite.sandbox.resetStats();
			const { error } = await suite.run({
				...clientRows(),
				operation: 'create',
				writeMode: '={{ $json.mode }}',
			});
			expect(error?.message).toBe("'Mode' must be one of write, preview [item 0]");
			expect(requestsSeen(suite)).toEqual([]);
		});

		it('a row a write would refuse fails the preview the same way, before anything is read', async () => {
			const parameters = {
				resource: 'client',
				operation: 'upsert',
				externalId: newExternalId('PVC'),
				name: 'Preview Civil Works',
				additionalFields: { email: 'not-an-email' },
			};
			const errors = [];
			for (const writeMode of ['preview', 'write']) {
				suite.sandbox.resetStats();
				const { error } = await suite.run({ ...parameters, writeMode });
				errors.push(error?.message);
				expect(requestsSeen(suite)).toEqual([]);
			}
			expect(errors[0]).toMatch(/^'Email' must be an e-mail address/);
			expect(errors[0]).toEqual(errors[1]);
		});
	});
});
