/**
 * The nightly sync (issue 36), through n8n's engine against the sandbox: Create or Update reads the
 * collection whole where its pages are fewer than the run's rows and compares every row with the
 * record held, so that an unchanged row costs no request; a small run looks its rows up. Other
 * writers between the read and the write, a read that fails part-way, and references by external ID
 * that read their kind whole. The evidence is the requests the sandbox saw and what it holds.
 */
import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../harness/sandbox';
import type { SheetRow } from '../harness/syncs';
import { CLIENT_SYNC, clientsMade, once } from '../harness/syncs';
import {
	CLIENTS,
	CONTRACTS,
	byExternalId,
	directApi,
	json,
	newExternalId,
	requestsSeen,
} from '../harness/writes';

const PAGE_CAP = 100;
const HELD = 300;
const STRUCTURE_ID = '123e4567-e89b-42d3-a456-426614174000';

describe('The nightly sync', () => {
	const suite = useSandbox({ strict: true, maxPageSize: PAGE_CAP });
	const api = directApi(suite);
	/** The rows of the clients made below, as the sheet holds them. */
	let held: SheetRow[];

	beforeAll(async () => {
		held = await clientsMade(suite, 'Nightly client', HELD);
	});

	const upsert = CLIENT_SYNC;
	const clientsHeld = async () => (await api('GET', `${CLIENTS}?limit=1`)).body.total as number;
	const withExternalId = (externalId: string) =>
		(suite.sandbox.store as unknown as { clients: IDataObject[] }).clients.filter(
			(client) => client.externalId === externalId,
		);
	const listReads = () =>
		suite.sandbox.requests.filter(
			(request) => request.method === 'GET' && request.path === CLIENTS,
		);
	const lookUps = () =>
		suite.sandbox.requests.filter((request) => request.path.startsWith(`${CLIENTS}/external-id/`));
	it('reads the clients once, writes only the rows that differ, and says unchanged for the rest', async () => {
		const rows = held.map((row, index) =>
			index % 100 === 7 ? { ...row, city: 'Dresden' } : { ...row },
		);
		const fresh = [0, 1, 2].map((index) => ({
			externalId: newExternalId('NIGHT-NEW'),
			name: `New client ${index}`,
			city: 'Halle',
		}));
		const total = await clientsHeld();
		suite.sandbox.resetStats();

		const { items, error } = await suite.run(upsert, { items: [...rows, ...fresh] });

		expect(error).toBeUndefined();
		const outcomes = json(items).map((item) => item.upserted);
		expect(outcomes.filter((outcome) => outcome === 'unchanged')).toHaveLength(HELD - 3);
		expect(outcomes.filter((outcome) => outcome === 'updated')).toHaveLength(3);
		expect(outcomes.slice(HELD)).toEqual(['created', 'created', 'created']);
		const pages = Math.ceil(total / PAGE_CAP);
		expect(listReads()).toHaveLength(pages);
		expect(lookUps()).toEqual([]);
		expect(requestsSeen(suite).filter((request) => request.method !== 'GET')).toHaveLength(6);
		expect(suite.sandbox.requests).toHaveLength(pages + 6);
		for (const row of fresh) expect(withExternalId(row.externalId)).toHaveLength(1);
	});

	it('looks the rows of a small run up one by one, reading one page of the list to tell', async () => {
		const rows = [held[5], { ...held[6], city: 'Jena' }];

		const { items } = await suite.run(upsert, { items: rows });

		expect(json(items).map((item) => item.upserted)).toEqual(['unchanged', 'updated']);
		expect(listReads().map((request) => request.query.page)).toEqual(['1']);
		expect(lookUps()).toHaveLength(2);
	});

	it('updates the record another writer made between the read and the create (409): one record per external ID', async () => {
		const rows = [0, 1, 2, 3].map((index) => ({
			externalId: newExternalId('NIGHT-RACE'),
			name: `Raced client ${index}`,
			city: 'Weimar',
		}));
		const raced = rows[2].externalId;
		const removeHook = once(
			suite,
			(request) => request.method === 'POST' && (request.body as IDataObject)?.externalId === raced,
			async () => {
				await api('POST', CLIENTS, {
					body: { externalId: raced, name: 'Other writer', city: 'Gera' },
				});
			},
		);
		try {
			const { items, error } = await suite.run(upsert, { items: rows });

			expect(error).toBeUndefined();
			expect(json(items).map((item) => item.upserted)).toEqual([
				'created',
				'created',
				'updated',
				'created',
			]);
		} finally {
			removeHook();
		}
		expect(withExternalId(raced)).toEqual([
			expect.objectContaining({ name: 'Raced client 2', city: 'Weimar' }),
		]);
	});

	it('fails the row whose record was deleted between the read and the update, and creates nothing for it', async () => {
		const rows = held.slice(20, 25).map((row) => ({ ...row, city: 'Erfurt' }));
		const gone = rows[3];
		const goneId = String(withExternalId(gone.externalId)[0].id);
		const removeHook = once(
			suite,
			(request) => request.method === 'PATCH' && request.path.endsWith(goneId),
			async () => {
				await api('DELETE', `${CLIENTS}/${goneId}`);
			},
		);
		try {
			const { items } = await suite.run(upsert, {
				items: rows,
				onError: 'continueRegularOutput',
			});

			expect(json(items).map((item) => item.upserted ?? item.error)).toEqual([
				'updated',
				'updated',
				'updated',
				expect.stringMatching(
					new RegExp(
						`^The client with external ID '${gone.externalId}' was deleted while the run went on \\(HTTP 404\\) \\[item 3\\]\\. The node read the client before it wrote any row`,
					),
				),
				'updated',
			]);
		} finally {
			removeHook();
		}
		expect(withExternalId(gone.externalId)).toEqual([]);
		expect(
			suite.sandbox.requests.filter(
				(request) =>
					request.method === 'POST' &&
					(request.body as IDataObject)?.externalId === gone.externalId,
			),
		).toEqual([]);
	});

	it('looks every row up when a page of the list keeps failing: it never compares against part of a list', async () => {
		const rows = held
			.slice(40, 50)
			.map((row, index) => (index === 4 ? { ...row, city: 'Suhl' } : row));
		const removeHook = suite.sandbox.onRequest(async (request) => {
			if (request.method === 'GET' && request.path === CLIENTS && request.query.page === '2')
				throw new Error('Injected failure of page 2');
		});
		try {
			const { items, error } = await suite.run(upsert, { items: rows });

			expect(error).toBeUndefined();
			expect(json(items).map((item) => item.upserted)).toEqual(
				rows.map((_row, index) => (index === 4 ? 'updated' : 'unchanged')),
			);
		} finally {
			removeHook();
		}
		expect(listReads().some((request) => request.query.page === '2')).toBe(true);
		expect(lookUps()).toHaveLength(rows.length);
	});

	it('reads the clients once for contracts that name their client by external ID, instead of a look-up per client', async () => {
		const clients = held.slice(60, 66);
		const rows = clients.map((client, index) => ({
			externalId: newExternalId('NIGHT-CT'),
			client: client.externalId,
			title: `Site ${index}`,
		}));
		const total = await clientsHeld();
		suite.sandbox.resetStats();

		const { items, error } = await suite.run(
			{
				resource: 'contract',
				operation: 'upsert',
				externalId: '={{ $json.externalId }}',
				clientId: byExternalId('={{ $json.client }}'),
				startDate: '2027-01-01 08:00',
				endDate: '2027-06-30 18:00',
				structureId: STRUCTURE_ID,
				additionalFields: { title: '={{ $json.title }}' },
			},
			{ items: rows },
		);

		expect(error).toBeUndefined();
		expect(json(items).map((item) => item.upserted)).toEqual(rows.map(() => 'created'));
		expect(listReads()).toHaveLength(Math.ceil(total / PAGE_CAP));
		expect(lookUps()).toEqual([]);
		const contracts = (suite.sandbox.store as unknown as { contracts: IDataObject[] }).contracts;
		for (const [index, row] of rows.entries())
			expect(contracts.find((contract) => contract.externalId === row.externalId)?.clientId).toBe(
				withExternalId(clients[index].externalId)[0].id,
			);
		expect(suite.sandbox.requests.some((request) => request.path.startsWith(CONTRACTS))).toBe(true);
	});
});
