/* eslint-disable
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
import { validateRequest, validateResponse } from '../../sandbox/contract';
import {
	createFaultInjector,
	FAULT_KINDS,
	type FaultKind,
	type FaultOptions,
} from '../../sandbox/faults';
import { startSandbox } from '../../sandbox/server';
import { holdRequestsUntil } from '../harness/ordering';
import { type SandboxAnswer as Answer, sandboxClient } from '../harness/sandbox';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Fixtures = Sandbox['store']['fixtures'];

const TOKEN = 'test-token';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const QUOTES = '/master-data/v1/quote-management/quotes';
const MODELS = '/master-data/v1/equipment-management/models';
const priceListPath = (customPriceId: string) =>
	`/master-data/v1/product-management/products/price-lists/custom/${customPriceId}`;
const releasePath = (id: string) => `/master-data/v1/booking-management/releases/${id}`;
const priceItemPath = (id: string, priceId: string) =>
	`/master-data/v1/product-management/products/${id}/price-list/${priceId}`;
const attachPath = (id: string) => `/master-data/v1/product-management/products/${id}/attach`;
const distancePath = (date: string) => `/analytics/v1/equipment-distance/${date}`;
const inventoryPath = (id: string) => `/master-data/v1/inventory-management/inventories/${id}`;

let sandbox: Sandbox;
let fixtures: Fixtures;

beforeAll(async () => {
	sandbox = await startSandbox({ token: TOKEN, today: '2025-06-01', seed: 7 });
	fixtures = sandbox.store.fixtures;
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	sandbox.setOptions({ faults: null, latencyMs: 0, maxPageSize: undefined });
	sandbox.resetStats();
});

const api = sandboxClient(() => sandbox.url, TOKEN);

/**
 * Every request the sandbox logged passes the contract check, given its path and parsed query or
 * its whole url.
 */
function expectLoggedRequestsToFollowContract() {
	expect(sandbox.requests.length).toBeGreaterThan(0);
	for (const request of sandbox.requests) {
		expect(validateRequest(request).errors).toEqual([]);
		expect(validateRequest({ ...request, path: request.url }).errors).toEqual([]);
	}
}

function expectResponseToFollowContract(operationId: string, answer: Answer) {
	expect(
		validateResponse({ operationId, status: answer.status, body: answer.body }).errors,
	).toEqual([]);
}

describe('authentication', () => {
	it.each([
		['without an Authorization header', null],
		['with a wrong token', 'wrong-token'],
	])(
		'refuses a request %s with a 401 GeneralError that does not echo the token',
		async (_case, token) => {
			const answer = await api('GET', MODELS, { token });

			expect(answer.status).toBe(401);
			expect(answer.headers.get('www-authenticate')).toBe('Bearer');
			expect(answer.body).toEqual({
				statusCode: 401,
				error: 'Unauthorized',
				message: 'Invalid or missing access token',
			});
			expect(JSON.stringify(answer.body)).not.toContain('wrong-token');
		},
	);
});

describe('operations', () => {
	afterEach(expectLoggedRequestsToFollowContract);

	it('creates a quote and answers the stored record with 201', async () => {
		const quote = {
			amount: 12500.5,
			clientId: fixtures.clientId,
			contractId: fixtures.contractId,
			status: 'OPEN',
			date: '2024-02-29',
			startDate: '2025-07-01T08:00:00Z',
			bookingIds: [fixtures.bookingId],
		};
		const answer = await api('POST', QUOTES, { body: quote });

		expect(answer.status).toBe(201);
		expect(answer.body).toMatchObject(quote);
		expect(answer.body.id).toMatch(UUID);
		expect(sandbox.store.quotes.get(answer.body.id)).toEqual(answer.body);
		expectResponseToFollowContract('createQuote', answer);
	});

	it('lists a custom price list: first page of 20, ordered by product title, with tiers as children', async () => {
		const entries = sandbox.store.priceLists.get(fixtures.customPriceId)!;
		const answer = await api('GET', priceListPath(fixtures.customPriceId));

		expect(answer.status).toBe(200);
		expect(answer.body.total).toBe(entries.length);
		expect(answer.body.content).toHaveLength(20);
		const titles = answer.body.content.map((entry: { productTitle: string }) => entry.productTitle);
		expect(titles).toEqual([...titles].sort());
		const equipmentEntry = entries.find(
			(entry) => entry.productId === fixtures.equipmentProductId,
		)!;
		expect(equipmentEntry.children.map((child) => child.from)).toEqual([3, 7]);
		expectResponseToFollowContract('listCustomPriceListEntries', answer);
	});

	it('updates only the sent fields of a release and answers the release', async () => {
		const before = { ...sandbox.store.releases.get(fixtures.releaseId)! };
		const answer = await api('PATCH', releasePath(fixtures.releaseId), {
			body: { reason: 'Returned early', quantity: 0.5 },
		});

		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({
			id: fixtures.releaseId,
			reason: 'Returned early',
			quantity: 0.5,
			bookingId: before.bookingId,
			startDate: before.startDate,
			percentage: before.percentage,
		});
		expectResponseToFollowContract('updateRelease', answer);
	});

	it('edits a price item, FIXED being the default calculation type', async () => {
		const answer = await api('PUT', priceItemPath(fixtures.equipmentProductId, fixtures.priceId), {
			body: { from: 2, price: 399.99 },
		});

		expect(answer).toMatchObject({ status: 200, body: { success: true } });
		const priceItem = sandbox.store.products.get(fixtures.equipmentProductId)!.priceItems[0];
		expect(priceItem).toEqual({
			id: fixtures.priceId,
			from: 2,
			price: 399.99,
			calculationType: 'FIXED',
		});
		expectResponseToFollowContract('editProductPriceItem', answer);
	});

	it('attaches a SERVICE product, then refuses the same attachment with 409', async () => {
		const path = attachPath(fixtures.personProductId);
		const answer = await api('POST', path, { body: { productId: fixtures.serviceProductId } });

		expect(answer).toMatchObject({ status: 200, body: { success: true } });
		expect(sandbox.store.attachments.get(fixtures.personProductId)).toEqual(
			new Set([fixtures.serviceProductId]),
		);
		expect(
			await api('POST', path, { body: { productId: fixtures.serviceProductId } }),
		).toMatchObject({
			status: 409,
			body: { statusCode: 409, field: 'productId' },
		});
		expectResponseToFollowContract('attachProduct', answer);
	});

	it('reports the distance of every piece of equipment for a date, and an empty array for a date without data', async () => {
		const answer = await api('GET', distancePath(fixtures.distanceDate));

		expect(answer.status).toBe(200);
		expect(answer.body).toHaveLength(200);
		expect(
			answer.body.some((record: { distance: number | null }) => record.distance === null),
		).toBe(true);
		expect(
			answer.body.some(
				(record: { equipment: { beaconId: string | null } }) => record.equipment.beaconId === null,
			),
		).toBe(true);
		expect(answer.body[0].date).toBe(`${fixtures.distanceDate}T00:00:00.000Z`);
		expectResponseToFollowContract('getEquipmentDistance', answer);
		expect(await api('GET', distancePath('2025-06-01'))).toMatchObject({ status: 200, body: [] });
	});

	it('deletes an inventory once; the second delete answers 404', async () => {
		const id = [...sandbox.store.inventories.keys()][1];
		const answer = await api('DELETE', inventoryPath(id));

		expect(answer).toMatchObject({ status: 200, body: { success: true } });
		expect(sandbox.store.inventories.has(id)).toBe(false);
		expect(await api('DELETE', inventoryPath(id))).toMatchObject({
			status: 404,
			body: { statusCode: 404, field: 'id' },
		});
		expectResponseToFollowContract('deleteInventory', answer);
	});

	it('lists equipment models: 50 per page by default, ordered by name, total of all models', async () => {
		const answer = await api('GET', MODELS);

		expect(answer.status).toBe(200);
		expect(answer.body.total).toBe(2000);
		expect(answer.body.content).toHaveLength(50);
		const names = answer.body.content.map((model: { name: string }) => model.name);
		expect(names).toEqual([...names].sort());
		expectResponseToFollowContract('listEquipmentModels', answer);
	});
});

describe('errors', () => {
	it.each([
		['amount above 100000000', 'POST', QUOTES, { amount: 100000001 }, 'amount'],
		['a quote date that is not a calendar date', 'POST', QUOTES, { date: '2023-02-29' }, 'date'],
		['a missing required field', 'POST', QUOTES, { clientId: undefined }, 'clientId'],
		['an unknown body field', 'POST', QUOTES, { discount: 5 }, 'discount'],
		['page 0', 'GET', `${MODELS}?page=0`, undefined, 'page'],
		['a non-integer limit', 'GET', `${MODELS}?limit=2.5`, undefined, 'limit'],
		['an unknown query parameter', 'GET', `${MODELS}?sort=name`, undefined, 'sort'],
		['a distance date that is not a date', 'GET', distancePath('2025-13-01'), undefined, 'date'],
	])('answers 400 naming the field for %s', async (_case, method, path, bodyChanges, field) => {
		const body = bodyChanges && {
			amount: 10,
			clientId: fixtures.clientId,
			contractId: fixtures.contractId,
			...bodyChanges,
		};
		const answer = await api(method, path, { body });

		expect(answer.status).toBe(400);
		expect(answer.body).toMatchObject({ statusCode: 400, error: 'Bad Request', field });
	});

	it('refuses to attach a product that is not a SERVICE with 422 naming productId', async () => {
		const answer = await api('POST', attachPath(fixtures.serviceProductId), {
			body: { productId: fixtures.equipmentProductId },
		});

		expect(answer).toMatchObject({ status: 422, body: { statusCode: 422, field: 'productId' } });
		expect(sandbox.store.attachments.has(fixtures.serviceProductId)).toBe(false);
	});

	it.each([
		[
			'product of a price item',
			() => priceItemPath(MISSING_ID, fixtures.priceId),
			'PUT',
			{ from: 1, price: 1 },
			'id',
		],
		[
			'price item',
			() => priceItemPath(fixtures.equipmentProductId, 'no-such-price'),
			'PUT',
			{ from: 1, price: 1 },
			'priceId',
		],
		['release', () => releasePath(MISSING_ID), 'PATCH', { reason: 'x' }, 'id'],
		['custom price list', () => priceListPath('no-such-list'), 'GET', undefined, 'customPriceId'],
		['inventory', () => inventoryPath('no-such-inventory'), 'DELETE', undefined, 'id'],
		[
			'product to attach',
			() => attachPath(fixtures.equipmentProductId),
			'POST',
			{ productId: MISSING_ID },
			'productId',
		],
	])('answers 404 naming the field for an unknown %s', async (_case, path, method, body, field) => {
		expect(await api(method, path(), { body })).toMatchObject({
			status: 404,
			body: { statusCode: 404, field },
		});
	});

	it('answers 404 for a path that is no operation', async () => {
		expect(await api('GET', '/master-data/v1/equipment-management/brands')).toMatchObject({
			status: 404,
		});
	});
});

describe('lists', () => {
	it('pages through a price list: pages join into the whole ordered list, past the end is empty', async () => {
		const entries = sandbox.store.priceLists.get(fixtures.customPriceId)!;
		const pageNumbers = Array.from(
			{ length: Math.ceil(entries.length / 7) + 1 },
			(_, index) => index + 1,
		);
		const pages = await Promise.all(
			pageNumbers.map((page) =>
				api('GET', `${priceListPath(fixtures.customPriceId)}?limit=7&page=${page}`),
			),
		);

		const ids = pages.flatMap((page) => page.body.content.map((entry: { id: string }) => entry.id));
		const expectedOrder = [...entries].sort((left, right) =>
			left.productTitle < right.productTitle ? -1 : 1,
		);
		expect(ids).toEqual(expectedOrder.map((entry) => entry.id));
		expect(pages.every((page) => page.body.total === entries.length)).toBe(true);
		expect(pages[pages.length - 1].body.content).toEqual([]);
		expect(pages[pages.length - 2].body.content.length).toBeGreaterThan(0);
	});

	it('answers no entries but the total for limit 0', async () => {
		const answer = await api('GET', `${priceListPath(fixtures.customPriceId)}?limit=0`);

		expect(answer.body).toEqual({
			content: [],
			total: sandbox.store.priceLists.get(fixtures.customPriceId)!.length,
		});
	});

	it('caps the page size silently at maxPageSize', async () => {
		sandbox.setOptions({ maxPageSize: 10 });
		const answer = await api('GET', `${MODELS}?limit=100&page=2`);

		expect(answer.body.content).toHaveLength(10);
		expect(answer.body.total).toBe(2000);
		const sorted = [...sandbox.store.models].sort((left, right) =>
			left.name < right.name ? -1 : 1,
		);
		expect(answer.body.content[0].id).toBe(sorted[10].id);
	});

	it('filters price list entries by product type and by product', async () => {
		const byType = await api(
			'GET',
			`${priceListPath(fixtures.customPriceId)}?type=SERVICE&limit=100`,
		);
		const byProduct = await api(
			'GET',
			`${priceListPath(fixtures.customPriceId)}?productId=${fixtures.serviceProductId}`,
		);

		const types = byType.body.content.map(
			(entry: { productId: string }) => sandbox.store.products.get(entry.productId)!.type,
		);
		expect(types.length).toBe(6);
		expect(new Set(types)).toEqual(new Set(['SERVICE']));
		expect(byType.body.total).toBe(6);
		expect(byProduct.body.content.map((entry: { productId: string }) => entry.productId)).toEqual([
			fixtures.serviceProductId,
		]);
	});

	it('filters models by brand, exact name, ids, updatedAfter (strictly after) and case-insensitive search', async () => {
		const { models } = sandbox.store;
		const count = (predicate: (model: (typeof models)[number]) => boolean) =>
			models.filter(predicate).length;
		const pivot = models[5];
		const someIds = models.slice(0, 3).map((model) => model.id);

		const byBrand = await api('GET', `${MODELS}?brandId=${fixtures.brandId}&limit=1`);
		const byName = await api('GET', `${MODELS}?name=${encodeURIComponent(pivot.name)}`);
		const byIds = await api('GET', `${MODELS}?ids=${someIds.join(',')}`);
		const updated = await api('GET', `${MODELS}?updatedAfter=${pivot.updatedAt}&limit=2000`);
		const searched = await api('GET', `${MODELS}?search=CATERPILLAR&limit=2000`);

		expect(byBrand.body.total).toBe(count((model) => model.brandId === fixtures.brandId));
		expect(byName.body.content.map((model: { id: string }) => model.id)).toEqual([pivot.id]);
		expect(byIds.body.content.map((model: { id: string }) => model.id).sort()).toEqual(
			[...someIds].sort(),
		);
		expect(updated.body.total).toBe(count((model) => model.updatedAt > pivot.updatedAt));
		expect(updated.body.content.map((model: { id: string }) => model.id)).not.toContain(pivot.id);
		expect(searched.body.total).toBe(count((model) => model.name.startsWith('Caterpillar ')));
		expect(searched.body.total).toBeGreaterThan(0);
	});

	it('runs onRequest hooks before handling, so a model inserted between pages shifts the next page', async () => {
		const firstPage = await api('GET', `${MODELS}?limit=5&page=1`);
		const removeHook = sandbox.onRequest(() => {
			sandbox.store.models.push({
				...sandbox.store.models[0],
				id: MISSING_ID,
				name: '0 inserted first',
			});
		});
		const secondPage = await api('GET', `${MODELS}?limit=5&page=2`);
		removeHook();
		sandbox.store.models.pop();

		expect(secondPage.body.total).toBe(firstPage.body.total + 1);
		expect(secondPage.body.content[0]).toEqual(firstPage.body.content[4]);
	});
});

describe('faults and timing', () => {
	const injectOnly = (kind: FaultKind, extra: FaultOptions = {}) =>
		sandbox.setOptions({ faults: { rate: 1, kinds: [kind], ...extra } });

	it.each(['500', '503'] as const)('injects %s as a GeneralError', async (kind) => {
		injectOnly(kind);
		const status = Number(kind);
		expect(await api('GET', MODELS)).toMatchObject({ status, body: { statusCode: status } });
		expect(sandbox.requests[0]).toMatchObject({ fault: kind, status });
	});

	it('injects 429 with Retry-After in seconds', async () => {
		injectOnly('429', { retryAfterSeconds: 7 });
		const answer = await api('GET', MODELS);

		expect(answer.status).toBe(429);
		expect(answer.headers.get('retry-after')).toBe('7');
	});

	it('injects a truncated JSON body with status 200', async () => {
		injectOnly('malformed');
		const response = await fetch(sandbox.url + MODELS, {
			headers: { authorization: `Bearer ${TOKEN}` },
		});

		expect(response.status).toBe(200);
		// Compared by name: the parser's SyntaxError comes from another realm than the test's.
		await expect(response.json()).rejects.toMatchObject({ name: 'SyntaxError' });
	});

	it('drops the connection without an answer', async () => {
		injectOnly('drop');
		await expect(api('GET', MODELS)).rejects.toThrow('fetch failed');
		expect(sandbox.requests[0]).toMatchObject({ fault: 'drop', status: null });
	});

	it('delays a slow answer by slowMs', async () => {
		injectOnly('slow', { slowMs: 150 });
		const started = Date.now();
		const answer = await api('GET', `${MODELS}?limit=1`);

		expect(answer.status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(145);
	});

	it('never answers a hanging request; it stays in flight until the client gives up', async () => {
		injectOnly('hang');
		await expect(api('GET', MODELS, { signal: AbortSignal.timeout(200) })).rejects.toThrow(
			/aborted/,
		);
		expect(sandbox.requests[0]).toMatchObject({ fault: 'hang', status: null });
		await waitFor(() => sandbox.inFlight === 0);
	});

	it('draws soft-failure and lost-answer only when asked for', () => {
		const drawAll = (options: FaultOptions) => {
			const injector = createFaultInjector({ rate: 1, seed: 9, ...options });
			return new Set(Array.from({ length: 300 }, () => injector.draw('POST')));
		};

		expect(drawAll({})).toEqual(new Set(FAULT_KINDS));
		expect(drawAll({ kinds: ['lost-answer', 'soft-failure'] })).toEqual(
			new Set(['lost-answer', 'soft-failure']),
		);
	});

	it('injects faults only into the requests whose body names one of faults.externalIds', () => {
		const injector = createFaultInjector({ rate: 1, kinds: ['500'], externalIds: ['ROW-2'] });

		expect(injector.draw('POST', { externalId: 'ROW-1' })).toBeUndefined();
		expect(injector.draw('POST', { externalId: 'ROW-2', name: 'Second row' })).toBe('500');
		expect(injector.draw('GET')).toBeUndefined();
		expect(() => createFaultInjector({ externalIds: 'ROW-2' as never })).toThrow(
			'faults.externalIds must be a list of external IDs',
		);
	});

	it('loses the answer of a read as well when lost-answer is not limited to writes', async () => {
		injectOnly('lost-answer');
		await expect(api('GET', `${MODELS}?limit=1`)).rejects.toThrow('fetch failed');
		expect(sandbox.requests[0]).toMatchObject({ fault: 'lost-answer', status: null });
	});

	it('limits faults to the eligible methods', async () => {
		sandbox.setOptions({ faults: { rate: 1, kinds: ['500'], methods: ['POST'] } });

		expect((await api('GET', `${MODELS}?limit=1`)).status).toBe(200);
		expect((await api('POST', QUOTES, { body: { amount: 1 } })).status).toBe(500);
	});

	it('chooses the same faults for the same seed', async () => {
		const faultSequence = async () => {
			sandbox.setOptions({ faults: { rate: 0.5, kinds: ['500', '503'], seed: 42 } });
			sandbox.resetStats();
			for (let index = 0; index < 12; index += 1) await api('GET', `${MODELS}?limit=1`);
			return sandbox.requests.map((request) => request.fault ?? 'none');
		};

		const first = await faultSequence();
		expect(await faultSequence()).toEqual(first);
		expect(new Set(first)).toEqual(new Set(['none', '500', '503']));
	});

	it('counts the highest number of requests in flight at once, and applies latency to each', async () => {
		sandbox.setOptions({ latencyMs: 100 });
		// The six are held until all have arrived, however slowly a busy machine sends them.
		const stopHolding = holdRequestsUntil(sandbox, () => sandbox.maxInFlight >= 6);
		const started = Date.now();
		await Promise.all(Array.from({ length: 6 }, () => api('GET', `${MODELS}?limit=1`)));
		stopHolding();

		expect(Date.now() - started).toBeGreaterThanOrEqual(95);
		expect(sandbox.maxInFlight).toBe(6);
		sandbox.resetStats();
		for (let index = 0; index < 3; index += 1) await api('GET', `${MODELS}?limit=1`);
		expect(sandbox.maxInFlight).toBe(1);
	});
});

describe('options', () => {
	it('refuses unknown start options, and start-only options once running', async () => {
		await expect(startSandbox({ modles: 10 } as never)).rejects.toThrow(
			'Unknown sandbox options: modles',
		);
		expect(() => sandbox.setOptions({ models: 10 } as never)).toThrow(
			'models cannot be changed after the sandbox started',
		);
	});

	it('takes the length of its listen queue as a start option', async () => {
		const other = await startSandbox({ token: TOKEN, backlog: 2048, models: 1 });
		try {
			const response = await fetch(`${other.url}${MODELS}?limit=1`, {
				headers: { Authorization: `Bearer ${TOKEN}` },
			});
			expect(response.status).toBe(200);
		} finally {
			await other.close();
		}
		expect(() => sandbox.setOptions({ backlog: 10 } as never)).toThrow(
			'backlog cannot be changed after the sandbox started',
		);
	});

	it('builds the same data for the same seed and reference date', async () => {
		const twin = await startSandbox({
			today: '2025-06-01',
			seed: 7,
			models: 10,
			equipment: 5,
			days: 2,
		});
		try {
			expect(twin.store.fixtures).toMatchObject({
				customPriceId: fixtures.customPriceId,
				equipmentProductId: fixtures.equipmentProductId,
				releaseId: fixtures.releaseId,
				brandId: fixtures.brandId,
				distanceDate: '2025-05-31',
			});
			expect([...twin.store.distances.keys()]).toEqual(['2025-05-30', '2025-05-31']);
		} finally {
			await twin.close();
		}
	});
});

describe('validateRequest', () => {
	const authorization = `Bearer ${TOKEN}`;
	const jsonHeaders = { authorization, 'content-type': 'application/json; charset=utf-8' };
	// The contract check knows nothing of the store: any well-formed UUID will do.
	const validQuote = () => ({ amount: 100, clientId: MISSING_ID, contractId: MISSING_ID });

	it('accepts a request the document allows, with decoded parameters and query defaults', () => {
		const check = validateRequest({
			method: 'GET',
			path: `${sandbox.url}${priceListPath(fixtures.customPriceId)}?type=EQUIPMENT`,
			query: { page: 2 },
			headers: { Authorization: authorization },
		});

		expect(check).toMatchObject({
			ok: true,
			operationId: 'listCustomPriceListEntries',
			errors: [],
			pathParams: { customPriceId: fixtures.customPriceId },
			query: { type: 'EQUIPMENT', page: 2, limit: 20 },
		});
	});

	it('accepts an encoded slash inside an ID as one decoded segment', () => {
		const check = validateRequest({
			method: 'DELETE',
			path: inventoryPath('rack%2F12'),
			headers: { authorization },
		});

		expect(check).toMatchObject({
			ok: true,
			operationId: 'deleteInventory',
			pathParams: { id: 'rack/12' },
		});
	});

	it.each([
		[
			'an unencoded slash in an ID routes to no operation',
			'DELETE',
			() => inventoryPath('rack/12'),
			undefined,
			/no operation has the path/,
		],
		[
			'a dot segment would be normalised away',
			'DELETE',
			() => inventoryPath('..'),
			undefined,
			/dot segment/,
		],
		['a wrong method', 'GET', () => inventoryPath('rack-12'), undefined, /GET is not an operation/],
		[
			'an impossible calendar date',
			'GET',
			() => distancePath('2023-02-29'),
			undefined,
			/path\/date must match format "date"/,
		],
		[
			'an empty release id',
			'PATCH',
			() => releasePath(''),
			{ reason: 'x' },
			/no operation has the path/,
		],
		[
			'an unknown query parameter',
			'GET',
			() => `${MODELS}?sort=name`,
			undefined,
			/query\/sort is unknown/,
		],
		[
			'a repeated query parameter',
			'GET',
			() => `${MODELS}?page=1&page=2`,
			undefined,
			/query\/page must not be repeated/,
		],
		[
			'a negative price list limit',
			'GET',
			() => `${priceListPath('x')}?limit=-1`,
			undefined,
			/query\/limit must be >= 0/,
		],
		[
			'an invalid ids list',
			'GET',
			() => `${MODELS}?ids=a,b`,
			undefined,
			/query\/ids must match pattern/,
		],
		[
			'a missing required body field',
			'POST',
			() => QUOTES,
			{ amount: 1, clientId: MISSING_ID },
			/body\/contractId is required/,
		],
		[
			'an amount above the maximum',
			'POST',
			() => QUOTES,
			{ ...validQuote(), amount: 100000000.01 },
			/body\/amount must be <= 100000000/,
		],
		[
			'a start date not in UTC',
			'POST',
			() => QUOTES,
			{ ...validQuote(), startDate: '2025-01-01T10:00:00+01:00' },
			/body\/startDate/,
		],
		[
			'a price item from below 1',
			'PUT',
			() => priceItemPath(MISSING_ID, 'p'),
			{ from: 0.5, price: 1 },
			/body\/from must be >= 1/,
		],
		[
			'a negative price',
			'PUT',
			() => priceItemPath(MISSING_ID, 'p'),
			{ from: 1, price: -0.01 },
			/body\/price must be >= 0/,
		],
		[
			'an unknown calculation type',
			'PUT',
			() => priceItemPath(MISSING_ID, 'p'),
			{ from: 1, price: 1, calculationType: 'FLAT' },
			/body\/calculationType/,
		],
		[
			'a body on an operation without one',
			'DELETE',
			() => inventoryPath('rack-12'),
			{ force: true },
			/takes no request body/,
		],
		['a missing body', 'POST', () => attachPath(MISSING_ID), undefined, /body is required/],
	])('rejects %s', (_case, method, path, body, error) => {
		const check = validateRequest({ method, path: path(), headers: jsonHeaders, body });

		expect(check.ok).toBe(false);
		expect(check.errors.join('\n')).toMatch(error);
	});

	it('rejects a request without a Bearer authorization', () => {
		const check = validateRequest({
			method: 'GET',
			path: MODELS,
			headers: { authorization: 'Basic dXNlcjpwYXNz' },
		});

		expect(check).toMatchObject({ ok: false, fields: ['authorization'] });
	});

	it('rejects a body sent without the JSON content type', () => {
		const check = validateRequest({
			method: 'POST',
			path: QUOTES,
			headers: { authorization },
			body: JSON.stringify(validQuote()),
		});

		expect(check.ok).toBe(false);
		expect(check.errors).toEqual([
			'headers/content-type must be application/json when a body is sent (got none)',
		]);
	});
});

// A deadline that a busy machine meets: only a test that fails waits it out.
async function waitFor(condition: () => boolean, timeoutMs = 20_000) {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error('condition not met in time');
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

describe('the API clock (clockOffsetMs)', () => {
	const TEN_MINUTES_MS = 10 * 60_000;
	/** Stamps written within this of the expected moment count: the real clock moves on meanwhile. */
	const TOLERANCE_MS = 5_000;
	const expectAbout = (actualMs: number, expectedMs: number) =>
		expect(Math.abs(actualMs - expectedMs)).toBeLessThan(TOLERANCE_MS);
	let seededModels: typeof sandbox.store.models;

	beforeEach(() => {
		seededModels = structuredClone(sandbox.store.models);
	});
	afterEach(() => {
		sandbox.setOptions({ clockOffsetMs: undefined });
		sandbox.store.models.splice(0, sandbox.store.models.length, ...seededModels);
	});

	it.each([
		['behind', -TEN_MINUTES_MS],
		['ahead of', TEN_MINUTES_MS],
	])(
		"with the API's clock 10 minutes %s the machine's: stamps edits, creations and the Date header by it",
		async (_direction, offset) => {
			sandbox.setOptions({ clockOffsetMs: offset });
			const [model, sibling] = sandbox.store.models;

			const updated = sandbox.updateModel(model.id, { name: `${model.name} (edited)` });
			const created = sandbox.createModel({ ...sibling, name: 'Aardvark Lift 100' });
			const quote = await api('POST', QUOTES, {
				body: { amount: 1, clientId: fixtures.clientId, contractId: fixtures.contractId },
			});

			expectAbout(sandbox.now().getTime(), Date.now() + offset);
			expect(updated).toBe(model);
			expect(model.name).toMatch(/\(edited\)$/);
			expectAbout(Date.parse(model.updatedAt), Date.now() + offset);
			expectAbout(Date.parse(created.updatedAt), Date.now() + offset);
			expect(created.createdAt).toBe(created.updatedAt);
			expect(created.id).toMatch(UUID);
			expect(sandbox.store.models).toContain(created);
			expectAbout(Date.parse(quote.body.createdAt), Date.now() + offset);
			expectAbout(Date.parse(quote.headers.get('date')!), Date.now() + offset);
		},
	);

	it("matches updatedAfter against the API's clock: 'the last minute' by a clock 10 minutes ahead misses an edit", async () => {
		sandbox.setOptions({ clockOffsetMs: -TEN_MINUTES_MS });
		const edited = sandbox.updateModel(sandbox.store.models[3].id);
		const updatedAfter = (moment: number) =>
			api('GET', `${MODELS}?limit=2000&updatedAfter=${new Date(moment).toISOString()}`);

		const byTheApiClock = await updatedAfter(sandbox.now().getTime() - 60_000);
		const byTheMachineClock = await updatedAfter(Date.now() - 60_000);

		expect(byTheApiClock.body.content.map((model: { id: string }) => model.id)).toEqual([
			edited.id,
		]);
		expect(byTheMachineClock.body.total).toBe(0);
	});

	it('refuses an offset that is not a number of milliseconds, and an unknown model', () => {
		expect(() => sandbox.setOptions({ clockOffsetMs: Number.NaN })).toThrow(
			'clockOffsetMs must be a finite number of milliseconds',
		);
		expect(() => sandbox.updateModel(MISSING_ID)).toThrow(`No model has the id ${MISSING_ID}`);
	});
});
