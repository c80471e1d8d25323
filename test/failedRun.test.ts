/**
 * A run that fails, with Continue On Fail off, stops and says what it did (nodes/EquipmentRental/engine/nodeRun.ts),
 * through n8n's engine against the sandbox: a bad item (its parameters, or a record it names by
 * external ID) fails the run before anything is written, naming every bad item; a failure only the
 * API can tell stops the run from starting more items, and its error lists what each item wrote and
 * which were not sent. With Continue On Fail every item is tried, as before. The evidence is what
 * the sandbox holds and the requests it saw.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from './harness/sandbox';
import {
	CLIENTS,
	CONTRACTS,
	byExternalId,
	directApi,
	newExternalId,
	picked,
	requestsSeen,
	writesSeen,
} from './harness/writes';

const STRUCTURE_ID = '123e4567-e89b-42d3-a456-426614174000';

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
		it('stops starting items, and its error lists every record written and the items not sent', async () => {
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
			// Every record the API holds is in the error, by its item; no other is.
			const held = await clientsHeld(rows);
			const reported = [...description.matchAll(/(\d+): ([0-9a-f-]{36})/g)].map(
				([, index, id]) => [Number(index), id] as const,
			);
			expect(reported.length).toBe(held.size);
			for (const [index, id] of reported) expect(held.get(rows[index].externalId)?.id).toBe(id);
			// And in the error's context, for an error workflow.
			const { run } = (error as unknown as { context: { run: IDataObject } }).context;
			expect(run.done).toEqual(reported.map(([item, id]) => ({ item, outcome: 'created', id })));
			expect(run.failed).toEqual([150]);
			// The items the run did not start were not sent, and are named.
			const notSent = /Not sent: items (\d+)-299\./.exec(description);
			expect(notSent).not.toBeNull();
			const firstNotSent = Number(notSent![1]);
			expect(firstNotSent).toBeGreaterThan(150);
			expect(held.size).toBe(firstNotSent - 1);
			expect(held.has(rows[299].externalId)).toBe(false);
			expect(error?.description).toContain(
				'The write of item 150 may have been done all the same (its answer was lost or the API failed after it)',
			);
		});

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
			expect(error?.description).toContain('read these: read 3 (items 0-2)');
			expect(error?.description).toContain('Not sent: items 4-5.');
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
