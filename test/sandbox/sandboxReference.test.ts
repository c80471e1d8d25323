import { validateRequest, validateResponse } from '../../sandbox/contract';
import { startSandbox } from '../../sandbox/server';
import { type SandboxAnswer as Answer, sandboxClient } from '../harness/sandbox';

/**
 * The sandbox's reference data: the read operations of the vendor's reference (clients, contracts,
 * products, bookings, equipment, equipment usage and working hours) and its three product writes
 * (add and delete a price item, detach a product), which the node uses to look up IDs.
 */

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Fixtures = Sandbox['store']['fixtures'];
interface Identified {
	id: string;
}

const TOKEN = 'test-token';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const DAY_MS = 24 * 60 * 60 * 1000;
const CLIENTS = '/master-data/v1/client-management/clients';
const CONTRACTS = '/master-data/v1/contract-management/contracts';
const PRODUCTS = '/master-data/v1/product-management/products';
const BOOKINGS = '/master-data/v1/booking-management/bookings';
const EQUIPMENT = '/master-data/v1/equipment-management/equipments';
const usagePath = (date: string) => `/analytics/v1/equipment-usage/${date}`;
const workingHoursPath = (date: string) => `/analytics/v1/equipment-working-hours/${date}`;
const priceListPath = (id: string) => `${PRODUCTS}/${id}/price-list`;
const ids = (items: Identified[]) => items.map((item) => item.id);

let sandbox: Sandbox;
let fixtures: Fixtures;

beforeAll(async () => {
	sandbox = await startSandbox({ token: TOKEN, today: '2025-06-01', seed: 1 });
	fixtures = sandbox.store.fixtures;
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	sandbox.setOptions({ maxPageSize: undefined });
	sandbox.resetStats();
});

// The refused requests of these tests are meant to break the contract; every accepted one follows it.
afterEach(() => {
	for (const request of sandbox.requests.filter((logged) => (logged.status ?? 0) < 300)) {
		expect(validateRequest(request).errors).toEqual([]);
	}
});

const api = sandboxClient(() => sandbox.url, TOKEN);

/** The answer, after checking its status and that its body follows the document. */
async function expectAnswer(
	operationId: string,
	status: number,
	method: string,
	path: string,
	body?: unknown,
) {
	const answer = await api(method, path, { body });
	expect(answer.status).toBe(status);
	expect(validateResponse({ operationId, status, body: answer.body }).errors).toEqual([]);
	return answer.body;
}

const get = (operationId: string, path: string) => expectAnswer(operationId, 200, 'GET', path);

function expectNotFound(answer: Answer, field: string) {
	expect(answer).toMatchObject({ status: 404, body: { statusCode: 404, field } });
}

describe('authentication', () => {
	it.each([
		['clients', CLIENTS],
		['a contract', `${CONTRACTS}/${MISSING_ID}`],
		['products', PRODUCTS],
		['equipment usage', usagePath('2025-05-31')],
	])('refuses a request for %s without the access token with 401', async (_case, path) => {
		expect(await api('GET', path, { token: null })).toMatchObject({
			status: 401,
			body: { statusCode: 401 },
		});
	});
});

describe('clients', () => {
	it('lists 20 clients by name, and page 2 holds the next 20 of more than 45', async () => {
		const first = await get('listClients', CLIENTS);
		const second = await get('listClients', `${CLIENTS}?page=2&limit=20`);
		const both = await get('listClients', `${CLIENTS}?limit=40`);

		expect(first.total).toBe(sandbox.store.clients.length);
		expect(first.total).toBeGreaterThanOrEqual(45);
		expect(first.content).toHaveLength(20);
		expect(second.content).toHaveLength(20);
		expect(second.total).toBe(first.total);
		expect([...ids(first.content), ...ids(second.content)]).toEqual(ids(both.content));
		const names = both.content.map((client: { name: string }) => client.name);
		expect(names).toEqual([...names].sort());
	});

	it('caps the page size silently at maxPageSize', async () => {
		const all = await get('listClients', `${CLIENTS}?limit=100`);
		sandbox.setOptions({ maxPageSize: 10 });
		const capped = await get('listClients', `${CLIENTS}?limit=20&page=2`);

		expect(capped.content).toHaveLength(10);
		expect(capped.total).toBe(all.total);
		expect(ids(capped.content)).toEqual(ids(all.content.slice(10, 20)));
	});

	it('finds Acme Construction by a case-insensitive part of its name, number or external ID', async () => {
		const acme = sandbox.store.clients.find((client) => client.id === fixtures.acmeClientId)!;
		for (const search of ['acme', 'ACME CONSTR', String(acme.number), acme.externalId]) {
			const found = await get('listClients', `${CLIENTS}?search=${encodeURIComponent(search)}`);
			expect(ids(found.content)).toEqual([fixtures.acmeClientId]);
			expect(found.total).toBe(1);
		}
		expect(acme.name).toBe('Acme Construction');
	});

	it('filters by status, partner type and updatedAfter (strictly after), and sorts by any listed field', async () => {
		const { clients } = sandbox.store;
		const pivot = clients[10];
		const inactive = await get('listClients', `${CLIENTS}?status=INACTIVE&limit=100`);
		const industry = await get('listClients', `${CLIENTS}?partnerType=INDUSTRY&limit=100`);
		const updated = await get(
			'listClients',
			`${CLIENTS}?updatedAfter=${pivot.updatedAt}&limit=100`,
		);
		const newestFirst = await get(
			'listClients',
			`${CLIENTS}?sortBy=updatedAt&sortDirection=DESC&limit=100`,
		);

		expect(inactive.total).toBe(clients.filter((client) => client.status === 'INACTIVE').length);
		expect(industry.total).toBe(
			clients.filter((client) => client.partnerType === 'INDUSTRY').length,
		);
		expect(industry.total).toBeGreaterThan(0);
		expect(updated.total).toBe(
			clients.filter((client) => client.updatedAt > pivot.updatedAt).length,
		);
		expect(ids(updated.content)).not.toContain(pivot.id);
		const stamps = newestFirst.content.map((client: { updatedAt: string }) => client.updatedAt);
		expect(stamps).toEqual([...stamps].sort().reverse());
	});

	it('gets a client by ID and by external ID; the fixture client has the fixture custom price list', async () => {
		const client = await get('getClient', `${CLIENTS}/${fixtures.clientId.toUpperCase()}`);
		const byExternalId = await get(
			'getClientByExternalId',
			`${CLIENTS}/external-id/${fixtures.clientExternalId}`,
		);

		expect(client).toMatchObject({
			id: fixtures.clientId,
			externalId: fixtures.clientExternalId,
			customPriceId: fixtures.customPriceId,
		});
		expect(byExternalId).toEqual(client);
	});

	it('gives every client a custom price list of its own, whose entries the API lists', async () => {
		const all = await get('listClients', `${CLIENTS}?limit=100`);
		const customPriceIds: string[] = all.content.map(
			(client: { customPriceId: string }) => client.customPriceId,
		);

		expect(all.content).toHaveLength(all.total);
		expect(new Set(customPriceIds).size).toBe(all.total);
		for (const customPriceId of customPriceIds) {
			const list = await get(
				'listCustomPriceListEntries',
				`${PRODUCTS}/price-lists/custom/${customPriceId}?limit=1`,
			);
			expect(list.total).toBeGreaterThan(0);
		}
	});

	it('answers 404 for an unknown ID or external ID', async () => {
		expectNotFound(await api('GET', `${CLIENTS}/${MISSING_ID}`), 'id');
		expectNotFound(await api('GET', `${CLIENTS}/external-id/NO-SUCH-CLIENT`), 'externalId');
	});

	it('refuses an unknown sort field with 400', async () => {
		expect(await api('GET', `${CLIENTS}?sortBy=creditLimit`)).toMatchObject({
			status: 400,
			body: { field: 'sortBy' },
		});
	});
});

describe('contracts', () => {
	it("lists only the client's contracts for a clientId, Acme's holding the Berlin site", async () => {
		const acme = await get('listContracts', `${CONTRACTS}?clientId=${fixtures.acmeClientId}`);
		const fixtureClient = await get('listContracts', `${CONTRACTS}?clientId=${fixtures.clientId}`);

		for (const page of [acme, fixtureClient]) {
			expect(page.total).toBeGreaterThan(0);
			expect(page.total).toBe(page.content.length);
		}
		expect(
			new Set(acme.content.map((contract: { clientId: string }) => contract.clientId)),
		).toEqual(new Set([fixtures.acmeClientId]));
		expect(
			fixtureClient.content.every(
				(contract: { clientId: string }) => contract.clientId === fixtures.clientId,
			),
		).toBe(true);
		expect(ids(fixtureClient.content)).toContain(fixtures.contractId);
		const berlin = acme.content.find(
			(contract: Identified) => contract.id === fixtures.acmeBerlinContractId,
		);
		expect(berlin.title).toContain('Berlin');
		const unknownClient = await get('listContracts', `${CONTRACTS}?clientId=${MISSING_ID}`);
		expect(unknownClient).toEqual({ content: [], total: 0 });
	});

	it('searches titles case-insensitively, filters by status, and pages with the maxPageSize cap', async () => {
		const berlin = await get('listContracts', `${CONTRACTS}?search=berlin`);
		const inProgress = await get('listContracts', `${CONTRACTS}?status=IN_PROGRESS&limit=200`);
		const all = await get('listContracts', `${CONTRACTS}?limit=200`);
		sandbox.setOptions({ maxPageSize: 5 });
		const capped = await get('listContracts', `${CONTRACTS}?page=3`);

		expect(ids(berlin.content)).toEqual([fixtures.acmeBerlinContractId]);
		expect(inProgress.total).toBe(
			sandbox.store.contracts.filter((contract) => contract.status === 'IN_PROGRESS').length,
		);
		expect(all.total).toBe(sandbox.store.contracts.length);
		expect(ids(capped.content)).toEqual(ids(all.content.slice(10, 15)));
	});

	it('gets a contract by ID and by external ID, with the IDs of its bookings', async () => {
		const contract = await get('getContract', `${CONTRACTS}/${fixtures.contractId}`);
		const byExternalId = await get(
			'getContractByExternalId',
			`${CONTRACTS}/external-id/${fixtures.contractExternalId}`,
		);

		expect(contract).toMatchObject({
			id: fixtures.contractId,
			clientId: fixtures.clientId,
			externalId: fixtures.contractExternalId,
		});
		expect(ids(contract.bookings)).toContain(fixtures.bookingId);
		expect(byExternalId).toEqual(contract);
	});

	it('answers 404 for an unknown ID or external ID', async () => {
		expectNotFound(await api('GET', `${CONTRACTS}/${MISSING_ID}`), 'id');
		expectNotFound(await api('GET', `${CONTRACTS}/external-id/NO-SUCH-CONTRACT`), 'externalId');
	});
});

describe('products', () => {
	it('lists products by title, filtered by the reference types RESOURCE and SERVICE', async () => {
		const all = await get('listProducts', `${PRODUCTS}?limit=100`);
		const services = await get('listProducts', `${PRODUCTS}?type=SERVICE&limit=100`);
		const resources = await get('listProducts', `${PRODUCTS}?type=RESOURCE&limit=100`);

		expect(all.total).toBe(sandbox.store.products.size);
		const titles = all.content.map((product: { title: string }) => product.title);
		expect(titles).toEqual([...titles].sort());
		expect(services.total).toBe(6);
		expect(new Set(services.content.map((product: { type: string }) => product.type))).toEqual(
			new Set(['SERVICE']),
		);
		expect(resources.total).toBe(all.total - 6);
		expect(ids(resources.content)).toContain(fixtures.equipmentProductId);
	});

	it('searches, and caps the page size at maxPageSize', async () => {
		const excavators = await get('listProducts', `${PRODUCTS}?search=EXCAVATOR`);
		sandbox.setOptions({ maxPageSize: 3 });
		const capped = await get('listProducts', `${PRODUCTS}?limit=20`);

		expect(excavators.total).toBe(
			[...sandbox.store.products.values()].filter((product) =>
				product.title.toLowerCase().includes('excavator'),
			).length,
		);
		expect(excavators.total).toBeGreaterThan(1);
		expect(capped.content).toHaveLength(3);
		expect(capped.total).toBe(sandbox.store.products.size);
	});

	it('gets a product by ID and by external ID, with its price items and custom price list entries', async () => {
		const product = await get('getProduct', `${PRODUCTS}/${fixtures.equipmentProductId}`);
		const byExternalId = await get(
			'getProductByExternalId',
			`${PRODUCTS}/external-id/${fixtures.productExternalId}`,
		);

		expect(product).toMatchObject({
			id: fixtures.equipmentProductId,
			externalId: fixtures.productExternalId,
			type: 'RESOURCE',
			unitType: 'DAY',
		});
		expect(ids(product.priceList)).toContain(fixtures.priceId);
		expect(
			product.customPriceList.some(
				(entry: { customPriceId: string }) => entry.customPriceId === fixtures.customPriceId,
			),
		).toBe(true);
		expect(byExternalId).toEqual(product);
	});

	it('answers 404 for an unknown ID or external ID', async () => {
		expectNotFound(await api('GET', `${PRODUCTS}/${MISSING_ID}`), 'id');
		expectNotFound(await api('GET', `${PRODUCTS}/external-id/NO-SUCH-PRODUCT`), 'id');
	});

	it('adds a price item (201) that the product then shows, and deletes it again', async () => {
		const productPath = `${PRODUCTS}/${fixtures.inventoryProductId}`;
		const before = await get('getProduct', productPath);
		await expectAnswer('addPriceItem', 201, 'POST', priceListPath(fixtures.inventoryProductId), {
			from: 200,
			price: 0.5,
		});
		const added = await get('getProduct', productPath);

		const newItems = added.priceList.filter(
			(item: Identified) => !ids(before.priceList).includes(item.id),
		);
		expect(newItems).toEqual([{ id: expect.any(String), from: 200, price: 0.5 }]);
		expect(added.updatedAt > before.updatedAt).toBe(true);

		const itemPath = `${priceListPath(fixtures.inventoryProductId)}/${newItems[0].id}`;
		expect(await expectAnswer('deletePriceItem', 200, 'DELETE', itemPath)).toEqual({
			success: true,
		});
		expect((await get('getProduct', productPath)).priceList).toEqual(before.priceList);
		expectNotFound(await api('DELETE', itemPath), 'priceId');
	});

	it.each([
		[
			'a calculation type, which the reference does not list',
			{ from: 1, price: 1, calculationType: 'FIXED' },
			'calculationType',
		],
		['from below 1', { from: 0, price: 1 }, 'from'],
		['a negative price', { from: 1, price: -1 }, 'price'],
		['no price', { from: 1 }, 'price'],
	])('refuses a price item with %s (400)', async (_case, body, field) => {
		expect(await api('POST', priceListPath(fixtures.equipmentProductId), { body })).toMatchObject({
			status: 400,
			body: { field },
		});
	});

	it('answers 404 for a price item of an unknown product', async () => {
		expectNotFound(
			await api('POST', priceListPath(MISSING_ID), { body: { from: 1, price: 1 } }),
			'id',
		);
		expectNotFound(await api('DELETE', `${priceListPath(MISSING_ID)}/${fixtures.priceId}`), 'id');
	});

	it('moves the product’s updatedAt on with each of its writes, so that updatedAfter sees them', async () => {
		const product = () => sandbox.store.products.get(fixtures.inventoryProductId)!;
		const mainPath = `${PRODUCTS}/${fixtures.inventoryProductId}`;
		const service = { productId: fixtures.serviceProductId };
		const writes: Array<[string, () => Promise<Answer>]> = [
			['attach', () => api('POST', `${mainPath}/attach`, { body: service })],
			['detach', () => api('POST', `${mainPath}/detach`, { body: service })],
			[
				'add price item',
				() =>
					api('POST', priceListPath(fixtures.inventoryProductId), { body: { from: 90, price: 1 } }),
			],
			[
				'edit price item',
				() =>
					api(
						'PUT',
						`${priceListPath(fixtures.inventoryProductId)}/${product().priceItems[0].id}`,
						{ body: { from: 1, price: 5.5 } },
					),
			],
			[
				'delete price item',
				() =>
					api(
						'DELETE',
						`${priceListPath(fixtures.inventoryProductId)}/${product().priceItems.at(-1)!.id}`,
					),
			],
		];

		for (const [write, send] of writes) {
			const previous = product().updatedAt;
			expect({ write, status: (await send()).status }).toEqual({
				write,
				status: expect.any(Number),
			});
			expect({ write, moved: product().updatedAt > previous }).toEqual({ write, moved: true });
			const changed = await get('listProducts', `${PRODUCTS}?updatedAfter=${previous}&limit=100`);
			expect(ids(changed.content)).toContain(fixtures.inventoryProductId);
		}
	});

	it('detaches an attached service product; detaching it again answers 404', async () => {
		const mainPath = `${PRODUCTS}/${fixtures.personProductId}`;
		const body = { productId: fixtures.serviceProductId };
		expect((await api('POST', `${mainPath}/attach`, { body })).status).toBe(200);
		const attached = await get('getProduct', mainPath);
		const service = await get('getProduct', `${PRODUCTS}/${fixtures.serviceProductId}`);

		expect(ids(attached.attachments)).toEqual([fixtures.serviceProductId]);
		expect(attached.attachments[0].type).toBe('SERVICE');
		expect(ids(service.attachedTo)).toContain(fixtures.personProductId);

		expect(await expectAnswer('detachProduct', 200, 'POST', `${mainPath}/detach`, body)).toEqual({
			success: true,
		});
		expect((await get('getProduct', mainPath)).attachments).toEqual([]);
		expect(sandbox.store.attachments.has(fixtures.personProductId)).toBe(false);
		expectNotFound(await api('POST', `${mainPath}/detach`, { body }), 'productId');
		expectNotFound(await api('POST', `${PRODUCTS}/${MISSING_ID}/detach`, { body }), 'id');
	});
});

describe('bookings', () => {
	it('gets a booking with its contract and its releases embedded, by ID and by external ID', async () => {
		const releases = [...sandbox.store.releases.values()].filter(
			(release) => release.bookingId === fixtures.bookingId,
		);
		const booking = await get('getBooking', `${BOOKINGS}/${fixtures.bookingId}`);
		const byExternalId = await get(
			'getBookingByExternalId',
			`${BOOKINGS}/external-id/${fixtures.bookingExternalId}`,
		);

		expect(booking).toMatchObject({
			id: fixtures.bookingId,
			externalId: fixtures.bookingExternalId,
			contract: { id: fixtures.contractId, clientId: fixtures.clientId },
		});
		expect(releases.length).toBeGreaterThan(0);
		expect(ids(booking.releases).sort()).toEqual(ids(releases).sort());
		expect(ids(booking.releases)).toContain(fixtures.releaseId);
		expect(byExternalId).toEqual(booking);
	});

	it('embeds a release as updateRelease left it', async () => {
		const patched = await api(
			'PATCH',
			`/master-data/v1/booking-management/releases/${fixtures.releaseId}`,
			{
				body: { reason: 'Swapped for a smaller machine' },
			},
		);
		const booking = await get('getBooking', `${BOOKINGS}/${fixtures.bookingId}`);

		expect(booking.releases).toContainEqual(patched.body);
	});

	it('answers 404 for an unknown ID or external ID', async () => {
		expectNotFound(await api('GET', `${BOOKINGS}/${MISSING_ID}`), 'id');
		expectNotFound(await api('GET', `${BOOKINGS}/external-id/NO-SUCH-BOOKING`), 'externalId');
	});
});

describe('equipment', () => {
	it('lists the equipment by title in pages, capped at maxPageSize, and searches inventory numbers', async () => {
		const all = await get('listEquipment', `${EQUIPMENT}?limit=1000`);
		const second = await get('listEquipment', `${EQUIPMENT}?page=2`);
		sandbox.setOptions({ maxPageSize: 7 });
		const capped = await get('listEquipment', `${EQUIPMENT}?page=2&limit=50`);
		sandbox.setOptions({ maxPageSize: undefined });
		const searched = await get('listEquipment', `${EQUIPMENT}?search=inv-10001`);

		expect(all.total).toBe(sandbox.store.equipment.length);
		const titles = all.content.map((unit: { title: string }) => unit.title);
		expect(titles).toEqual([...titles].sort());
		expect(ids(second.content)).toEqual(ids(all.content.slice(20, 40)));
		expect(ids(capped.content)).toEqual(ids(all.content.slice(7, 14)));
		expect(searched.content.map((unit: { invNumber: string }) => unit.invNumber)).toEqual([
			'INV-10001',
		]);
	});

	it('filters by product, model and brand', async () => {
		const unit = sandbox.store.equipment.find(
			(candidate) => candidate.id === fixtures.equipmentId,
		)!;
		const byProduct = await get(
			'listEquipment',
			`${EQUIPMENT}?productId=${unit.productId}&limit=1000`,
		);
		const byModel = await get('listEquipment', `${EQUIPMENT}?modelId=${unit.modelId}&limit=1000`);
		const byBrand = await get('listEquipment', `${EQUIPMENT}?brandId=${unit.brandId}&limit=1000`);

		for (const [page, field, value] of [
			[byProduct, 'productId', unit.productId],
			[byModel, 'modelId', unit.modelId],
			[byBrand, 'brandId', unit.brandId],
		] as const) {
			expect(ids(page.content)).toContain(unit.id);
			expect(
				page.content.every((candidate: Record<string, unknown>) => candidate[field] === value),
			).toBe(true);
		}
	});

	it('gets a piece of equipment by ID; an unknown one answers 404', async () => {
		const unit = await get('getEquipment', `${EQUIPMENT}/${fixtures.equipmentId}`);

		expect(unit).toMatchObject({ id: fixtures.equipmentId, inventory: [] });
		expect(unit.warehouseId).toEqual(expect.any(String));
		expectNotFound(await api('GET', `${EQUIPMENT}/${MISSING_ID}`), 'id');
	});
});

describe('equipment usage and working hours', () => {
	const equipmentIds = () => sandbox.store.equipment.map((unit) => unit.id);

	it('reports one usage record per piece of equipment for the usage date, on a project or a warehouse', async () => {
		const usage = await get('getEquipmentUsage', usagePath(fixtures.usageDate));

		expect(usage.map((record: { equipment: Identified }) => record.equipment.id)).toEqual(
			equipmentIds(),
		);
		const siteTypes = new Set(usage.map((record: { site: { type: string } }) => record.site.type));
		expect(siteTypes).toEqual(new Set(['PROJECT', 'WAREHOUSE']));
	});

	it('reports one working-hours record per piece of equipment, within the date', async () => {
		const workingHours = await get(
			'getEquipmentWorkingHours',
			workingHoursPath(fixtures.usageDate),
		);
		const dayStart = Date.parse(`${fixtures.usageDate}T00:00:00Z`);

		expect(workingHours.map((record: { equipmentId: string }) => record.equipmentId)).toEqual(
			equipmentIds(),
		);
		for (const record of workingHours) {
			const start = Date.parse(record.start);
			const end = Date.parse(record.end);
			expect(start).toBeGreaterThanOrEqual(dayStart);
			expect(end).toBeLessThanOrEqual(dayStart + DAY_MS);
			expect(record.duration).toBe(end - start);
			expect(record.equipment.id).toBe(record.equipmentId);
		}
	});

	it('splits a shift that runs past midnight at 00:00 UTC: the next day goes on from 00:00', async () => {
		const dayBefore = new Date(Date.parse(fixtures.usageDate) - DAY_MS).toISOString().slice(0, 10);
		const first = await get('getEquipmentWorkingHours', workingHoursPath(dayBefore));
		const second = await get('getEquipmentWorkingHours', workingHoursPath(fixtures.usageDate));

		const midnight = `${fixtures.usageDate}T00:00:00.000Z`;
		const endingAtMidnight = new Set(
			first
				.filter((record: { end: string }) => record.end === midnight)
				.map((record: { equipmentId: string }) => record.equipmentId),
		);
		const continued = second.filter((record: { start: string }) => record.start === midnight);
		expect(continued.length).toBeGreaterThan(0);
		for (const record of continued) expect(endingAtMidnight.has(record.equipmentId)).toBe(true);
	});

	it('answers an empty array for a date without reports, and 400 for a date that is not one', async () => {
		expect(await get('getEquipmentUsage', usagePath('2025-06-01'))).toEqual([]);
		expect(await get('getEquipmentWorkingHours', workingHoursPath('2020-01-01'))).toEqual([]);
		expect(await api('GET', usagePath('2025-02-30'))).toMatchObject({
			status: 400,
			body: { field: 'date' },
		});
	});

	it('covers the same days and equipment as the distance reports', () => {
		expect([...sandbox.store.workingHours.keys()]).toEqual([...sandbox.store.distances.keys()]);
		expect([...sandbox.store.equipmentUsage.keys()]).toEqual([...sandbox.store.distances.keys()]);
		expect(fixtures.usageDate).toBe(fixtures.distanceDate);
	});
});

describe('seed', () => {
	it('builds the same reference data for the same seed and reference date', async () => {
		const twin = await startSandbox({ today: '2025-06-01', seed: 1, models: 10, days: 2 });
		try {
			expect(twin.store.fixtures).toMatchObject({
				acmeClientId: fixtures.acmeClientId,
				acmeBerlinContractId: fixtures.acmeBerlinContractId,
				clientExternalId: fixtures.clientExternalId,
				contractExternalId: fixtures.contractExternalId,
				productExternalId: fixtures.productExternalId,
				bookingExternalId: fixtures.bookingExternalId,
				usageDate: '2025-05-31',
			});
			expect(twin.store.clients.map((client) => client.externalId)).toEqual(
				sandbox.store.clients.map((client) => client.externalId),
			);
			expect(twin.store.clients.map((client) => client.customPriceId)).toEqual(
				sandbox.store.clients.map((client) => client.customPriceId),
			);
			expect(twin.store.priceLists).toEqual(sandbox.store.priceLists);
		} finally {
			await twin.close();
		}
	});
});
