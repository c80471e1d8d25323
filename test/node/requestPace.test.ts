/**
 * The run's pace (nodes/shared/requestPace.ts), through n8n's engine against the
 * sandbox with a rate limit as real APIs have one: every request of a run shares one budget of
 * requests in flight (Request Options > Parallel Requests); a refusal (429, or 503 with
 * Retry-After) pauses the whole run for its Retry-After and is sent again, a write too; an API that
 * keeps refusing past the Max Rate Limit Wait fails the items left, and nothing more is sent. The
 * evidence is what the sandbox received and holds.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { fakeOnly } from '../harness/clock';
import { holdRequestsUntil, recordClientRequests } from '../harness/ordering';
import type { SandboxRequest } from '../harness/sandbox';
import { useSandbox } from '../harness/sandbox';
import { byExternalId, CLIENTS, createDirectly, json, newExternalId } from '../harness/writes';

interface Client extends IDataObject {
	id: string;
	externalId?: string;
	name?: string;
	city?: string;
}

describe('The pace of a run', () => {
	const suite = useSandbox({ strict: true });
	afterEach(() => suite.sandbox.setOptions({ rateLimit: null, faults: null, latencyMs: 0 }));

	const clients = () => suite.sandbox.store.clients as unknown as Client[];
	/** Input rows of a sync: `existing` of them already in the API (updated), the rest new. */
	async function syncRows(count: number, existing: number) {
		const prefix = newExternalId('PACE');
		const rows = Array.from({ length: count }, (_, index) => ({
			externalId: `${prefix}-${index}`,
			name: `Client ${index}`,
			city: `City ${index}`,
		}));
		for (const row of rows.slice(0, existing))
			await createDirectly(suite, CLIENTS, { externalId: row.externalId, name: 'Old name' });
		return rows;
	}
	const upsertFromRows = (requestOptions: INodeParameters = {}): INodeParameters => ({
		resource: 'client',
		operation: 'upsert',
		externalId: '={{ $json.externalId }}',
		name: '={{ $json.name }}',
		additionalFields: { city: '={{ $json.city }}' },
		requestOptions,
	});
	/** Each row is in the API once, with the values the row gave. */
	function expectEveryRowOnce(rows: Array<{ externalId: string; name: string; city: string }>) {
		for (const row of rows) {
			const held = clients().filter((client) => client.externalId === row.externalId);
			expect(held).toHaveLength(1);
			expect(held[0]).toMatchObject({ name: row.name, city: row.city });
		}
	}
	const refused = (requests: SandboxRequest[]) =>
		requests.filter((request) => request.status === 429 || request.status === 503);
	const writesOf = (requests: SandboxRequest[], status: number) =>
		requests.filter((request) => request.method !== 'GET' && request.status === status);
	/**
	 * For a bucket on a clock that stands still (fakeOnly(['hrtime']) before the limit is set):
	 * the clock moves on by the refusal's Retry-After when the client reads one, so that the bucket
	 * refuses what the test expects however slowly a busy machine sends, and has refilled when the
	 * refused request comes again. Returns what stops it, and the clock with it.
	 */
	const refillOnRefusal = (retryAfterMs: number) => {
		const client = recordClientRequests((read) => {
			if (read.status === 429 || read.status === 503) jest.advanceTimersByTime(retryAfterMs);
		});
		return () => {
			client.stop();
			jest.useRealTimers();
		};
	};
	/**
	 * Runs the node on `rows` while the process's HTTP client's events are recorded (ordering.ts);
	 * `stopHolding` ends the sandbox's holding with the run.
	 */
	const runRecorded = async (
		parameters: INodeParameters,
		rows: IDataObject[],
		stopHolding: () => void,
	) => {
		const client = recordClientRequests();
		const result = await suite.run(parameters, { items: rows }).finally(() => {
			client.stop();
			stopHolding();
		});
		return { ...result, events: client.events };
	};
	/** A Create or Update's reads (its read of the records, look-ups): the writes wait for them. */
	const isRead = (request: SandboxRequest) => request.method === 'GET';
	/**
	 * Holds the writes the sandbox accepts until it has refused a request (a limit of requests in
	 * flight reached while they are held); reads, which the writes wait for, go at once.
	 */
	const holdWritesUntilRefused = () =>
		holdRequestsUntil(
			suite.sandbox,
			(request) => isRead(request) || suite.sandbox.requests.some((sent) => sent.rateLimited),
		);
	/**
	 * Holds the requests the sandbox accepts until `count` are in flight at once; those for which
	 * `goesAtOnce` is true, which the run waits for before it sends more, are not held.
	 */
	const holdUntilInFlight = (count: number, goesAtOnce: (request: SandboxRequest) => boolean) =>
		holdRequestsUntil(
			suite.sandbox,
			(request) => goesAtOnce(request) || suite.sandbox.maxInFlight >= count,
		);

	describe('one budget of requests in flight', () => {
		it('keeps every item of a Create or Update within Parallel Requests, look-ups and writes together, and uses it', async () => {
			suite.sandbox.setOptions({ latencyMs: 30 });
			const rows = await syncRows(24, 12);

			const stopHolding = holdUntilInFlight(3, isRead);
			const { items, error } = await suite
				.run(upsertFromRows({ parallelRequests: 3 }), {
					items: rows,
				})
				.finally(stopHolding);

			expect(error).toBeUndefined();
			expect(items).toHaveLength(24);
			expect(suite.sandbox.maxInFlight).toBe(3);
			expectEveryRowOnce(rows);
		});

		it('spreads its requests over the round trip: requests sent together would come back together, each answer waiting for the work of the others', async () => {
			suite.sandbox.setOptions({ latencyMs: 40 });
			const rows = await syncRows(40, 0);

			const { error, events } = await runRecorded(
				upsertFromRows({ parallelRequests: 4 }),
				rows,
				() => undefined,
			);

			expect(error).toBeUndefined();
			expectEveryRowOnce(rows);
			// The first writes go at once; from the first answers on, the run knows its round trip (40 ms
			// or more), and keeps its requests at least 40 / 4 in flight x 0.5 = 5 ms apart.
			const writesSent = events
				.filter((event) => event.kind === 'sent' && event.method === 'POST')
				.map((event) => event.at)
				.slice(8);
			const sentTogether = writesSent
				.slice(1)
				.filter((at, index) => at - writesSent[index] <= 1).length;
			expect(writesSent.length).toBe(32);
			expect(sentTogether).toBeLessThan(writesSent.length / 4);
		});

		it('is five requests at a time by default, however many items', async () => {
			suite.sandbox.setOptions({ latencyMs: 30 });
			const rows = await syncRows(30, 0);

			const stopHolding = holdUntilInFlight(5, isRead);
			await suite.run(upsertFromRows(), { items: rows }).finally(stopHolding);

			expect(suite.sandbox.maxInFlight).toBe(5);
		});

		it("shares the budget between the items' lists: several Return All at once stay within it", async () => {
			suite.sandbox.setOptions({ latencyMs: 30, maxPageSize: 100 });
			const list = {
				resource: 'equipmentModel',
				operation: 'getAll',
				returnAll: true,
				requestOptions: { parallelRequests: 4 },
			};

			// A list's first page goes at once: its next pages wait for its answer.
			const stopHolding = holdUntilInFlight(4, (request) => request.query.page === '1');
			const { items, error } = await suite.run(list, { items: [{}, {}, {}] }).finally(stopHolding);

			expect(error).toBeUndefined();
			expect(items.length).toBe(3 * (suite.sandbox.store.models as unknown[]).length);
			expect(suite.sandbox.maxInFlight).toBe(4);
			suite.sandbox.setOptions({ maxPageSize: undefined });
		});

		it("counts a referenced record's look-up in the same budget, once per run (a contact person's client by external ID)", async () => {
			suite.sandbox.setOptions({ latencyMs: 30 });
			const clientExternalId = newExternalId('PACE-CLIENT');
			await createDirectly(suite, CLIENTS, { externalId: clientExternalId, name: 'Parent' });
			const rows = Array.from({ length: 12 }, (_, index) => ({
				externalId: newExternalId(`PACE-CP-${index}`),
			}));

			const stopHolding = holdUntilInFlight(2, isRead);
			const { error } = await suite
				.run(
					{
						resource: 'contactPerson',
						operation: 'upsert',
						clientId: byExternalId(clientExternalId),
						externalId: '={{ $json.externalId }}',
						name: 'Contact',
						isMain: false,
						requestOptions: { parallelRequests: 2 },
					},
					{ items: rows },
				)
				.finally(stopHolding);

			expect(error).toBeUndefined();
			// The client by external ID once for the run, its contact persons' list once (read whole: one
			// request instead of a look-up per row), and per row the create.
			expect(suite.sandbox.requests).toHaveLength(1 + 1 + 12);
			expect(suite.sandbox.maxInFlight).toBe(2);
		});
	});

	describe('a run a failure stops', () => {
		it('sends no further item once the failing answer has reached the node, however fast the other answers come', async () => {
			const rows = await syncRows(300, 0);
			const failing = rows[150].externalId;
			suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['500'], externalIds: [failing] } });
			// The failing row's create answered 500, the node reads its record to learn whether the
			// create was done all the same. That read is held until every request that was out when it
			// came has been answered: those answers reach the node while it cannot yet know that the run
			// stops, and each frees a turn for another item.
			const isReadOfFailing = (request: SandboxRequest) =>
				request.method === 'GET' && request.path.endsWith(`/external-id/${failing}`);
			const outAtArrival = new Map<SandboxRequest, SandboxRequest[]>();
			const stopHolding = holdRequestsUntil(suite.sandbox, (request) => {
				if (!isReadOfFailing(request)) return true;
				if (!outAtArrival.has(request))
					outAtArrival.set(
						request,
						suite.sandbox.requests.filter((other) => other !== request && other.status === null),
					);
				return outAtArrival.get(request)!.every((other) => other.status !== null);
			});

			const { error, events } = await runRecorded(
				upsertFromRows({ parallelRequests: 5 }),
				rows,
				stopHolding,
			);

			expect(error?.message).toMatch(/\(HTTP 500\) \[item 150\]$/);
			const failedAnswer = events.findIndex(
				(event) => event.kind === 'read' && event.status === 500,
			);
			expect(failedAnswer).toBeGreaterThan(-1);
			// Requests out before it came were answered after it; none left after it but the failing
			// row's own read.
			const after = events.slice(failedAnswer + 1);
			expect(after.filter((event) => event.kind === 'read').length).toBeGreaterThan(1);
			expect(
				after
					.filter((event) => event.kind === 'sent')
					.map((event) => `${event.method} ${event.path}`),
			).toEqual([`GET ${CLIENTS}/external-id/${failing}`]);
			// And the error says so: the items after those already out were not sent.
			const { run } = (error as unknown as { context: { run: IDataObject } }).context;
			const notSent = run.notSent as number[];
			expect(notSent.at(-1)).toBe(299);
			expect(
				suite.sandbox.requests.filter((request) =>
					notSent.some((item) =>
						JSON.stringify(request.body ?? '').includes(`"${rows[item].externalId}"`),
					),
				),
			).toEqual([]);
		});
	});

	describe('an API that refuses', () => {
		it('a 429 storm: every row is written once, none lost, nothing sent twice once accepted', async () => {
			const rows = await syncRows(24, 12);
			// A bucket of 4 requests, and 4 handled at a time, where the run sends 8 at once: the writes
			// accepted first stay in flight until one more has been refused, however slowly a busy
			// machine prepares its items (a bucket alone refuses nothing to a machine slower than its
			// rate); then the bucket refuses whatever comes faster than 40 a second. A bucket this small
			// keeps the run well below the rate (README, Limits), hence the few rows.
			suite.sandbox.setOptions({
				latencyMs: 5,
				rateLimit: { requestsPerSecond: 40, burst: 4, maxInFlight: 4, retryAfterSeconds: 1 },
			});
			const stopHolding = holdWritesUntilRefused();

			const { items, error } = await suite
				.run(upsertFromRows({ parallelRequests: 8 }), { items: rows })
				.finally(stopHolding);

			expect(error).toBeUndefined();
			expect(json(items).map((item) => item.upserted)).toEqual([
				...Array(12).fill('updated'),
				...Array(12).fill('created'),
			]);
			expect(json(items).some((item) => 'error' in item)).toBe(false);
			const { requests } = suite.sandbox;
			expect(refused(requests).length).toBeGreaterThan(0);
			// Exactly one accepted write per row: none repeated.
			expect(writesOf(requests, 201)).toHaveLength(12);
			expect(writesOf(requests, 200)).toHaveLength(12);
			expectEveryRowOnce(rows);
		});

		it('an API that limits requests in flight: the run keeps below the limit after the first refusals, and they stay few', async () => {
			const rows = await syncRows(40, 20);
			suite.sandbox.setOptions({
				latencyMs: 20,
				rateLimit: { maxInFlight: 2, retryAfterSeconds: 1 },
			});

			// The first two writes accepted stay in flight until the run has sent one more.
			const stopHolding = holdWritesUntilRefused();
			const { error } = await suite.run(upsertFromRows(), { items: rows }).finally(stopHolding);

			expect(error).toBeUndefined();
			expectEveryRowOnce(rows);
			// The first requests go out five at once; refused, the run keeps to what was answered.
			expect(refused(suite.sandbox.requests).length).toBeGreaterThan(0);
			expect(refused(suite.sandbox.requests).length).toBeLessThanOrEqual(6);
		});

		it('sends a write refused with 429 again, and it is done once', async () => {
			const rows = await syncRows(3, 0);
			let posted = false;
			const removeHook = suite.sandbox.onRequest((request) => {
				// The first create is refused; the sandbox's faults are drawn after this hook.
				const firstPost = request.method === 'POST' && !posted;
				posted ||= request.method === 'POST';
				suite.sandbox.setOptions({
					faults: firstPost ? { rate: 1, kinds: ['429'], retryAfterSeconds: 1 } : null,
				});
			});
			try {
				const { items, error } = await suite.run(upsertFromRows(), { items: rows });
				expect(error).toBeUndefined();
				expect(json(items).map((item) => item.upserted)).toEqual(['created', 'created', 'created']);
			} finally {
				removeHook();
			}

			const { requests } = suite.sandbox;
			expect(writesOf(requests, 429)).toHaveLength(1);
			expect(writesOf(requests, 201)).toHaveLength(3);
			expectEveryRowOnce(rows);
		});

		it('pauses every request of the run for the Retry-After: none reaches the API while it runs', async () => {
			const rows = await syncRows(6, 0);
			// An API that handles one request at a time: the run sends its creates two at a time, and the
			// first stays in flight until the second has been refused, however slowly a busy machine
			// sends it.
			suite.sandbox.setOptions({ rateLimit: { maxInFlight: 1, retryAfterSeconds: 1 } });
			const stopHolding = holdWritesUntilRefused();

			const { error, events } = await runRecorded(
				upsertFromRows({ parallelRequests: 2 }),
				rows,
				stopHolding,
			);

			expect(error).toBeUndefined();
			const refusals = events.filter((event) => event.kind === 'read' && event.status === 429);
			expect(refusals.length).toBeGreaterThan(0);
			// Requests sent before the client had read a refusal may reach the API after it; none is
			// sent from then until its Retry-After (a second) has passed.
			for (const refusal of refusals) {
				const sentDuringPause = events
					.slice(events.indexOf(refusal) + 1)
					.filter((event) => event.kind === 'sent' && event.at < refusal.at + 1000);
				expect(sentDuringPause).toEqual([]);
			}
			expectEveryRowOnce(rows);
		});

		it.each([
			['in seconds', 'seconds'],
			['as an HTTP date', 'date'],
		])('waits as long as a Retry-After %s asks', async (_form, retryAfter) => {
			const rows = await syncRows(1, 1);
			fakeOnly(['hrtime']);
			suite.sandbox.setOptions({
				rateLimit: { requestsPerSecond: 0.5, burst: 1, retryAfterSeconds: 2, retryAfter },
			});
			const stopRefilling = refillOnRefusal(2000);
			const arrivals: number[] = [];
			const removeHook = suite.sandbox.onRequest(() => {
				arrivals.push(Date.now());
			});
			try {
				const { error } = await suite.run(upsertFromRows(), { items: rows });
				expect(error).toBeUndefined();
			} finally {
				removeHook();
				stopRefilling();
			}

			// The look-up is taken, the write refused (the bucket is empty), then sent again once the
			// Retry-After has passed: 2 s, or the whole second after the date's.
			const { requests } = suite.sandbox;
			expect(requests.map((request) => `${request.method} ${request.status}`)).toEqual([
				'GET 200',
				'PATCH 429',
				'PATCH 200',
			]);
			expect(arrivals).toHaveLength(2);
			expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(1900);
			expectEveryRowOnce(rows);
		});

		it('takes a 503 with Retry-After as a refusal: the write is sent again and done once', async () => {
			const rows = await syncRows(1, 0);
			fakeOnly(['hrtime']);
			suite.sandbox.setOptions({
				rateLimit: { requestsPerSecond: 1, burst: 1, retryAfterSeconds: 1, status: 503 },
			});

			const stopRefilling = refillOnRefusal(1000);

			const { items, error } = await suite
				.run(upsertFromRows(), { items: rows })
				.finally(stopRefilling);

			expect(error).toBeUndefined();
			expect(json(items)[0].upserted).toBe('created');
			expect(
				suite.sandbox.requests.map((request) => `${request.method} ${request.status}`),
			).toEqual(['GET 404', 'POST 503', 'POST 201']);
			expectEveryRowOnce(rows);
		});

		it('does not send a write again after a 503 without Retry-After, which may come after the write was done', async () => {
			suite.sandbox.setOptions({
				faults: { rate: 1, kinds: ['503'], methods: ['POST'] },
			});

			const { error } = await suite.run({
				resource: 'quote',
				operation: 'create',
				clientId: suite.fixtures.clientId,
				contractId: suite.fixtures.contractId,
				amount: 100,
			});

			expect(error?.message).toContain('(HTTP 503)');
			expect(suite.sandbox.requests.map((request) => request.method)).toEqual(['POST']);
		});

		it('reads again after a 503 without Retry-After, with a short backoff', async () => {
			let answered = 0;
			const removeHook = suite.sandbox.onRequest(() => {
				answered += 1;
				suite.sandbox.setOptions({
					faults: answered === 1 ? { rate: 1, kinds: ['503'] } : null,
				});
			});
			try {
				const { items, error } = await suite.run({
					resource: 'equipmentModel',
					operation: 'getAll',
					limit: 5,
				});
				expect(error).toBeUndefined();
				expect(items).toHaveLength(5);
			} finally {
				removeHook();
			}
			expect(suite.sandbox.requests.map((request) => request.status)).toEqual([503, 200]);
		});
	});

	describe('an API that keeps refusing', () => {
		it('fails the items left once the refusals outlast the Max Rate Limit Wait, saying so, and sends nothing more', async () => {
			const rows = await syncRows(20, 0);
			suite.sandbox.setOptions({
				faults: { rate: 1, kinds: ['429'], retryAfterSeconds: 1 },
			});

			const { items, error } = await suite.run(
				upsertFromRows({ parallelRequests: 2, maxRateLimitWait: 2 }),
				{ items: rows, onError: 'continueRegularOutput' },
			);

			expect(error).toBeUndefined();
			expect(items).toHaveLength(20);
			for (const item of json(items))
				expect(String(item.error)).toMatch(
					/^The API kept refusing requests as rate-limited \(HTTP 429\) for \d+ seconds? \[item \d+\]\. It refused every request from .* Nothing more was sent for this item, and nothing was written for it\./,
				);
			// Refused from the first request on: a few look-ups in two seconds, not one per row, and
			// nothing written.
			expect(suite.sandbox.requests.length).toBeLessThan(12);
			expect(suite.sandbox.requests.every((request) => request.method === 'GET')).toBe(true);
			expect(
				clients().filter((client) =>
					client.externalId?.startsWith(rows[0].externalId.slice(0, -2)),
				),
			).toHaveLength(0);
			// The run gave up once, for every item left: all name the same refusals, not a wait of
			// their own.
			const refusalsNamed = json(items).map((item) =>
				/It refused every request from (\S+) on, and asked to wait until (\S+):/
					.exec(String(item.error))
					?.slice(1),
			);
			expect(new Set(refusalsNamed.map(String)).size).toBe(1);
		});

		it('fails at once when a Retry-After asks for longer than the Max Rate Limit Wait', async () => {
			suite.sandbox.setOptions({
				faults: { rate: 1, kinds: ['429'], retryAfterSeconds: 120 },
			});

			const { error } = await suite.run({
				resource: 'equipmentModel',
				operation: 'getAll',
				limit: 5,
				requestOptions: { maxRateLimitWait: 60 },
			});

			// "refused", not "kept refusing … for N seconds": given up at the first refusal, without a wait.
			expect(error?.message).toBe('The API refused requests as rate-limited (HTTP 429) [item 0]');
			expect(error?.description).toContain("past 'Max Rate Limit Wait (Seconds)' (60 seconds)");
			expect(suite.sandbox.requests).toHaveLength(1);
		});
	});
});
