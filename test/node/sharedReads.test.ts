/**
 * A whole read shared by one execution's runs of the node (issue 43), through n8n's engine against
 * the sandbox: Create or Update in Loop Over Items (n8n-core's WorkflowExecute running the node once
 * per batch, in one execution) reads the list once for all batches and keeps it current with its
 * writes; other writers between batches (409, 404), two nodes with two credentials, and the next
 * execution. The evidence is the requests the sandbox saw and what it holds.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { SandboxRequest } from '../harness/sandbox';
import { useSandbox } from '../harness/sandbox';
import type { SheetRow } from '../harness/syncs';
import { CLIENT_SYNC, clientsMade, once } from '../harness/syncs';
import { CLIENTS, directApi, json, newExternalId } from '../harness/writes';

const PAGE_CAP = 100;
const HELD = 300;

describe('A whole read shared by the batches of a loop', () => {
	const suite = useSandbox({ strict: true, maxPageSize: PAGE_CAP });
	const api = directApi(suite);
	let held: SheetRow[];

	const clients = () => (suite.sandbox.store as unknown as { clients: IDataObject[] }).clients;
	const withExternalId = (externalId: string) =>
		clients().filter((client) => client.externalId === externalId);
	const listReads = () =>
		suite.sandbox.requests.filter(
			(request) => request.method === 'GET' && request.path === CLIENTS,
		);
	const lookUps = () =>
		suite.sandbox.requests.filter((request) => request.path.startsWith(`${CLIENTS}/external-id/`));
	const writes = () => suite.sandbox.requests.filter((request) => request.method !== 'GET');
	const pages = async () =>
		Math.ceil(((await api('GET', `${CLIENTS}?limit=1`)).body.total as number) / PAGE_CAP);
	const outcomes = (runs: INodeExecutionData[][]) =>
		runs.map((items) => json(items).map((item) => item.upserted ?? item.error));
	const writeOf = (externalId: string) => (request: SandboxRequest) =>
		request.method !== 'GET' &&
		((request.body as IDataObject | undefined)?.externalId === externalId ||
			request.path.endsWith(String(withExternalId(externalId)[0]?.id)));

	beforeAll(async () => {
		held = await clientsMade(suite, 'Looped client', HELD);
	});

	const upsert = CLIENT_SYNC;
	const fresh = (count: number, city = 'Halle'): SheetRow[] =>
		[...Array(count).keys()].map((index) => ({
			externalId: newExternalId('LOOP-NEW'),
			name: `New looped client ${index}`,
			city,
		}));

	it('reads the list once for all batches, writes only the rows that differ, and a second execution writes nothing', async () => {
		const rows = [
			...held.map((row, index) => (index % 100 === 7 ? { ...row, city: 'Dresden' } : row)),
			...fresh(3),
		];
		const listPages = await pages();
		suite.sandbox.resetStats();

		const first = await suite.run(upsert, { items: rows, loop: { batchSize: 30 } });

		expect(first.error).toBeUndefined();
		expect(first.runs).toHaveLength(Math.ceil(rows.length / 30));
		const upserted = outcomes(first.runs).flat();
		expect(upserted.filter((outcome) => outcome === 'updated')).toHaveLength(3);
		expect(upserted.slice(HELD)).toEqual(['created', 'created', 'created']);
		expect(upserted.filter((outcome) => outcome === 'unchanged')).toHaveLength(HELD - 3);
		// The first batch (30 rows, more than the list's pages) reads the list; no batch reads it again.
		expect(listReads()).toHaveLength(listPages);
		expect(suite.sandbox.requests.slice(0, listPages)).toEqual(listReads());
		expect(lookUps()).toEqual([]);
		expect(writes()).toHaveLength(6);
		expect(suite.sandbox.requests).toHaveLength(listPages + 6);
		// The sheet as the clients now hold it.
		held = rows.slice(0, HELD);

		// The next execution reads afresh (the three new clients are a page's worth more, or not).
		const nextPages = await pages();
		suite.sandbox.resetStats();
		const second = await suite.run(upsert, { items: rows, loop: { batchSize: 30 } });

		expect(outcomes(second.runs).flat()).toEqual(rows.map(() => 'unchanged'));
		expect(listReads()).toHaveLength(nextPages);
		expect(suite.sandbox.requests).toHaveLength(nextPages);
	});

	it('finds in the shared read what an earlier batch created: a row twice in the sheet makes one record', async () => {
		const [row] = fresh(1);
		const rows = [...held.slice(0, 9), row, ...held.slice(9, 19), { ...row, city: 'Gotha' }];

		const { runs, error } = await suite.run(upsert, { items: rows, loop: { batchSize: 10 } });

		expect(error).toBeUndefined();
		expect(outcomes(runs)).toEqual([
			[...Array(9).fill('unchanged'), 'created'],
			[...Array(9).fill('unchanged'), 'unchanged'],
			['updated'],
		]);
		expect(lookUps()).toEqual([]);
		expect(withExternalId(row.externalId)).toEqual([expect.objectContaining({ city: 'Gotha' })]);
	});

	it('looks the rows of small first batches up, and reads the list once the batches together name more rows than its pages', async () => {
		const listPages = await pages();
		const batchSize = 2;
		const rows = held.slice(100, 100 + batchSize * (listPages + 4));
		// The batches up to the one whose rows, with the earlier batches', outnumber the pages.
		const lookedUp = Math.floor(listPages / batchSize);
		suite.sandbox.resetStats();

		const { runs, error } = await suite.run(upsert, { items: rows, loop: { batchSize } });

		expect(error).toBeUndefined();
		expect(outcomes(runs).flat()).toEqual(rows.map(() => 'unchanged'));
		expect(lookUps()).toHaveLength(lookedUp * batchSize);
		// Each batch that looks its rows up asks for the list's first page to tell; then one read.
		expect(listReads()).toHaveLength(lookedUp + listPages);
		expect(suite.sandbox.requests).toHaveLength(lookedUp * (batchSize + 1) + listPages);
	});

	it('updates the record another writer created between batches (409): one record per external ID', async () => {
		const rows = [...held.slice(200, 210), ...fresh(10, 'Weimar')];
		const raced = rows[15];
		const removeHook = once(suite, writeOf(rows[0].externalId), async () => {
			await api('POST', CLIENTS, {
				body: { externalId: raced.externalId, name: 'Other writer', city: 'Gera' },
			});
		});
		try {
			const edited = rows.map((row, index) => (index === 0 ? { ...row, city: 'Jena' } : row));
			const { runs, error } = await suite.run(upsert, {
				items: edited,
				loop: { batchSize: 10 },
			});

			expect(error).toBeUndefined();
			expect(outcomes(runs)).toEqual([
				['updated', ...Array(9).fill('unchanged')],
				[...Array(5).fill('created'), 'updated', ...Array(4).fill('created')],
			]);
		} finally {
			removeHook();
		}
		expect(withExternalId(raced.externalId)).toEqual([
			expect.objectContaining({ name: raced.name, city: 'Weimar' }),
		]);
		// The other writer's create, the node's (refused), and the node's update of that record.
		const racedId = String(withExternalId(raced.externalId)[0].id);
		expect(
			writes()
				.filter(
					(request) =>
						(request.body as IDataObject | undefined)?.externalId === raced.externalId ||
						request.path.endsWith(racedId),
				)
				.map(({ method, status }) => [method, status]),
		).toEqual([
			['POST', 201],
			['POST', 409],
			['PATCH', 200],
		]);
	});

	it('fails the row whose record another writer deleted between batches (404), creating nothing for it; a later row of the same external ID creates it', async () => {
		const edited = held.slice(220, 240).map((row) => ({ ...row, city: 'Erfurt' }));
		const gone = edited[13];
		// The sheet names it once more, in a third batch.
		const rows = [...edited, { ...gone, city: 'Apolda' }];
		const goneId = String(withExternalId(gone.externalId)[0].id);
		const removeHook = once(suite, writeOf(rows[0].externalId), async () => {
			await api('DELETE', `${CLIENTS}/${goneId}`);
		});
		try {
			const { runs } = await suite.run(upsert, {
				items: rows,
				loop: { batchSize: 10 },
				onError: 'continueRegularOutput',
			});

			expect(outcomes(runs)).toEqual([
				Array(10).fill('updated'),
				[
					...Array(3).fill('updated'),
					expect.stringMatching(
						new RegExp(
							`^The client with external ID '${gone.externalId}' was deleted while the run went on \\(HTTP 404\\) \\[item 3\\]`,
						),
					),
					...Array(6).fill('updated'),
				],
				// No longer in the whole read: created anew, as a run again would.
				['created'],
			]);
		} finally {
			removeHook();
		}
		expect(withExternalId(gone.externalId)).toEqual([expect.objectContaining({ city: 'Apolda' })]);
		// Its first row wrote nothing: the update refused (404), then the third batch's create.
		expect(
			writes()
				.filter(
					(request) =>
						request.path.endsWith(goneId) ||
						(request.body as IDataObject | undefined)?.externalId === gone.externalId,
				)
				.map(({ method, status, body }) => [method, status, (body as IDataObject)?.city]),
		).toEqual([
			['DELETE', 200, undefined],
			['PATCH', 404, 'Erfurt'],
			['POST', 201, 'Apolda'],
		]);
	});

	it('compares a batch with the shared read: a record another writer changed between batches stays as changed where the row is as read', async () => {
		const rows = held.slice(260, 280);
		const edited = rows.map((row, index) => (index === 0 ? { ...row, city: 'Plauen' } : row));
		const changed = rows[15];
		const removeHook = once(suite, writeOf(rows[0].externalId), async () => {
			const id = String(withExternalId(changed.externalId)[0].id);
			await api('PATCH', `${CLIENTS}/${id}`, { body: { city: 'Gera' } });
		});
		try {
			const { runs } = await suite.run(upsert, { items: edited, loop: { batchSize: 10 } });

			expect(outcomes(runs)).toEqual([
				['updated', ...Array(9).fill('unchanged')],
				Array(10).fill('unchanged'),
			]);
		} finally {
			removeHook();
		}
		// Within SHARED_READ_LIFETIME_MS of the read, as within one run: the README says so.
		expect(withExternalId(changed.externalId)).toEqual([expect.objectContaining({ city: 'Gera' })]);
		await api('PATCH', `${CLIENTS}/${String(withExternalId(changed.externalId)[0].id)}`, {
			body: { city: changed.city },
		});
		held[260] = edited[0];
	});

	it('reads the list anew for the batch after one whose write may have been done though its answer was lost', async () => {
		const [row] = fresh(1);
		const rows = [row, ...held.slice(40, 59)];
		const listPages = await pages();
		suite.sandbox.setOptions({
			faults: { rate: 1, kinds: ['lost-answer'], methods: ['POST'], externalIds: [row.externalId] },
		});
		try {
			suite.sandbox.resetStats();
			const { runs, error } = await suite.run(upsert, { items: rows, loop: { batchSize: 10 } });

			expect(error).toBeUndefined();
			// The create whose answer was lost is looked up, found made, and says created.
			expect(outcomes(runs)).toEqual([
				['created', ...Array(9).fill('unchanged')],
				Array(10).fill('unchanged'),
			]);
			expect(listReads()).toHaveLength(2 * listPages);
			expect(withExternalId(row.externalId)).toHaveLength(1);
		} finally {
			suite.sandbox.setOptions({ faults: null });
		}
	});

	it('reads the list again for a batch that comes more than 5 minutes after the read', async () => {
		const rows = held
			.slice(280, 300)
			.map((row, index) => (index === 0 || index === 10 ? { ...row, city: 'Borna' } : row));
		const listPages = await pages();
		suite.sandbox.resetStats();
		const realNow = Date.now.bind(Date);
		// The machine's clock, 6 minutes on from the first batch's write: the batches after it come later.
		let offset = 0;
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
		const removeHook = once(suite, writeOf(rows[0].externalId), async () => {
			offset = 6 * 60_000;
		});
		try {
			const { runs, error } = await suite.run(upsert, { items: rows, loop: { batchSize: 10 } });

			expect(error).toBeUndefined();
			expect(outcomes(runs)).toEqual([
				['updated', ...Array(9).fill('unchanged')],
				['updated', ...Array(9).fill('unchanged')],
			]);
		} finally {
			removeHook();
			clock.mockRestore();
		}
		expect(listReads()).toHaveLength(2 * listPages);
		expect(suite.sandbox.requests.map((request) => request.method)).toEqual([
			...Array(listPages).fill('GET'),
			'PATCH',
			...Array(listPages).fill('GET'),
			'PATCH',
		]);
		held.splice(280, 20, ...rows);
	});

	it('never shares between two nodes with two credentials: each reads the list once for all batches', async () => {
		const rows = held
			.slice(250, 290)
			.map((row, index) => (index === 5 ? { ...row, city: 'Zeitz' } : row));
		const listPages = await pages();
		suite.sandbox.resetStats();

		const { runs, run, error } = await suite.run(upsert, {
			items: rows,
			loop: { batchSize: 20, then: upsert },
		});

		expect(error).toBeUndefined();
		expect(outcomes(runs).flat()).toEqual(
			rows.map((_row, index) => (index === 5 ? 'updated' : 'unchanged')),
		);
		const second = run.data.resultData.runData['Equipment Rental 2'].map(
			(nodeRun) => nodeRun.data?.main?.[0] ?? [],
		);
		expect(outcomes(second).flat()).toEqual(rows.map(() => 'unchanged'));
		expect(listReads()).toHaveLength(2 * listPages);
		expect(writes()).toHaveLength(1);
	});
});

describe('Loop Over Items of 100 over the nightly sync of 5,000 rows', () => {
	const suite = useSandbox({ strict: true });
	const ROWS = 5_000;
	const listReads = () =>
		suite.sandbox.requests.filter(
			(request) => request.method === 'GET' && request.path === CLIENTS,
		);
	const upsert = CLIENT_SYNC;
	/**
	 * A nightly sheet from the one the clients hold: 1% of its rows differ, half of them changed (a
	 * city), half new in place of as many it had (docs/performance.md's nightly case).
	 */
	const nightly = (synced: SheetRow[]): SheetRow[] =>
		synced.map((row, index) => {
			if (index % 200 === 3) return { ...row, city: `${row.city}+` };
			if (index % 200 === 61)
				return { externalId: newExternalId('NIGHTLY'), name: `New ${index}`, city: 'Halle' };
			return row;
		});

	it('costs the requests of the same sync in one run: the list read once, the 50 writes', async () => {
		const prefix = newExternalId('NIGHTLY');
		const sheet: SheetRow[] = [...Array(ROWS).keys()].map((index) => ({
			externalId: `${prefix}-${index}`,
			name: `Nightly client ${index}`,
			city: 'Leipzig',
		}));
		// The clients as the API holds them after the last sync, made at once in the sandbox's store.
		const template = (await directApi(suite)('POST', CLIENTS, { body: sheet[0] }))
			.body as IDataObject;
		const store = suite.sandbox.store as unknown as { clients: IDataObject[] };
		for (const row of sheet.slice(1))
			store.clients.push({ ...template, ...row, id: crypto.randomUUID() });
		const first = nightly(sheet);
		suite.sandbox.resetStats();

		const oneRun = await suite.run(upsert, { items: first });

		expect(oneRun.error).toBeUndefined();
		const oneRunRequests = suite.sandbox.requests.length;
		const second = nightly(first);
		suite.sandbox.resetStats();

		const looped = await suite.run(upsert, { items: second, loop: { batchSize: 100 } });

		expect(looped.error).toBeUndefined();
		expect(looped.runs).toHaveLength(ROWS / 100);
		const upserted = looped.runs.flat().map((item) => item.json.upserted);
		expect(upserted.filter((outcome) => outcome === 'updated')).toHaveLength(ROWS / 200);
		expect(upserted.filter((outcome) => outcome === 'created')).toHaveLength(ROWS / 200);
		const pages = Math.ceil(store.clients.length / 1000);
		expect(listReads()).toHaveLength(pages);
		expect(suite.sandbox.requests).toHaveLength(pages + ROWS / 100);
		expect(suite.sandbox.requests.length).toBeLessThanOrEqual(1.1 * oneRunRequests);
	}, 300_000);
});
