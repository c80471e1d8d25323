import { validateRequest, validateResponse } from '../../sandbox/contract';
import { startSandbox } from '../../sandbox/server';
import { type SandboxAnswer as Answer, sandboxClient } from '../harness/sandbox';

/**
 * The vendor's reference's writes of master data in the sandbox: create, update and delete of
 * clients and their contact persons, contracts, bookings, products and equipment. Each answer is
 * checked against the document; the rules the pages leave open are the document's x-assumed ones
 * (null clears, 409 for a taken external ID, 404 naming the field, PUT replaces, deletes answer
 * { success: true }).
 */

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Fixtures = Sandbox['store']['fixtures'];
interface Identified {
	id: string;
}

const TOKEN = 'test-token';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const OTHER_UUID = '123e4567-e89b-42d3-a456-426614174000';
const CLIENTS = '/master-data/v1/client-management/clients';
const CONTRACTS = '/master-data/v1/contract-management/contracts';
const PRODUCTS = '/master-data/v1/product-management/products';
const BOOKINGS = '/master-data/v1/booking-management/bookings';
const EQUIPMENT = '/master-data/v1/equipment-management/equipments';
const RELEASES = '/master-data/v1/booking-management/releases';
const contactPersonsPath = (clientId: string) => `${CLIENTS}/${clientId}/contact-persons`;
const ids = (items: Identified[]) => items.map((item) => item.id);

let sandbox: Sandbox;
let fixtures: Fixtures;

beforeAll(async () => {
	sandbox = await startSandbox({
		token: TOKEN,
		today: '2025-06-01',
		seed: 5,
		models: 40,
		equipment: 30,
		days: 2,
	});
	fixtures = sandbox.store.fixtures;
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	sandbox.setOptions({ strict: false, faults: null, clockOffsetMs: 0 });
	sandbox.resetStats();
});

// The refused requests of these tests are meant to break the contract; every accepted one follows it.
afterEach(() => {
	for (const request of sandbox.requests.filter((logged) => (logged.status ?? 0) < 300)) {
		expect(validateRequest(request).errors).toEqual([]);
	}
});

const api = sandboxClient(() => sandbox.url, TOKEN);

/** The answer's body, after checking its status and that it follows the document. */
async function expectAnswer(
	operationId: string,
	status: number,
	method: string,
	path: string,
	body?: unknown,
) {
	const answer = await api(method, path, { body });
	expect({ status: answer.status, body: answer.body }).toMatchObject({ status });
	expect(validateResponse({ operationId, status, body: answer.body }).errors).toEqual([]);
	return answer.body;
}

const get = (operationId: string, path: string) => expectAnswer(operationId, 200, 'GET', path);

function expectError(answer: Answer, status: number, field: string, message?: string | RegExp) {
	expect(answer).toMatchObject({ status, body: { statusCode: status, field } });
	if (message !== undefined) expect(answer.body.message).toMatch(message);
}

const deleted = { success: true };
let sequence = 0;
/** An external ID no record has yet. */
const newExternalId = (prefix: string) => `${prefix}-${Date.now()}-${++sequence}`;

async function newClient(fields: Record<string, unknown> = {}) {
	return expectAnswer('createClient', 201, 'POST', CLIENTS, {
		name: 'Test client',
		externalId: newExternalId('CL'),
		...fields,
	});
}

/** A contract in progress whatever today's date (its status follows its dates). */
const contractBody = (fields: Record<string, unknown> = {}) => ({
	clientId: fixtures.clientId,
	startDate: '2025-05-01T00:00:00Z',
	endDate: '2099-09-30T00:00:00Z',
	structureId: OTHER_UUID,
	...fields,
});

async function newContract(fields: Record<string, unknown> = {}) {
	return expectAnswer('createContract', 201, 'POST', CONTRACTS, contractBody(fields));
}

const bookingBody = (fields: Record<string, unknown> = {}) => ({
	startDate: '2025-07-01T08:00:00Z',
	endDate: '2025-07-10T17:00:00Z',
	entityId: fixtures.equipmentId,
	productId: fixtures.equipmentProductId,
	contractId: fixtures.contractId,
	...fields,
});

async function newBooking(fields: Record<string, unknown> = {}) {
	return expectAnswer('createBooking', 201, 'POST', BOOKINGS, bookingBody(fields));
}

const productBody = (fields: Record<string, unknown> = {}) => ({
	title: 'Cable drum trailer',
	type: 'RESOURCE',
	unitType: 'DAY',
	priceList: [
		{ from: 1, price: 40 },
		{ from: 7, price: 32.5 },
	],
	...fields,
});

async function newProduct(fields: Record<string, unknown> = {}) {
	return expectAnswer('createProduct', 201, 'POST', PRODUCTS, productBody(fields));
}

async function newEquipment(fields: Record<string, unknown> = {}) {
	return expectAnswer('createEquipment', 201, 'POST', EQUIPMENT, {
		title: 'Plate compactor',
		externalId: newExternalId('EQ'),
		...fields,
	});
}

/** Whether the list read with updatedAfter `moment` holds the record. */
/**
 * Deletes the record of `collection` through `operationId`, expecting { success: true }; then
 * neither its get nor its get by external ID finds it (404 naming `id`, and `externalIdField`).
 */
async function expectDeleted(
	operationId: string,
	collection: string,
	{ id, externalId }: { id: string; externalId: string },
	externalIdField = 'externalId',
) {
	expect(await expectAnswer(operationId, 200, 'DELETE', `${collection}/${id}`)).toEqual(deleted);
	expectError(await api('GET', `${collection}/${id}`), 404, 'id');
	expectError(await api('GET', `${collection}/external-id/${externalId}`), 404, externalIdField);
}

async function listedAsUpdatedAfter(list: string, operationId: string, moment: string, id: string) {
	const page = await get(
		operationId,
		`${list}?updatedAfter=${encodeURIComponent(moment)}&limit=1000`,
	);
	return ids(page.content).includes(id);
}

describe('clients', () => {
	it('creates a client (201) with its contact persons; get, get by external ID and the list show it', async () => {
		const before = Date.now();
		const client = await newClient({
			name: 'Riverbank Civil Works',
			partnerType: 'INDUSTRY',
			status: 'ACTIVE',
			creditLimit: 50000,
			frameContract: true,
			contactPersons: [
				{ name: 'Mia Wagner', isMain: true, email: 'mia@example.com', externalId: 'CP-1' },
				{ name: 'Ben Koch', isMain: false },
			],
		});

		expect(client).toMatchObject({
			name: 'Riverbank Civil Works',
			partnerType: 'INDUSTRY',
			creditLimit: 50000,
			frameContract: true,
			createdAt: client.updatedAt,
		});
		expect(Date.parse(client.createdAt)).toBeGreaterThanOrEqual(before);
		expect(Date.parse(client.createdAt)).toBeLessThanOrEqual(Date.now());
		expect(client.contactPersons).toEqual([
			expect.objectContaining({ name: 'Mia Wagner', isMain: true, clientId: client.id }),
			expect.objectContaining({ name: 'Ben Koch', isMain: false, clientId: client.id }),
		]);
		expect(await get('getClient', `${CLIENTS}/${client.id}`)).toEqual(client);
		expect(
			await get('getClientByExternalId', `${CLIENTS}/external-id/${client.externalId}`),
		).toEqual(client);
		const listed = await get('listClients', `${CLIENTS}?search=riverbank`);
		expect(listed.content).toEqual([client]);
		expect(await get('listContactPersons', contactPersonsPath(client.id))).toEqual(
			client.contactPersons,
		);
	});

	it('requires no field, and numbers a client after the highest number unless one is sent (a number or its digits)', async () => {
		const highest = Math.max(...sandbox.store.clients.map((client) => client.number));
		const unnamed = await expectAnswer('createClient', 201, 'POST', CLIENTS, {});
		const numbered = await newClient({ number: '70001' });

		expect(unnamed.number).toBe(highest + 1);
		expect(unnamed.name).toBeUndefined();
		expect(numbered.number).toBe(70001);
		expectError(await api('POST', CLIENTS, { body: { number: 'A-1' } }), 400, 'number');
	});

	it("refuses with 409 a client with another client's external ID, or an update that would take one", async () => {
		const taken = sandbox.store.clients[0].externalId;
		const client = await newClient();

		expectError(
			await api('POST', CLIENTS, { body: { name: 'Twin', externalId: taken } }),
			409,
			'externalId',
			new RegExp(`external ID ${taken} is already taken by client ${sandbox.store.clients[0].id}`),
		);
		expectError(
			await api('PATCH', `${CLIENTS}/${client.id}`, { body: { externalId: taken } }),
			409,
			'externalId',
			taken,
		);
		// Its own external ID is no conflict.
		await expectAnswer('updateClient', 200, 'PATCH', `${CLIENTS}/${client.id}`, {
			externalId: client.externalId,
		});
		expect(sandbox.store.clients.filter((other) => other.externalId === taken)).toHaveLength(1);
	});

	it('changes only the fields a PATCH sends, clears those sent as null, and moves updatedAt on (updatedAfter sees it)', async () => {
		const client = await newClient({ city: 'Bremen', website: 'https://riverbank.example' });
		const updated = await expectAnswer('updateClient', 200, 'PATCH', `${CLIENTS}/${client.id}`, {
			city: 'Kiel',
			website: null,
		});

		expect(updated).toEqual({
			...client,
			city: 'Kiel',
			website: undefined,
			updatedAt: updated.updatedAt,
		});
		expect(updated).not.toHaveProperty('website');
		expect(updated.updatedAt > client.updatedAt).toBe(true);
		expect(await get('getClient', `${CLIENTS}/${client.id}`)).toEqual(updated);
		expect(await listedAsUpdatedAfter(CLIENTS, 'listClients', client.updatedAt, client.id)).toBe(
			true,
		);
		expect(await listedAsUpdatedAfter(CLIENTS, 'listClients', updated.updatedAt, client.id)).toBe(
			false,
		);
	});

	it('moves updatedAt on by at least a millisecond for two writes in the same millisecond', async () => {
		const client = await newClient();
		const [first, second] = await Promise.all([
			api('PATCH', `${CLIENTS}/${client.id}`, { body: { city: 'Ulm' } }),
			api('PATCH', `${CLIENTS}/${client.id}`, { body: { city: 'Ulm' } }),
		]);

		expect(first.body.updatedAt).not.toBe(second.body.updatedAt);
	});

	it('stamps createdAt and updatedAt by the API clock (clockOffsetMs)', async () => {
		const tenMinutesMs = 10 * 60_000;
		sandbox.setOptions({ clockOffsetMs: tenMinutesMs });
		const client = await newClient();
		const afterCreate = Date.now();

		expect(Date.parse(client.createdAt)).toBeGreaterThan(afterCreate + tenMinutesMs - 5_000);
		expect(Date.parse(client.createdAt)).toBeLessThanOrEqual(afterCreate + tenMinutesMs);
	});

	it('answers 404 naming id for a PATCH or DELETE of an unknown client', async () => {
		const message = `No client has the id ${MISSING_ID}`;
		expectError(
			await api('PATCH', `${CLIENTS}/${MISSING_ID}`, { body: { city: 'X' } }),
			404,
			'id',
			message,
		);
		expectError(await api('DELETE', `${CLIENTS}/${MISSING_ID}`), 404, 'id', message);
	});

	it('deletes a client: gone from its list, its get and its get by external ID', async () => {
		const client = await newClient({ name: 'Short-lived client' });

		await expectDeleted('deleteClient', CLIENTS, client);
		expect((await get('listClients', `${CLIENTS}?search=short-lived`)).total).toBe(0);
		expectError(await api('GET', contactPersonsPath(client.id)), 404, 'clientId');
		expectError(await api('DELETE', `${CLIENTS}/${client.id}`), 404, 'id');
	});

	it('refuses with 409 to delete a client that contracts still name', async () => {
		const answer = await api('DELETE', `${CLIENTS}/${fixtures.clientId}`);

		expectError(answer, 409, 'id', /still named by \d+ contracts/);
		expect(validateResponse({ operationId: 'deleteClient', ...answer }).errors).toEqual([]);
		expect(sandbox.store.clients.map((client) => client.id)).toContain(fixtures.clientId);
	});

	it.each([
		[
			'a field create-client does not list (customPriceId)',
			{ customPriceId: 'x' },
			'customPriceId',
		],
		[
			'creditLimit as an object (the page types it so)',
			{ creditLimit: { amount: 1 } },
			'creditLimit',
		],
		['a contact person without isMain', { contactPersons: [{ name: 'A' }] }, 'contactPersons'],
		[
			'a contact person field the page does not list',
			{ contactPersons: [{ name: 'A', isMain: true, fax: '1' }] },
			'contactPersons',
		],
	])('refuses %s with 400 naming the field, in strict mode too', async (_case, body, field) => {
		expectError(await api('POST', CLIENTS, { body }), 400, field);
		sandbox.setOptions({ strict: true });
		expectError(await api('POST', CLIENTS, { body }), 400, field);
	});

	it('refuses a client whose contact persons share an external ID (409 naming contactPersons)', async () => {
		const answer = await api('POST', CLIENTS, {
			body: {
				name: 'Twins',
				contactPersons: [
					{ name: 'A', isMain: true, externalId: 'CP-X' },
					{ name: 'B', isMain: false, externalId: 'CP-X' },
				],
			},
		});

		expectError(answer, 409, 'contactPersons', 'CP-X');
	});

	it('refuses a PATCH of contact persons: they change through their own paths', async () => {
		const answer = await api('PATCH', `${CLIENTS}/${fixtures.clientId}`, {
			body: { contactPersons: [] },
		});

		expectError(answer, 400, 'contactPersons', 'body/contactPersons is unknown');
	});
});

describe('contact persons', () => {
	const personPath = (clientId: string, id: string) => `${contactPersonsPath(clientId)}/${id}`;

	it('lists a seeded client’s contact persons as an array, as the client embeds them, and gets one by ID and by external ID', async () => {
		const client = await get('getClient', `${CLIENTS}/${fixtures.clientId}`);
		const listed = await get('listContactPersons', contactPersonsPath(fixtures.clientId));
		const person = await get(
			'getContactPerson',
			personPath(fixtures.clientId, fixtures.contactPersonId),
		);
		const byExternalId = await get(
			'getContactPersonByExternalId',
			`${contactPersonsPath(fixtures.clientId)}/external-id/${fixtures.contactPersonExternalId}`,
		);

		expect(Array.isArray(listed)).toBe(true);
		expect(listed).toEqual(client.contactPersons);
		expect(person).toMatchObject({
			id: fixtures.contactPersonId,
			clientId: fixtures.clientId,
			externalId: fixtures.contactPersonExternalId,
			isMain: true,
		});
		expect(byExternalId).toEqual(person);
	});

	it('creates a contact person (201) that the client then embeds, moving its updatedAt on', async () => {
		const client = await newClient();
		const person = await expectAnswer(
			'createContactPerson',
			201,
			'POST',
			contactPersonsPath(client.id),
			{ name: 'John Smith', jobTitle: 'Project Manager', isMain: true, externalId: 'CP-JS' },
		);
		const after = await get('getClient', `${CLIENTS}/${client.id}`);

		expect(person).toMatchObject({ name: 'John Smith', clientId: client.id, isMain: true });
		expect(person.createdAt).toBe(person.updatedAt);
		expect(after.contactPersons).toEqual([person]);
		expect(after.updatedAt > client.updatedAt).toBe(true);
	});

	it('updates only the fields sent, clears those sent as null, and deletes a contact person', async () => {
		const client = await newClient({
			contactPersons: [{ name: 'Ada', isMain: true, jobTitle: 'Foreman', phone: '+49 1' }],
		});
		const [person] = client.contactPersons;
		const path = personPath(client.id, person.id);

		const updated = await expectAnswer('updateContactPerson', 200, 'PATCH', path, {
			phone: '+49 2',
			jobTitle: null,
		});
		expect(updated).toEqual({
			...person,
			phone: '+49 2',
			jobTitle: undefined,
			updatedAt: updated.updatedAt,
		});
		expect(updated).not.toHaveProperty('jobTitle');
		expectError(await api('PATCH', path, { body: { name: null } }), 400, 'name');

		expect(await expectAnswer('deleteContactPerson', 200, 'DELETE', path)).toEqual(deleted);
		expect(await get('listContactPersons', contactPersonsPath(client.id))).toEqual([]);
		expect((await get('getClient', `${CLIENTS}/${client.id}`)).contactPersons).toEqual([]);
		expectError(await api('GET', path), 404, 'id');
	});

	it('answers 404 naming clientId for an unknown client, and id for an unknown contact person', async () => {
		const body = { name: 'X', isMain: false };
		expectError(
			await api('POST', contactPersonsPath(MISSING_ID), { body }),
			404,
			'clientId',
			`No client has the id ${MISSING_ID}`,
		);
		expectError(await api('GET', contactPersonsPath(MISSING_ID)), 404, 'clientId');
		expectError(
			await api('PATCH', personPath(fixtures.clientId, MISSING_ID), { body }),
			404,
			'id',
			`No contact person of client ${fixtures.clientId} has the id ${MISSING_ID}`,
		);
		expectError(await api('DELETE', personPath(fixtures.clientId, MISSING_ID)), 404, 'id');
		expectError(
			await api('GET', `${contactPersonsPath(fixtures.clientId)}/external-id/NO-SUCH`),
			404,
			'externalId',
		);
		expectError(await api('GET', contactPersonsPath('not-a-uuid')), 400, 'clientId');
	});

	it('keeps external IDs unique within a client (409), not across clients', async () => {
		const taken = fixtures.contactPersonExternalId;
		const other = await newClient();

		expectError(
			await api('POST', contactPersonsPath(fixtures.clientId), {
				body: { name: 'Twin', isMain: false, externalId: taken },
			}),
			409,
			'externalId',
			taken,
		);
		await expectAnswer('createContactPerson', 201, 'POST', contactPersonsPath(other.id), {
			name: 'Namesake',
			isMain: true,
			externalId: taken,
		});
	});

	it('answers only the endpoint line’s path: the curl example’s /contactPersons is no operation', async () => {
		const answer = await api('POST', `${CLIENTS}/${fixtures.clientId}/contactPersons`, {
			body: { name: 'X', isMain: true },
		});

		expect(answer.status).toBe(404);
		expect(answer.body.message).toMatch(/no operation has the path/);
	});

	it('refuses a field the page does not list (clientId in the body), in strict mode too', async () => {
		const body = { name: 'X', isMain: true, clientId: fixtures.clientId };
		const path = contactPersonsPath(fixtures.clientId);
		expectError(await api('POST', path, { body }), 400, 'clientId', 'body/clientId is unknown');
		sandbox.setOptions({ strict: true });
		expectError(await api('POST', path, { body }), 400, 'clientId');
	});

	it('takes /clients/external-id/… as the get by external ID, not as a client ID', async () => {
		expectError(await api('GET', `${CLIENTS}/external-id/contact-persons`), 404, 'externalId');
	});
});

describe('contracts', () => {
	it('creates a contract (201) with a number, a status by its dates and contractPosition stored as the model’s contactPosition', async () => {
		const externalId = newExternalId('CT');
		const contract = await newContract({
			title: 'Harbour crane foundations',
			externalId,
			contractPosition: 'Site manager',
			pickUpAddress: 'Depot North',
			point: { lng: 8.8, lat: 53.1 },
		});

		expect(contract).toMatchObject({
			clientId: fixtures.clientId,
			title: 'Harbour crane foundations',
			contactPosition: 'Site manager',
			status: 'IN_PROGRESS',
			isInactive: false,
			number: expect.stringMatching(/^CT-\d{4}-\d{4}$/),
			point: { lng: 8.8, lat: 53.1 },
			bookings: [],
			createdAt: contract.updatedAt,
		});
		expect(contract).not.toHaveProperty('contractPosition');
		expect(await get('getContract', `${CONTRACTS}/${contract.id}`)).toEqual(contract);
		expect(await get('getContractByExternalId', `${CONTRACTS}/external-id/${externalId}`)).toEqual(
			contract,
		);
		const listed = await get('listContracts', `${CONTRACTS}?clientId=${fixtures.clientId}`);
		expect(ids(listed.content)).toContain(contract.id);
		const planned = await newContract({
			startDate: '2099-01-01T00:00:00Z',
			endDate: '2099-12-31T00:00:00Z',
		});
		expect(planned.status).toBe('PLANNED');
	});

	it.each([
		['without structureId', { structureId: undefined }, 400, 'structureId'],
		['with the example’s typo pickUpAddres', { pickUpAddres: 'Depot' }, 400, 'pickUpAddres'],
		['ending before it starts', { endDate: '2025-04-01T00:00:00Z' }, 400, 'endDate'],
		['of an unknown client', { clientId: MISSING_ID }, 404, 'clientId'],
		[
			'with contractPosition and contactPosition that differ',
			{ contractPosition: 'A', contactPosition: 'B' },
			400,
			'contractPosition',
		],
	])('refuses a contract %s, naming the field', async (_case, fields, status, field) => {
		expectError(await api('POST', CONTRACTS, { body: contractBody(fields) }), status, field);
	});

	it('takes the model’s contactPosition leniently; a strict sandbox refuses it (the page’s body says contractPosition)', async () => {
		const lenient = await newContract({ contactPosition: 'Foreman' });
		sandbox.setOptions({ strict: true });
		const strict = await api('POST', CONTRACTS, {
			body: contractBody({ contactPosition: 'Foreman' }),
		});

		expect(lenient.contactPosition).toBe('Foreman');
		expectError(strict, 400, 'contactPosition', 'property contactPosition should not exist');
		expect(
			(await api('POST', CONTRACTS, { body: contractBody({ contractPosition: 'Foreman' }) }))
				.status,
		).toBe(201);
	});

	it('changes only the fields a PATCH sends, clears those sent as null, sets the status by new dates, and refuses a taken external ID', async () => {
		const contract = await newContract({
			title: 'Before',
			city: 'Kiel',
			externalId: newExternalId('CT'),
		});
		const path = `${CONTRACTS}/${contract.id}`;
		const updated = await expectAnswer('updateContract', 200, 'PATCH', path, {
			title: 'After',
			city: null,
			endDate: '2025-05-15T00:00:00Z',
		});

		expect(updated).toEqual({
			...contract,
			title: 'After',
			city: undefined,
			endDate: '2025-05-15T00:00:00Z',
			status: 'COMPLETED',
			isInactive: true,
			updatedAt: updated.updatedAt,
		});
		expect(updated).not.toHaveProperty('city');
		expect(
			await listedAsUpdatedAfter(CONTRACTS, 'listContracts', contract.updatedAt, contract.id),
		).toBe(true);
		expectError(
			await api('PATCH', path, { body: { externalId: fixtures.contractExternalId } }),
			409,
			'externalId',
			fixtures.contractExternalId,
		);
		expectError(await api('PATCH', path, { body: { clientId: null } }), 400, 'clientId');
		expectError(
			await api('PATCH', path, { body: { startDate: '2025-06-01T00:00:00Z' } }),
			400,
			'endDate',
		);
		expectError(
			await api('PATCH', `${CONTRACTS}/${MISSING_ID}`, { body: { title: 'X' } }),
			404,
			'id',
			`No contract has the id ${MISSING_ID}`,
		);
	});

	it('refuses with 409 a contract whose external ID another contract has', async () => {
		expectError(
			await api('POST', CONTRACTS, {
				body: contractBody({ externalId: fixtures.contractExternalId }),
			}),
			409,
			'externalId',
			`external ID ${fixtures.contractExternalId} is already taken by contract ${fixtures.contractId}`,
		);
	});

	it('deletes a contract without bookings; refuses (409) one that bookings name', async () => {
		const contract = await newContract({ externalId: newExternalId('CT') });

		await expectDeleted('deleteContract', CONTRACTS, contract);
		const listed = await get(
			'listContracts',
			`${CONTRACTS}?clientId=${fixtures.clientId}&limit=100`,
		);
		expect(ids(listed.content)).not.toContain(contract.id);
		expectError(
			await api('DELETE', `${CONTRACTS}/${contract.id}`),
			404,
			'id',
			`No contract has the id ${contract.id}`,
		);
		expectError(
			await api('DELETE', `${CONTRACTS}/${fixtures.contractId}`),
			409,
			'id',
			/still named by \d+ bookings/,
		);
	});
});

describe('bookings', () => {
	it('creates a booking (201): RESERVED and NOT_BILLED, quantity 1, what it books from the product and the entity, its contract embedded', async () => {
		const externalId = newExternalId('BKG');
		const booking = await newBooking({
			externalId,
			normalPrice: 100,
			periodType: 'CALENDAR_DAYS',
			attachedProducts: [
				{
					productId: fixtures.serviceProductId,
					periodType: 'CALENDAR_DAYS',
					quantity: 2,
					price: 50,
				},
			],
		});

		expect(booking).toMatchObject({
			contractId: fixtures.contractId,
			productId: fixtures.equipmentProductId,
			entityId: fixtures.equipmentId,
			productType: 'EQUIPMENT',
			unitType: 'DAY',
			status: 'RESERVED',
			billingStatus: 'NOT_BILLED',
			quantity: 1,
			normalPrice: 100,
			attachedProducts: [{ productId: fixtures.serviceProductId, quantity: 2, price: 50 }],
			contract: { id: fixtures.contractId },
			releases: [],
			createdAt: booking.updatedAt,
		});
		expect(booking).not.toHaveProperty('clientId');
		expect(await get('getBooking', `${BOOKINGS}/${booking.id}`)).toEqual(booking);
		expect(await get('getBookingByExternalId', `${BOOKINGS}/external-id/${externalId}`)).toEqual(
			booking,
		);
		expect(
			(await get('getContract', `${CONTRACTS}/${fixtures.contractId}`)).bookings,
		).toContainEqual({
			id: booking.id,
			externalId,
		});
	});

	it('books a person of a PERSON product by any UUID (the sandbox models no staff), with a fractional quantity', async () => {
		const booking = await newBooking({
			productId: fixtures.personProductId,
			entityId: OTHER_UUID,
			quantity: 5.5,
		});

		expect(booking).toMatchObject({ productType: 'PERSON', entityId: OTHER_UUID, quantity: 5.5 });
	});

	it.each([
		['of an unknown contract', () => ({ contractId: MISSING_ID }), 404, 'contractId'],
		['of an unknown product', () => ({ productId: MISSING_ID }), 404, 'productId'],
		['of an unknown piece of equipment', () => ({ entityId: MISSING_ID }), 404, 'entityId'],
		['of a SERVICE product', () => ({ productId: fixtures.serviceProductId }), 422, 'productId'],
		[
			'with an attached product that is no service',
			() => ({ attachedProducts: [{ productId: fixtures.equipmentProductId }] }),
			422,
			'attachedProducts',
		],
		[
			'with an unknown attached product',
			() => ({ attachedProducts: [{ productId: MISSING_ID }] }),
			404,
			'attachedProducts',
		],
		['with the example’s status typo RESERVRD', () => ({ status: 'RESERVRD' }), 400, 'status'],
		['without a contract', () => ({ contractId: undefined }), 400, 'contractId'],
		['ending before it starts', () => ({ endDate: '2025-06-30T00:00:00Z' }), 400, 'endDate'],
		[
			'with the externalId of another booking',
			() => ({ externalId: fixtures.bookingExternalId }),
			409,
			'externalId',
		],
	])('refuses a booking %s, naming the field', async (_case, fields, status, field) => {
		expectError(await api('POST', BOOKINGS, { body: bookingBody(fields()) }), status, field);
	});

	it('changes only the fields update-booking lists and a PATCH sends; null clears; productId is not among them', async () => {
		const booking = await newBooking({ deliveryAddress: 'Site 4' });
		const path = `${BOOKINGS}/${booking.id}`;
		const updated = await expectAnswer('updateBooking', 200, 'PATCH', path, {
			status: 'IN_PROGRESS',
			billingStatus: 'PARTIALLY_BILLED',
			additionalInformation: 'Updated booking information',
			deliveryAddress: null,
		});

		expect(updated).toEqual({
			...booking,
			status: 'IN_PROGRESS',
			billingStatus: 'PARTIALLY_BILLED',
			additionalInformation: 'Updated booking information',
			deliveryAddress: undefined,
			updatedAt: updated.updatedAt,
		});
		expect(updated).not.toHaveProperty('deliveryAddress');
		expect(updated.updatedAt > booking.updatedAt).toBe(true);
		expectError(
			await api('PATCH', path, { body: { productId: fixtures.personProductId } }),
			400,
			'productId',
		);
		expectError(await api('PATCH', path, { body: { status: null } }), 400, 'status');
		expectError(await api('PATCH', path, { body: { entityId: MISSING_ID } }), 404, 'entityId');
		expectError(
			await api('PATCH', `${BOOKINGS}/${MISSING_ID}`, { body: { quantity: 2 } }),
			404,
			'id',
			`No booking has the id ${MISSING_ID}`,
		);
	});

	it('deletes a booking with its releases: gone from its get, its get by external ID and its contract', async () => {
		const releaseIds = [...sandbox.store.releases.values()]
			.filter((release) => release.bookingId === fixtures.bookingId)
			.map((release) => release.id);

		await expectDeleted('deleteBooking', BOOKINGS, {
			id: fixtures.bookingId,
			externalId: fixtures.bookingExternalId,
		});
		expect(
			ids((await get('getContract', `${CONTRACTS}/${fixtures.contractId}`)).bookings),
		).not.toContain(fixtures.bookingId);
		expect(releaseIds.length).toBeGreaterThan(0);
		for (const id of releaseIds) {
			expectError(await api('PATCH', `${RELEASES}/${id}`, { body: { reason: 'x' } }), 404, 'id');
		}
		expectError(await api('DELETE', `${BOOKINGS}/${fixtures.bookingId}`), 404, 'id');
	});
});

describe('products', () => {
	it('creates a product (201) with its price list, numbered unless a number is sent; get, get by external ID and the list show it', async () => {
		const externalId = newExternalId('PR');
		const product = await newProduct({ externalId });

		expect(product).toMatchObject({
			title: 'Cable drum trailer',
			type: 'RESOURCE',
			unitType: 'DAY',
			number: expect.stringMatching(/^RS-\d+$/),
			priceList: [
				{ id: expect.any(String), from: 1, price: 40 },
				{ id: expect.any(String), from: 7, price: 32.5 },
			],
			customPriceList: [],
			attachments: [],
			attachedTo: [],
			createdAt: product.updatedAt,
		});
		expect(await get('getProduct', `${PRODUCTS}/${product.id}`)).toEqual(product);
		expect(await get('getProductByExternalId', `${PRODUCTS}/external-id/${externalId}`)).toEqual(
			product,
		);
		expect((await get('listProducts', `${PRODUCTS}?search=cable%20drum`)).content).toEqual([
			product,
		]);
		const service = await newProduct({
			title: 'Cable check',
			type: 'SERVICE',
			unitType: 'DAYS',
			number: 'SV-77',
			priceList: [],
		});
		expect(service).toMatchObject({
			number: 'SV-77',
			type: 'SERVICE',
			unitType: 'DAYS',
			priceList: [],
		});
	});

	it.each([
		['without priceList', { priceList: undefined }, 'priceList'],
		['without unitType', { unitType: undefined }, 'unitType'],
		['of a type the reference does not have', { type: 'EQUIPMENT' }, 'type'],
		['with a price item from below 1', { priceList: [{ from: 0, price: 1 }] }, 'priceList'],
		['with a field the page does not list', { attachments: [] }, 'attachments'],
	])('refuses a product %s (400 naming the field)', async (_case, fields, field) => {
		expectError(await api('POST', PRODUCTS, { body: productBody(fields) }), 400, field);
	});

	it('changes only the fields a PATCH sends, replaces the price list, clears null, and refuses type (update-product has none)', async () => {
		const product = await newProduct({ additionalInformation: 'Two axles' });
		const path = `${PRODUCTS}/${product.id}`;
		const updated = await expectAnswer('updateProduct', 200, 'PATCH', path, {
			title: 'Cable drum trailer XL',
			priceList: [{ from: 1, price: 45 }],
			additionalInformation: null,
		});

		expect(updated).toEqual({
			...product,
			title: 'Cable drum trailer XL',
			priceList: [{ id: expect.any(String), from: 1, price: 45 }],
			additionalInformation: undefined,
			updatedAt: updated.updatedAt,
		});
		expect(ids(updated.priceList)).not.toContain(product.priceList[0].id);
		expect(
			await listedAsUpdatedAfter(PRODUCTS, 'listProducts', product.updatedAt, product.id),
		).toBe(true);
		expectError(await api('PATCH', path, { body: { type: 'SERVICE' } }), 400, 'type');
		expectError(
			await api('PATCH', path, { body: { externalId: fixtures.productExternalId } }),
			409,
			'externalId',
			fixtures.productExternalId,
		);
		expectError(
			await api('PATCH', `${PRODUCTS}/${MISSING_ID}`, { body: { title: 'X' } }),
			404,
			'id',
			`No product has the id ${MISSING_ID}`,
		);
	});

	it('deletes a product with its attachments; refuses (409) one that bookings, equipment or custom price lists name', async () => {
		const service = await newProduct({
			title: 'Short-lived service',
			type: 'SERVICE',
			externalId: newExternalId('PR'),
		});
		const main = await newProduct({ title: 'Short-lived main' });
		expect(
			(await api('POST', `${PRODUCTS}/${main.id}/attach`, { body: { productId: service.id } }))
				.status,
		).toBe(200);

		await expectDeleted('deleteProduct', PRODUCTS, service, 'id');
		expect((await get('getProduct', `${PRODUCTS}/${main.id}`)).attachments).toEqual([]);
		expect(
			(await get('listProducts', `${PRODUCTS}?search=short-lived`)).content.map(
				(p: { title: string }) => p.title,
			),
		).toEqual(['Short-lived main']);
		expectError(
			await api('DELETE', `${PRODUCTS}/${fixtures.equipmentProductId}`),
			409,
			'id',
			/still named by/,
		);
	});
});

describe('equipment', () => {
	it('creates a piece of equipment (201): what is sent, null for the unset invNumber, beaconId, modelId and brandId', async () => {
		const unit = await newEquipment({
			productId: fixtures.equipmentProductId.toUpperCase(),
			modelId: fixtures.modelId,
			year: 2021,
			serial_number: 'SN-1',
			specifications: { bucket: '600 mm' },
			active: true,
		});

		expect(unit).toMatchObject({
			title: 'Plate compactor',
			productId: fixtures.equipmentProductId,
			modelId: fixtures.modelId,
			brandId: null,
			invNumber: null,
			beaconId: null,
			year: 2021,
			specifications: { bucket: '600 mm' },
			inventory: [],
			createdAt: unit.updatedAt,
		});
		expect(await get('getEquipment', `${EQUIPMENT}/${unit.id}`)).toEqual(unit);
		expect(
			await get('getEquipmentByExternalId', `${EQUIPMENT}/external-id/${unit.externalId}`),
		).toEqual(unit);
		expect(
			ids(
				(
					await get(
						'listEquipment',
						`${EQUIPMENT}?productId=${fixtures.equipmentProductId}&limit=1000`,
					)
				).content,
			),
		).toContain(unit.id);
	});

	it('replaces a piece of equipment with PUT: a field not sent is gone, id and createdAt stay', async () => {
		const unit = await newEquipment({
			warehouseId: 'W-1',
			year: 2019,
			invNumber: 'INV-9',
			active: true,
		});
		const replaced = await expectAnswer('replaceEquipment', 200, 'PUT', `${EQUIPMENT}/${unit.id}`, {
			title: 'Plate compactor 90 kg',
			externalId: unit.externalId,
		});

		expect(replaced).toEqual({
			id: unit.id,
			title: 'Plate compactor 90 kg',
			externalId: unit.externalId,
			invNumber: null,
			beaconId: null,
			modelId: null,
			brandId: null,
			inventory: [],
			createdAt: unit.createdAt,
			updatedAt: replaced.updatedAt,
		});
		expect(replaced.updatedAt > unit.updatedAt).toBe(true);
		expect(await get('getEquipment', `${EQUIPMENT}/${unit.id}`)).toEqual(replaced);
	});

	it.each([
		['PUT of an unknown piece', 'PUT', MISSING_ID, { title: 'X' }, 404, 'id'],
		['an unknown model', 'POST', '', { title: 'X', modelId: MISSING_ID }, 404, 'modelId'],
		['an unknown product', 'POST', '', { title: 'X', productId: 'PRODUCT-7' }, 404, 'productId'],
		['no title', 'POST', '', { invNumber: 'INV-1' }, 400, 'title'],
		[
			'a field the server sets (inventory)',
			'POST',
			'',
			{ title: 'X', inventory: [] },
			400,
			'inventory',
		],
		[
			'the external ID of another piece',
			'POST',
			'',
			{ title: 'X', externalId: 'ERP-EQ-10001' },
			409,
			'externalId',
		],
	])('refuses %s, naming the field', async (_case, method, id, body, status, field) => {
		expectError(await api(method, id ? `${EQUIPMENT}/${id}` : EQUIPMENT, { body }), status, field);
	});

	it('refuses a field the page does not list in strict mode as in lenient', async () => {
		sandbox.setOptions({ strict: true });
		expectError(
			await api('POST', EQUIPMENT, { body: { title: 'X', colour: 'yellow' } }),
			400,
			'colour',
			'body/colour is unknown',
		);
	});

	it('deletes a piece of equipment; refuses (409) one that bookings book', async () => {
		const unit = await newEquipment();
		const booked = await newEquipment();
		await newBooking({ entityId: booked.id });

		await expectDeleted('deleteEquipment', EQUIPMENT, unit);
		expectError(
			await api('DELETE', `${EQUIPMENT}/${unit.id}`),
			404,
			'id',
			`No equipment has the id ${unit.id}`,
		);
		expectError(
			await api('DELETE', `${EQUIPMENT}/${booked.id}`),
			409,
			'id',
			/still named by 1 bookings/,
		);
	});
});

describe('e-mail addresses', () => {
	// Where each e-mail field is written, with the body's other fields, and the field a 400 names.
	const writes = {
		client: async () => ({ path: CLIENTS, body: { name: 'Mail test' }, field: 'email' }),
		'contact person': async () => ({
			path: contactPersonsPath((await newClient()).id),
			body: { name: 'Mail test', isMain: false },
			field: 'email',
		}),
		"contract's on-site contact": async () => ({
			path: CONTRACTS,
			body: contractBody(),
			field: 'contactEmail',
		}),
	};

	it.each(Object.keys(writes) as Array<keyof typeof writes>)(
		'refuses an address that cannot be one for a %s with 400 naming the field, in strict mode too; takes plus signs, subdomains, capitals and letters of any script',
		async (kind) => {
			const { path, body, field } = await writes[kind]();
			const withAddress = (address: string) => ({ body: { ...body, [field]: address } });
			const refused = 'info(at)mueller-bau.de';

			expectError(await api('POST', path, withAddress(refused)), 400, field, /format "email"/);
			sandbox.setOptions({ strict: true });
			expectError(await api('POST', path, withAddress(refused)), 400, field, /format "email"/);
			for (const address of [
				'a.b+c@sub.example.co.uk',
				'Max.Müller@müller-bau.de',
				'INFO@MUELLER-BAU.DE',
			]) {
				const answer = await api('POST', path, withAddress(address));
				expect({ address, status: answer.status }).toEqual({ address, status: 201 });
				expect(answer.body[field]).toBe(address);
			}
		},
	);

	it("refuses a client's contact person whose address cannot be one, naming contactPersons", async () => {
		const body = {
			name: 'Mail test',
			contactPersons: [{ name: 'A', isMain: true, email: 'info(at)mueller-bau.de' }],
		};

		sandbox.setOptions({ strict: true });
		expectError(await api('POST', CLIENTS, { body }), 400, 'contactPersons', /format "email"/);
	});
});

describe('the lost-answer fault', () => {
	it('carries out a write and then drops the connection without an answer, only for the methods asked for', async () => {
		sandbox.setOptions({
			faults: { rate: 1, kinds: ['lost-answer'], methods: ['POST', 'PATCH', 'PUT', 'DELETE'] },
		});
		const externalId = newExternalId('LOST');

		await expect(
			api('POST', CLIENTS, { body: { name: 'Lost answer', externalId } }),
		).rejects.toThrow('fetch failed');
		expect(sandbox.requests[0]).toMatchObject({ fault: 'lost-answer', status: null });
		// GET is not among the methods: it is answered, and finds what the lost write stored.
		const stored = await get('getClientByExternalId', `${CLIENTS}/external-id/${externalId}`);
		expect(stored.name).toBe('Lost answer');

		await expect(
			api('PATCH', `${CLIENTS}/${stored.id}`, { body: { name: 'Renamed' } }),
		).rejects.toThrow('fetch failed');
		expect((await get('getClient', `${CLIENTS}/${stored.id}`)).name).toBe('Renamed');
		sandbox.setOptions({ faults: null });
		// A retry of the create now meets its own first attempt.
		expectError(
			await api('POST', CLIENTS, { body: { name: 'Lost answer', externalId } }),
			409,
			'externalId',
		);
	});
});
