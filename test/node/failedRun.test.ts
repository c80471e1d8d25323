/**
 * A run that fails, with Continue On Fail off, stops and says what it did (nodes/EquipmentRental/engine/nodeRun.ts),
 * through n8n's engine against the sandbox: a bad item (its parameters, or a record it names by
 * external ID) fails the run before anything is written, naming every bad item; a failure only the
 * API can tell stops the run from starting more items, and its error lists what each item wrote and
 * which were not sent. With Continue On Fail every item is tried, as before. The evidence is what
 * the sandbox holds and the requests it saw.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../harness/sandbox';
import {
	CLIENTS,
	CONTRACTS,
	byExternalId,
	createDirectly,
	directApi,
	newExternalId,
	picked,
	requestsSeen,
	writesSeen,
} from '../harness/writes';

const STRUCTURE_ID = '123e4567-e89b-42d3-a456-426614174000';

/** Ascending item indexes as a stopped run's error names them: `[0, 1, 2, 5]` as "0-2 and 5". */
function ranges(indexes: number[]): string {
	const runs: string[] = [];
	for (const index of indexes) {
		const last = runs.at(-1)?.split('-');
		if (last && Number(last.at(-1)) === index - 1) runs[runs.length - 1] = `${last[0]}-${index}`;
		else runs.push(String(index));
	}
	return runs.length < 2 ? runs.join('') : `${runs.slice(0, -1).join(', ')} and ${runs.at(-1)}`;
}

describe('A run that fails', () => {
	const suite = useSandbox({ strict: true });
	afterEach(() => suite.sandbox.setOptions({ faults: null }));

	const createClients: INodeParameters = {
		resource: 'client',
		operation: 'create',
		name: '={{ $json.name }}',
		additionalFields: { email: '={{ $json.email }}', externalId: '={{ $json.externalId }}' },
	};
	const upsertClients: INodeParameters = {
		resource: 'client',
		operation: 'upsert',
		externalId: '={{ $json.externalId }}',
		name: '={{ $json.name }}',
	};
	/** A contract for each row, its client named by the row's external ID (`client`). */
	const createContracts: INodeParameters = {
		resource: 'contract',
		operation: 'create',
		clientId: byExternalId('={{ $json.client }}'),
		startDate: '2025-07-01T08:00:00',
		endDate: '2099-12-31T18:00:00',
		structureId: STRUCTURE_ID,
	};
	/** `count` rows of new clients, each with its own external ID (the prefix shared by the run). */
	const clientRows = (count: number, email: (index: number) => string = () => 'a@example.com') => {
		const prefix = newExternalId('RUN');
		return [...Array(count).keys()].map((index) => ({
			name: `Client ${index}`,
			email: email(index),
			externalId: `${prefix}-${index}`,
		}));
	};
	/** The clients the API holds whose external ID starts with the rows' prefix, by external ID. */
	const clientsHeld = async (rows: IDataObject[]) => {
		const prefix = String(rows[0].externalId).replace(/-\d+$/, '-');
		const answer = await directApi(suite)('GET', `${CLIENTS}?limit=10000`);
		const held = (answer.body.content as IDataObject[]).filter((client) =>
			String(client.externalId ?? '').startsWith(prefix),
		);
		return new Map(held.map((client) => [String(client.externalId), client]));
	};

	describe('on a bad item, with Continue On Fail off', () => {
		it('writes nothing when one of 100 rows has a bad e-mail, and names that row', async () => {
			const rows = clientRows(100, (index) => (index === 10 ? 'not-an-email' : 'a@example.com'));

			const { error, items } = await suite.run(createClients, { items: rows });

			expect(error?.message).toBe("'Email' must be an e-mail address [item 10]");
			expect((error as unknown as { context: IDataObject }).context.itemIndex).toBe(10);
			expect(error?.description).toContain('Received the text "not-an-email".');
			expect(error?.description).toContain(
				'Nothing was sent: the node checks every item before it sends any request, and 1 of the 100 items failed.',
			);
			expect(items).toEqual([]);
			expect(suite.sandbox.requests).toEqual([]);
			expect((await clientsHeld(rows)).size).toBe(0);
		});

		it('names the first three bad rows and their count in the message, and every one in the description', async () => {
			const bad = [3, 17, 40, 41, 99];
			const rows = clientRows(100, (index) => (bad.includes(index) ? `bad ${index}` : 'a@x.io'));

			const { error } = await suite.run(createClients, { items: rows });

			expect(error?.message).toBe(
				"5 items failed: 'Email' must be an e-mail address [item 3]; 'Email' must be an e-mail address [item 17]; 'Email' must be an e-mail address [item 40]; and 2 more",
			);
			for (const index of bad)
				expect(error?.description).toContain(
					`Item ${index}: 'Email' must be an e-mail address [item ${index}]. Received the text "bad ${index}".`,
				);
			expect(error?.description).toContain('and 5 of the 100 items failed');
			expect(suite.sandbox.requests).toEqual([]);
		});

		it('names 2,000 bad rows in under 4,000 characters: the first in full, all of them by range', async () => {
			const rows = clientRows(2000, (index) =>
				index % 500 === 7 ? 'a@example.com' : `bad ${index}`,
			);

			const { error } = await suite.run(createClients, { items: rows });

			const description = String(error?.description);
			expect(String(error?.message).length + description.length).toBeLessThan(4000);
			expect(error?.message).toMatch(/^1,996 items failed: .*\[item 0\]; .*; and 1,993 more$/);
			expect(description).toContain(
				'and 1,996 of the 2,000 items failed: items 0-6, 8-506, 508-1006, 1008-1506 and 1508-1999.',
			);
			expect(description).toContain(
				'Item 0: \'Email\' must be an e-mail address [item 0]. Received the text "bad 0".',
			);
			expect(suite.sandbox.requests).toEqual([]);
			// 2,000 items through n8n's engine: see the stopped run's test below.
		}, 300_000);

		it('writes nothing when a row names a record by an external ID the API does not know', async () => {
			const rows = [0, 1, 2, 3].map((index) => ({
				client: index === 2 ? 'ERP-NO-SUCH-CLIENT' : suite.fixtures.clientExternalId,
			}));

			const { error } = await suite.run(createContracts, { items: rows });

			expect(error?.message).toBe(
				"'Client' must be the external ID of an existing client [item 2]",
			);
			expect(error?.description).toContain(
				'Nothing was written: the node checks every item, and finds the records it names, before it writes any, and 1 of the 4 items failed.',
			);
			expect(writesSeen(suite)).toEqual([]);
		});

		it("names every row that names a record by an external ID the API does not know, as the node's own error", async () => {
			const rows = ['ERP-NO-SUCH-A', suite.fixtures.clientExternalId, 'ERP-NO-SUCH-B'].map(
				(client) => ({ client }),
			);

			const { error } = await suite.run(
				// One look-up at a time: the second unknown ID is looked up after the first failed.
				{ ...createContracts, requestOptions: { parallelRequests: 1 } },
				{ items: rows },
			);

			expect(error).toMatchObject({
				name: 'NodeOperationError',
				message:
					"2 items failed: 'Client' must be the external ID of an existing client [item 0]; 'Client' must be the external ID of an existing client [item 2]",
			});
			expect(error).not.toHaveProperty('httpCode');
			expect(error?.description).toContain('Received the text "ERP-NO-SUCH-B"');
			expect(writesSeen(suite)).toEqual([]);
		});

		it('is fixed and run again to give each row once', async () => {
			const rows = clientRows(20, (index) => (index === 5 ? 'not-an-email' : 'a@example.com'));
			await suite.run(createClients, { items: rows });
			rows[5].email = 'fixed@example.com';

			const { error, items } = await suite.run(createClients, { items: rows });

			expect(error).toBeUndefined();
			expect(items).toHaveLength(20);
			expect([...(await clientsHeld(rows)).keys()].sort()).toEqual(
				rows.map((row) => row.externalId).sort(),
			);
		});
	});

	describe('when the API fails an item, with Continue On Fail off', () => {
		it('stops starting items, and its error counts what each item did, and every record written is in its context', async () => {
			const rows = clientRows(300);
			suite.sandbox.setOptions({
				faults: { rate: 1, kinds: ['500'], externalIds: [rows[150].externalId] },
			});

			const { error, items } = await suite.run(upsertClients, { items: rows });

			expect(items).toEqual([]);
			expect(error?.message).toBe(
				'The Equipment Rental API failed to process the request (HTTP 500) [item 150]',
			);
			const description = String(error?.description);
			expect(description).toContain('The API said: Injected fault.');
			expect(description).toContain('The run stopped at item 150');
			// Every record the API holds is in the error's context, by its item; no other is.
			const held = await clientsHeld(rows);
			const { run } = (error as unknown as { context: { run: IDataObject } }).context;
			const done = run.done as Array<{ item: number; outcome: string; id: string }>;
			expect(done.length).toBe(held.size);
			for (const { item, outcome, id } of done) {
				expect(outcome).toBe('created');
				expect(held.get(rows[item].externalId)?.id).toBe(id);
			}
			expect(run.failed).toEqual([150]);
			// The items the run did not start were not sent, and are counted with their range.
			const notSent = /Not sent (\d+): items (\d+)-299: run them again/.exec(description);
			expect(notSent).not.toBeNull();
			const firstNotSent = Number(notSent![2]);
			expect(Number(notSent![1])).toBe(300 - firstNotSent);
			expect(firstNotSent).toBeGreaterThan(150);
			expect(held.size).toBe(firstNotSent - 1);
			// The items after 150 that were under way when its failure came (none, if 150 was the last
			// sent) were created.
			const created = [...Array(firstNotSent).keys()].filter((item) => item !== 150);
			expect(description).toContain(
				`Created ${held.size}: items ${ranges(created)}. Failed 1: item 150.`,
			);
			expect(description).toContain('May have been done 1: item 150 (the answer was lost');
			expect(description).not.toContain(done[0].id);
		});

		it('says what a run of 2,000 rows stopped at row 698 did in under 4,000 characters, every count and range right', async () => {
			const rows = clientRows(2000);
			suite.sandbox.setOptions({
				faults: { rate: 1, kinds: ['500'], externalIds: [rows[698].externalId] },
			});

			const { error } = await suite.run(upsertClients, { items: rows });

			const description = String(error?.description);
			expect(String(error?.message).length + description.length).toBeLessThan(4000);
			// What the sandbox holds and saw says what each item came to.
			const held = await clientsHeld(rows);
			const sent = new Set(
				suite.sandbox.requests
					.map((request) => (request.body as IDataObject | null)?.externalId)
					.filter((externalId) => externalId !== undefined),
			);
			const created = rows.flatMap((row, index) => (held.has(row.externalId) ? [index] : []));
			const notSent = rows.flatMap((row, index) => (sent.has(row.externalId) ? [] : [index]));
			expect(created.length + notSent.length + 1).toBe(2000);
			expect(created.slice(0, 698)).toEqual([...Array(698).keys()]);
			expect(description).toContain(
				`What it did: Created ${created.length.toLocaleString('en-US')}: items ${ranges(created)}. Failed 1: item 698.`,
			);
			expect(description).toContain(
				`Not sent ${notSent.length.toLocaleString('en-US')}: items ${ranges(notSent)}: run them again`,
			);
			expect(description).toContain('May have been done 1: item 698');
			expect(description).toContain('The API said: Injected fault.');
			const { run } = (error as unknown as { context: { run: IDataObject } }).context;
			expect((run.done as unknown[]).length).toBe(created.length);
			expect(run.notSent).toEqual(notSent);
			expect(run.mayHaveBeenDone).toEqual([698]);
			// 2,000 items through n8n's engine: minutes of CPU on a busy machine (CI's cold run, beside
			// n8n's installs), a few seconds on a quiet one; the assertions are on what was sent, not when.
		}, 300_000);

		it('stops a read too: the items after a failed Get are not read', async () => {
			const ids = [0, 1, 2, 3, 4, 5].map((index) =>
				index === 3 ? '00000000-0000-4000-8000-000000000000' : suite.fixtures.clientId,
			);

			const { error } = await suite.run(
				{
					resource: 'client',
					operation: 'get',
					clientId: picked('={{ $json.id }}'),
					requestOptions: { parallelRequests: 1 },
				},
				{ items: ids.map((id) => ({ id })) },
			);

			expect(error?.message).toMatch(/HTTP 404.*\[item 3\]$/);
			expect(error?.description).toContain('What it did: Read 3: items 0-2. Failed 1: item 3.');
			expect(error?.description).toContain('Not sent 2: items 4-5: run them again');
			expect(requestsSeen(suite)).toHaveLength(4);
		});
	});

	describe('with Continue On Fail', () => {
		it('writes every good row and outputs the bad one as its failure', async () => {
			const rows = clientRows(30, (index) => (index === 10 ? 'not-an-email' : 'a@example.com'));

			const { error, items } = await suite.run(createClients, {
				items: rows,
				onError: 'continueRegularOutput',
			});

			expect(error).toBeUndefined();
			expect(items).toHaveLength(30);
			expect(items[10].json.error).toMatch(/^'Email' must be an e-mail address \[item 10\]/);
			expect((await clientsHeld(rows)).size).toBe(29);
		});

		it('tries every item when the API fails one', async () => {
			const rows = clientRows(40);
			suite.sandbox.setOptions({
				faults: { rate: 1, kinds: ['500'], externalIds: [rows[20].externalId] },
			});

			const { items } = await suite.run(upsertClients, {
				items: rows,
				onError: 'continueErrorOutput',
			});

			expect(items).toHaveLength(39);
			expect((await clientsHeld(rows)).size).toBe(39);
		});
	});

	describe("with n8n's Retry On Fail, which runs the node again for every item in the same execution", () => {
		const retryOnFail = { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 };
		/**
		 * 50 rows of Create or Update: the first 25 change clients the API holds, the others are new.
		 * Row 30's creates answer 500, the first only when `transient`.
		 */
		async function rowsFailingAt30({ transient }: { transient: boolean }) {
			const rows = clientRows(50);
			for (const row of rows.slice(0, 25))
				await createDirectly(suite, CLIENTS, { externalId: row.externalId, name: 'Old name' });
			const failing = rows[30].externalId;
			suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['500'], externalIds: [failing] } });
			let creates = 0;
			const stopFaults = suite.sandbox.onRequest((request) => {
				const externalId = (request.body as IDataObject | null)?.externalId;
				if (transient && externalId === failing && ++creates > 1)
					suite.sandbox.setOptions({ faults: null });
			});
			return { rows, stopFaults };
		}
		/** The rows each try's writes reached, by the requests the sandbox saw: none twice. */
		const expectEachRowWrittenOnce = () => {
			const writes = writesSeen(suite).filter((request) => request.method !== 'GET');
			const targets = writes.map((request) =>
				request.method === 'POST' ? String((request.body as IDataObject).externalId) : request.path,
			);
			expect(targets.length - new Set(targets).size).toBe(
				// Row 30's create was sent once more after its 500.
				targets.filter((target) => target.endsWith('-30')).length - 1,
			);
		};

		it('outputs what the execution did: a row an earlier try wrote says created or updated, not unchanged', async () => {
			const { rows, stopFaults } = await rowsFailingAt30({ transient: true });

			const { error, items } = await suite
				.run(upsertClients, { items: rows, settings: retryOnFail })
				.finally(stopFaults);

			expect(error).toBeUndefined();
			// The first try wrote rows before it stopped at row 30; the second found them holding their
			// values. Row 30's create failed with a 500, which may have been done: the second try does
			// not trust the first's read, and reads the clients anew (each try asks for the list's first
			// page once; the suite's earlier tests leave more clients than one page holds).
			expect(writesSeen(suite).filter((request) => request.method === 'PATCH').length).toBe(25);
			expect(
				suite.sandbox.requests.filter(
					(request) =>
						request.method === 'GET' &&
						request.path === CLIENTS &&
						String(request.query?.page) === '1',
				),
			).toHaveLength(2);
			expect(
				items.map((item) => [(item.pairedItem as { item: number }).item, item.json.upserted]),
			).toEqual(rows.map((_row, index) => [index, index < 25 ? 'updated' : 'created']));
			expect((await clientsHeld(rows)).size).toBe(50);
			expectEachRowWrittenOnce();
		});

		it('counts the writes of every try in the error of a last try that stops', async () => {
			const { rows, stopFaults } = await rowsFailingAt30({ transient: false });

			const { error } = await suite
				.run(upsertClients, { items: rows, settings: retryOnFail })
				.finally(stopFaults);

			expect(error?.message).toMatch(/\(HTTP 500\) \[item 30\]$/);
			const held = await clientsHeld(rows);
			const created = rows.flatMap((row, index) =>
				index >= 25 && held.has(row.externalId) ? [index] : [],
			);
			const notSent = rows.flatMap((row, index) => (held.has(row.externalId) ? [] : [index]));
			expect(notSent.filter((index) => index !== 30).length).toBeGreaterThan(0);
			const description = String(error?.description);
			expect(description).toContain(
				`What it did over the tries of this execution (Retry On Fail): Updated 25: items 0-24. Created ${created.length}: items ${ranges(created)}. Failed 1: item 30.`,
			);
			expect(description).toContain(
				`Not sent ${notSent.length - 1}: items ${ranges(notSent.filter((index) => index !== 30))}`,
			);
			const { run } = (error as unknown as { context: { run: IDataObject } }).context;
			expect((run.done as Array<{ item: number }>).map(({ item }) => item)).toEqual([
				...Array(25).keys(),
				...created,
			]);
			expectEachRowWrittenOnce();
		});

		it('counts what earlier tries wrote in the error of a last try the API stops before it writes', async () => {
			const prefix = newExternalId('CONTRACT');
			const rows = [...Array(20).keys()].map((index) => ({
				client: suite.fixtures.clientExternalId,
				externalId: `${prefix}-${index}`,
			}));
			// Row 5's create fails; from then on every read does: the next try stops as it looks the
			// client up, before it writes.
			suite.sandbox.setOptions({
				faults: { rate: 1, kinds: ['500'], externalIds: [rows[5].externalId] },
			});
			let failedCreate = false;
			const stopReads = suite.sandbox.onRequest((request) => {
				if (failedCreate && request.method === 'GET')
					suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['400'], methods: ['GET'] } });
				failedCreate ||= (request.body as IDataObject | null)?.externalId === rows[5].externalId;
			});

			const { error } = await suite
				.run(
					{ ...createContracts, additionalFields: { externalId: '={{ $json.externalId }}' } },
					{ items: rows, settings: retryOnFail },
				)
				.finally(stopReads);

			const created = rows.flatMap((row, index) =>
				suite.sandbox.requests.some(
					(request) =>
						request.method === 'POST' &&
						request.status === 201 &&
						(request.body as IDataObject).externalId === row.externalId,
				)
					? [index]
					: [],
			);
			expect(created.length).toBeGreaterThan(0);
			expect(error?.message).toMatch(
				/^\d+ items failed: The API rejected the request \(HTTP 400\) \[item 0\]/,
			);
			const description = String(error?.description);
			expect(description).toContain('Nothing was written');
			expect(description).toContain('of the 20 items failed in this try');
			expect(description).toContain(
				`Earlier tries of this execution (Retry On Fail) did: Created ${created.length}: items ${ranges(created)}.`,
			);
			const { run } = (error as unknown as { context: { run: IDataObject } }).context;
			expect((run.done as Array<{ item: number }>).map(({ item }) => item)).toEqual(created);
		});

		it("starts afresh in a new execution: an earlier execution's writes are not its own", async () => {
			const { rows, stopFaults } = await rowsFailingAt30({ transient: true });
			await suite.run(upsertClients, { items: rows, settings: retryOnFail }).finally(stopFaults);

			const { items } = await suite.run(upsertClients, { items: rows, settings: retryOnFail });

			expect(new Set(items.map((item) => item.json.upserted))).toEqual(new Set(['unchanged']));
		});
	});

	it("is started afresh by n8n's Retry On Fail, and fails when every try does", async () => {
		const rows = clientRows(3, (index) => (index === 1 ? 'not-an-email' : 'a@example.com'));

		const { error } = await suite.run(createClients, {
			items: rows,
			settings: { retryOnFail: true, maxTries: 2, waitBetweenTries: 0 },
		});

		expect(error?.message).toBe("'Email' must be an e-mail address [item 1]");
		expect(suite.sandbox.requests).toEqual([]);
	});

	it("keeps n8n's Batching: the batches' writes are spread over the Batch Intervals between them", async () => {
		const rows = clientRows(6);
		const interval = 1000;

		await suite.run(
			{
				...createClients,
				requestOptions: { batching: { batch: { batchSize: 2, batchInterval: interval } } },
			},
			{ items: rows },
		);

		// The items wait for each other (their checks come first), so RoutingNode's pauses alone would
		// leave them to be sent at once. Three batches are two intervals apart; a busy machine that
		// delays the first write still leaves more than one between the first and the last.
		const arrivals = suite.sandbox.requests.map((request) => request.receivedAt);
		expect(arrivals).toHaveLength(6);
		expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeGreaterThanOrEqual(interval);
	});

	it('sends a contract whose client is named by external ID after every item found it', async () => {
		const rows = [0, 1, 2].map(() => ({ client: suite.fixtures.clientExternalId }));

		await suite.run(createContracts, { items: rows });

		const order = requestsSeen(suite).map((request) => request.method);
		expect(order.lastIndexOf('GET')).toBeLessThan(order.indexOf('POST'));
		expect(writesSeen(suite).map((request) => request.path)).toEqual([
			CONTRACTS,
			CONTRACTS,
			CONTRACTS,
		]);
	});
});
