/* eslint-disable
	@n8n/community-nodes/no-restricted-imports
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * The sandbox's rate limit (sandbox/rateLimit.js), as a real API's limiter behaves: a token bucket
 * and a ceiling on the requests handled at once; a request beyond is answered 429 with Retry-After
 * and never handled. The bucket refills by a fake process.hrtime that only the tests move, and a
 * latency ends when a test moves a fake setTimeout (harness/clock.ts): however slowly a busy machine
 * sends the requests, they arrive at the moment the test says.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { startSandbox } from '../../sandbox/server';
import { fakeOnly } from '../harness/clock';
import { type SandboxAnswer as Answer, sandboxClient } from '../harness/sandbox';

const TOKEN = 'rate-limit-test-token';
const ADMIN_TOKEN = 'rate-limit-admin-token';
const MODELS = '/master-data/v1/equipment-management/models';
const QUOTES = '/master-data/v1/quote-management/quotes';
const SEED = { today: '2025-06-01', models: 10, equipment: 2, days: 1 };

let sandbox: Awaited<ReturnType<typeof startSandbox>>;

beforeAll(async () => {
	sandbox = await startSandbox({ token: TOKEN, adminToken: ADMIN_TOKEN, ...SEED });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	fakeOnly(['hrtime']);
	sandbox.setOptions({
		rateLimit: null,
		latencyMs: 0,
		clockOffsetMs: 0,
		errorDialect: undefined,
	});
	sandbox.resetStats();
});

afterEach(() => jest.useRealTimers());

const api = sandboxClient(() => sandbox.url, TOKEN);
const getModel = () => api('GET', `${MODELS}?limit=1`);

/** The statuses of `count` reads sent one after the other. */
async function statusesOf(count: number, read: () => Promise<Answer> = getModel) {
	const statuses: number[] = [];
	for (let index = 0; index < count; index += 1) statuses.push((await read()).status);
	return statuses;
}

// A deadline that a busy machine meets: only a test that fails waits it out.
async function waitFor(condition: () => boolean, timeoutMs = 20_000) {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error('condition not met in time');
		await sleep(10);
	}
}

describe('the token bucket', () => {
	it('refuses the requests beyond the burst with 429, Retry-After and an error in the dialect, and never handles them', async () => {
		sandbox.setOptions({
			rateLimit: { requestsPerSecond: 0.5, burst: 2 },
			errorDialect: 'problem',
		});
		const handled: string[] = [];
		const removeHook = sandbox.onRequest((request) => {
			handled.push(request.method);
		});
		const quotesBefore = sandbox.store.quotes.size;
		const accepted = [await getModel(), await getModel()];
		const refusedRead = await getModel();
		const refusedWrite = await api('POST', QUOTES, { body: { amount: 1 } });
		removeHook();

		expect(accepted.map((answer) => answer.status)).toEqual([200, 200]);
		expect(accepted[0].headers.get('x-ratelimit-remaining')).toBeNull();
		expect(refusedRead.status).toBe(429);
		expect(refusedRead.headers.get('retry-after')).toBe('1');
		expect(refusedRead.body).toMatchObject({
			status: 429,
			detail: 'Rate limit exceeded: at most 0.5 requests per second',
		});
		expect(refusedWrite.status).toBe(429);
		expect(sandbox.store.quotes.size).toBe(quotesBefore);
		expect(handled).toEqual(['GET', 'GET']);
		expect(
			sandbox.requests.map(({ method, status, rateLimited }) => [method, status, rateLimited]),
		).toEqual([
			['GET', 200, undefined],
			['GET', 200, undefined],
			['GET', 429, true],
			['POST', 429, true],
		]);
	});

	it('refills at requestsPerSecond, and a refused request takes no token', async () => {
		sandbox.setOptions({ rateLimit: { requestsPerSecond: 1, burst: 1 } });

		expect(await statusesOf(4)).toEqual([200, 429, 429, 429]);
		// 1.3 tokens have come back (had the refusals cost any, fewer): one request, not two.
		jest.advanceTimersByTime(1300);
		expect(await statusesOf(2)).toEqual([200, 429]);
	});

	it('starts full at burst, one second of requestsPerSecond unless set', async () => {
		sandbox.setOptions({ rateLimit: { requestsPerSecond: 3 } });

		expect(await statusesOf(4)).toEqual([200, 200, 200, 429]);
	});
});

describe('maxInFlight', () => {
	it('refuses a request beyond it while that many are handled, latency included; a refused one holds no slot', async () => {
		fakeOnly(['hrtime', 'setTimeout', 'clearTimeout']);
		sandbox.setOptions({ latencyMs: 400, rateLimit: { maxInFlight: 2 } });
		const held = [getModel(), getModel()];
		await waitFor(() => sandbox.maxAcceptedInFlight === 2);
		jest.advanceTimersByTime(200);
		let refusalAnswered = false;
		const refused = getModel().finally(() => (refusalAnswered = true));
		// Refused while the two wait out their latency, which ends only when the fake clock is moved.
		await waitFor(() => sandbox.requests[2]?.rateLimited === true);
		jest.advanceTimersByTime(200);
		await Promise.all(held);
		// The refused request still waits out its latency here (200 ms of it are left): were it
		// holding a slot, the API would have only one free.
		sandbox.setOptions({ latencyMs: 0 });
		const afterHeld = await Promise.all([getModel(), getModel()]);
		expect(refusalAnswered).toBe(false);
		jest.advanceTimersByTime(200);

		const refusal = await refused;
		expect(refusal.status).toBe(429);
		expect(refusal.body.message).toBe('Rate limit exceeded: at most 2 requests at the same time');
		expect((await Promise.all(held)).map((answer) => answer.status)).toEqual([200, 200]);
		expect(afterHeld.map((answer) => answer.status)).toEqual([200, 200]);
		// Every request received counts in maxInFlight, the refused one too: the two held and it.
		expect(sandbox.maxAcceptedInFlight).toBe(2);
		expect(sandbox.maxInFlight).toBe(3);
	});
});

describe('Retry-After and the X-RateLimit headers', () => {
	it("sends Retry-After as the HTTP-date that many seconds ahead on the API's clock, when asked", async () => {
		const offsetMs = 3_600_000;
		sandbox.setOptions({
			clockOffsetMs: offsetMs,
			rateLimit: { requestsPerSecond: 0.5, burst: 1, retryAfter: 'date', retryAfterSeconds: 5 },
		});
		await getModel();
		const askedAt = Date.now();
		const refused = await getModel();
		const answeredAt = Date.now();

		const retryAfter = refused.headers.get('retry-after')!;
		expect(refused.status).toBe(429);
		expect(retryAfter).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
		const aheadOfDateHeaderMs = Date.parse(retryAfter) - Date.parse(refused.headers.get('date')!);
		expect(aheadOfDateHeaderMs).toBeGreaterThanOrEqual(5000);
		expect(aheadOfDateHeaderMs).toBeLessThanOrEqual(6000);
		// Five seconds after the moment of the answer on the API's clock, rounded up to a whole second.
		expect(Date.parse(retryAfter)).toBeGreaterThanOrEqual(askedAt + offsetMs + 5000);
		expect(Date.parse(retryAfter)).toBeLessThanOrEqual(answeredAt + offsetMs + 6000);
	});

	it('sends the limit, the tokens left and the seconds until full on every answer, when asked', async () => {
		sandbox.setOptions({ rateLimit: { requestsPerSecond: 1, burst: 3, headers: true } });
		const answers = [
			await getModel(),
			await getModel(),
			await api('GET', `${MODELS}?limit=1`, { token: 'wrong-token' }),
			await getModel(),
		];

		expect(
			answers.map(({ status, headers }) => [
				status,
				headers.get('x-ratelimit-limit'),
				headers.get('x-ratelimit-remaining'),
				headers.get('x-ratelimit-reset'),
			]),
		).toEqual([
			[200, '1', '2', '1'],
			[200, '1', '1', '2'],
			[401, '1', '0', '3'],
			[429, '1', '0', '3'],
		]);
	});
});

describe('setting the limit', () => {
	it('takes it at start, and setOptions changes it (the bucket starting full) or lifts it (null)', async () => {
		const limited = await startSandbox({
			token: TOKEN,
			...SEED,
			rateLimit: { requestsPerSecond: 0.5, burst: 1 },
		});
		try {
			const getLimitedModel = () =>
				sandboxClient(() => limited.url, TOKEN)('GET', `${MODELS}?limit=1`);

			expect(await statusesOf(2, getLimitedModel)).toEqual([200, 429]);
			limited.setOptions({ rateLimit: { requestsPerSecond: 0.5, burst: 2 } });
			expect(await statusesOf(3, getLimitedModel)).toEqual([200, 200, 429]);
			limited.setOptions({ rateLimit: null });
			expect(await statusesOf(3, getLimitedModel)).toEqual([200, 200, 200]);
		} finally {
			await limited.close();
		}
	});

	it.each([
		[5, 'rateLimit must be an object, or null for no limit'],
		[{ requestsPerSecond: 0 }, 'rateLimit.requestsPerSecond must be a positive number'],
		[{ requestsPerSecond: 5, burst: 1.5 }, 'rateLimit.burst must be an integer >= 1'],
		[{ maxInFlight: 0 }, 'rateLimit.maxInFlight must be an integer >= 1'],
		[{ burst: 5 }, 'rateLimit.burst needs rateLimit.requestsPerSecond'],
		[{ maxInFlight: 2, headers: true }, 'rateLimit.headers needs rateLimit.requestsPerSecond'],
		[{ retryAfterSeconds: 5 }, 'rateLimit.requestsPerSecond or rateLimit.maxInFlight must be set'],
		[{ maxInFlight: 2, retryAfterSeconds: 1.5 }, 'rateLimit.retryAfterSeconds must be a whole'],
		[{ maxInFlight: 2, retryAfter: 'http-date' }, 'rateLimit.retryAfter must be one of seconds'],
		[{ maxInFlight: 2, perMinute: 60 }, 'not perMinute'],
	])(
		'refuses %p, at start and at runtime, and keeps the limit it had',
		async (rateLimit, message) => {
			sandbox.setOptions({ rateLimit: { maxInFlight: 50 } });

			await expect(startSandbox({ ...SEED, rateLimit } as never)).rejects.toThrow(message);
			expect(() => sandbox.setOptions({ rateLimit } as never)).toThrow(message);
			expect(await statusesOf(1)).toEqual([200]);
		},
	);

	it('is set through PUT /_sandbox/options, which the limit never refuses', async () => {
		const putOptions = async (body: unknown) => {
			const response = await fetch(`${sandbox.url}/_sandbox/options`, {
				method: 'PUT',
				headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			return { status: response.status, body: await response.json() };
		};

		const set = await putOptions({ rateLimit: { requestsPerSecond: 0.5, burst: 1 } });
		const limited = await statusesOf(2);
		const lifted = await putOptions({ rateLimit: null });
		const unlimited = await statusesOf(2);
		const wrong = await putOptions({ rateLimit: { burst: 2 } });

		expect(set.status).toBe(200);
		expect(limited).toEqual([200, 429]);
		expect(lifted.status).toBe(200);
		expect(unlimited).toEqual([200, 200]);
		expect(wrong).toMatchObject({
			status: 400,
			body: {
				message: 'rateLimit.burst needs rateLimit.requestsPerSecond',
				field: 'rateLimit',
			},
		});
	});
});

describe('the status of a refusal', () => {
	it('is 503 with Retry-After when asked, as a gateway answers an overload, and the request is not handled', async () => {
		sandbox.setOptions({ rateLimit: { requestsPerSecond: 0.5, burst: 1, status: 503 } });
		const quotesBefore = sandbox.store.quotes.size;

		const accepted = await getModel();
		const refused = await api('POST', QUOTES, { body: { amount: 1 } });

		expect(accepted.status).toBe(200);
		expect(refused.status).toBe(503);
		expect(refused.headers.get('retry-after')).toBe('1');
		expect(sandbox.store.quotes.size).toBe(quotesBefore);
	});

	it('is refused when it is neither 429 nor 503', () => {
		expect(() => sandbox.setOptions({ rateLimit: { maxInFlight: 1, status: 500 as 429 } })).toThrow(
			'rateLimit.status must be 429 or 503',
		);
	});
});
