/* eslint-disable
	@n8n/community-nodes/no-hardcoded-secrets,
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
import * as fs from 'node:fs';
import * as path from 'node:path';

import {
	document,
	validateAdminRequest,
	validateRequest,
	validateResponse,
} from '../../sandbox/contract';
import { startSandbox } from '../../sandbox/server';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
interface Answer {
	status: number;
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the sandbox's JSON, read field by field
	body: any;
}
interface Model {
	id: string;
	name: string;
	brandId: string;
	category: string;
	updatedAt: string;
	createdAt: string;
}

const TOKEN = 'api-token-7d1e';
const ADMIN_TOKEN = 'admin-token-c42a';
const MODELS = '/master-data/v1/equipment-management/models';
const INTEGRATION_API_OPERATIONS = [
	'addPriceItem',
	'attachProduct',
	'createBooking',
	'createClient',
	'createContactPerson',
	'createContract',
	'createEquipment',
	'createProduct',
	'createQuote',
	'deleteBooking',
	'deleteClient',
	'deleteContactPerson',
	'deleteContract',
	'deleteEquipment',
	'deleteInventory',
	'deletePriceItem',
	'deleteProduct',
	'detachProduct',
	'editProductPriceItem',
	'getBooking',
	'getBookingByExternalId',
	'getClient',
	'getClientByExternalId',
	'getContactPerson',
	'getContactPersonByExternalId',
	'getContract',
	'getContractByExternalId',
	'getEquipment',
	'getEquipmentByExternalId',
	'getEquipmentDistance',
	'getEquipmentUsage',
	'getEquipmentWorkingHours',
	'getProduct',
	'getProductByExternalId',
	'listClients',
	'listContactPersons',
	'listContracts',
	'listCustomPriceListEntries',
	'listEquipment',
	'listEquipmentModels',
	'listProducts',
	'replaceEquipment',
	'updateBooking',
	'updateClient',
	'updateContactPerson',
	'updateContract',
	'updateProduct',
	'updateRelease',
];
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ token: TOKEN, adminToken: ADMIN_TOKEN, models: 50, seed: 3 });
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(() => {
	sandbox.setOptions({ latencyMs: 0, maxPageSize: undefined, faults: null });
	sandbox.resetStats();
});

async function call(
	url: string,
	method: string,
	path: string,
	{ body, token }: { body?: unknown; token: string },
): Promise<Answer> {
	const headers: Record<string, string> = { authorization: `Bearer ${token}` };
	if (body !== undefined) headers['content-type'] = 'application/json';
	const response = await fetch(url + path, {
		method,
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

const admin = (method: string, path: string, body?: unknown) =>
	call(sandbox.url, method, path, { body, token: ADMIN_TOKEN });
const api = (path: string) => call(sandbox.url, 'GET', path, { token: TOKEN });

async function modelsUpdatedAfter(moment: string): Promise<Model[]> {
	const answer = await api(`${MODELS}?limit=1000&updatedAfter=${encodeURIComponent(moment)}`);
	expect(answer.status).toBe(200);
	return answer.body.content;
}

function expectDocumented(operationId: string, answer: Answer) {
	expect(
		validateResponse({ operationId, status: answer.status, body: answer.body }).errors,
	).toEqual([]);
}

describe('access', () => {
	it('answers the admin paths only to the admin token, and the API only to the access token', async () => {
		const model = sandbox.store.models[0];
		const withApiToken = await call(sandbox.url, 'POST', `/_sandbox/models/${model.id}/touch`, {
			token: TOKEN,
		});
		const apiWithAdminToken = await call(sandbox.url, 'GET', MODELS, { token: ADMIN_TOKEN });

		expect(withApiToken).toEqual({
			status: 401,
			body: {
				statusCode: 401,
				error: 'Unauthorized',
				message: 'Invalid or missing sandbox admin token',
			},
		});
		expect(apiWithAdminToken.status).toBe(401);
		expect(apiWithAdminToken.body.message).toBe('Invalid or missing access token');
	});

	it('has no admin paths when started without an admin token', async () => {
		const closed = await startSandbox({ token: TOKEN, models: 5 });
		try {
			const answer = await call(closed.url, 'POST', '/_sandbox/models', {
				token: TOKEN,
				body: { name: 'Anything' },
			});
			expect(answer.status).toBe(404);
			expect(answer.body.message).toMatch(/no operation has the path \/_sandbox\/models/);
		} finally {
			await closed.close();
		}
	});

	it('refuses an admin token equal to the access token', async () => {
		await expect(startSandbox({ token: TOKEN, adminToken: TOKEN })).rejects.toThrow(
			'adminToken must differ from the access token (token)',
		);
	});

	it('keeps admin requests out of the request log', async () => {
		await admin('POST', '/_sandbox/models', { name: 'Log check 1' });
		await api(`${MODELS}?limit=1`);

		expect(sandbox.requests.map((request) => request.path)).toEqual([MODELS]);
	});
});

describe('models', () => {
	it('touch moves updatedAt to now, so that the model is listed as changed after its previous updatedAt', async () => {
		const model = sandbox.store.models[3];
		const previous = model.updatedAt;
		const before = Date.now();

		const answer = await admin('POST', `/_sandbox/models/${model.id}/touch`);

		expect(answer.status).toBe(200);
		expectDocumented('touchEquipmentModel', answer);
		expect(Date.parse(answer.body.updatedAt)).toBeGreaterThanOrEqual(before);
		expect(Date.parse(answer.body.updatedAt)).toBeLessThanOrEqual(Date.now());
		expect(answer.body).toEqual({ ...model, updatedAt: answer.body.updatedAt });
		expect((await modelsUpdatedAfter(previous)).map((listed) => listed.id)).toContain(model.id);
		expect(await modelsUpdatedAfter(answer.body.updatedAt)).toEqual([]);
	});

	it('touch twice in the same millisecond still moves updatedAt on', async () => {
		const model = sandbox.store.models[4];
		const [first, second] = await Promise.all([
			admin('POST', `/_sandbox/models/${model.id}/touch`),
			admin('POST', `/_sandbox/models/${model.id}/touch`),
		]);

		expect(Date.parse(first.body.updatedAt)).not.toBe(Date.parse(second.body.updatedAt));
		expect(model.updatedAt).toBe(
			[first.body.updatedAt, second.body.updatedAt].sort().at(-1) as string,
		);
	});

	it('touch with a name renames the model, refusing a name another model has', async () => {
		const [model, other] = sandbox.store.models.slice(5, 7);

		const renamed = await admin('POST', `/_sandbox/models/${model.id}/touch`, {
			name: 'Renamed by admin',
		});
		const taken = await admin('POST', `/_sandbox/models/${model.id}/touch`, { name: other.name });

		expect(renamed.body.name).toBe('Renamed by admin');
		expect((await api(`${MODELS}?name=Renamed%20by%20admin`)).body.content).toEqual([renamed.body]);
		expect(taken.status).toBe(409);
		expect(taken.body).toMatchObject({
			message: `An equipment model is already named "${other.name}"`,
			field: 'name',
		});
		expectDocumented('touchEquipmentModel', taken);
	});

	it('touch of an unknown model answers 404 naming the id', async () => {
		const answer = await admin('POST', `/_sandbox/models/${MISSING_ID}/touch`);

		expect(answer.status).toBe(404);
		expect(answer.body).toMatchObject({
			message: `No equipment model has the id ${MISSING_ID}`,
			field: 'id',
		});
	});

	it('insert adds a model that the list shows, as changed now', async () => {
		const total = (await api(`${MODELS}?limit=1`)).body.total;
		const before = new Date(Date.now() - 1).toISOString();
		const brand = sandbox.store.brands[2];

		const answer = await admin('POST', '/_sandbox/models', {
			name: 'Inserted excavator 9',
			brandId: brand.id.toUpperCase(),
			category: 'Excavator',
		});

		expect(answer.status).toBe(201);
		expectDocumented('insertEquipmentModel', answer);
		expect(answer.body).toMatchObject({
			name: 'Inserted excavator 9',
			brandId: brand.id,
			brand: { id: brand.id, name: brand.name },
			category: 'Excavator',
			createdAt: answer.body.updatedAt,
		});
		expect((await api(`${MODELS}?limit=1`)).body.total).toBe(total + 1);
		expect((await modelsUpdatedAfter(before)).map((model) => model.id)).toContain(answer.body.id);
	});

	it.each([
		['without a name', {}, 400, { message: 'body/name is required', field: 'name' }],
		[
			'with an unknown field',
			{ name: 'X', colour: 'red' },
			400,
			{ message: 'body/colour is unknown', field: 'colour' },
		],
		[
			'with an unknown brand',
			{ name: 'Y', brandId: MISSING_ID },
			404,
			{ message: `No brand has the id ${MISSING_ID}`, field: 'brandId' },
		],
	])('insert %s is refused by field', async (_case, body, status, error) => {
		const answer = await admin('POST', '/_sandbox/models', body);

		expect(answer.status).toBe(status);
		expect(answer.body).toMatchObject(error);
	});

	it('insert refuses a name another model has', async () => {
		const answer = await admin('POST', '/_sandbox/models', {
			name: sandbox.store.models[0].name,
		});

		expect(answer.status).toBe(409);
		expect(answer.body.field).toBe('name');
	});
});

describe('clients, contracts and products', () => {
	const LISTS = {
		clients: '/master-data/v1/client-management/clients',
		contracts: '/master-data/v1/contract-management/contracts',
		products: '/master-data/v1/product-management/products',
	};
	const records = {
		clients: () => sandbox.store.clients[2],
		contracts: () => sandbox.store.contracts[3],
		products: () => [...sandbox.store.products.values()][4],
	};

	async function listedUpdatedAfter(kind: keyof typeof LISTS, moment: string) {
		const answer = await api(
			`${LISTS[kind]}?limit=1000&updatedAfter=${encodeURIComponent(moment)}`,
		);
		expect(answer.status).toBe(200);
		return answer.body.content.map((record: { id: string }) => record.id);
	}

	it.each([
		['clients', 'touchClient', 'name'],
		['contracts', 'touchContract', 'title'],
		['products', 'touchProduct', 'title'],
	] as const)(
		'touch of %s (%s) moves updatedAt to now and sets the %s given, so that the list shows the record as changed',
		async (kind, operationId, field) => {
			const record = records[kind]();
			const previous = record.updatedAt;
			const before = Date.now();

			const plain = await admin('POST', `/_sandbox/${kind}/${record.id}/touch`);
			const renamed = await admin('POST', `/_sandbox/${kind}/${record.id}/touch`, {
				[field]: `Touched ${kind}`,
			});

			expect(plain.status).toBe(200);
			expectDocumented(operationId, plain);
			expectDocumented(operationId, renamed);
			expect(plain.body.id).toBe(record.id);
			expect(Date.parse(plain.body.updatedAt)).toBeGreaterThanOrEqual(before);
			expect(renamed.body.updatedAt > plain.body.updatedAt).toBe(true);
			expect(renamed.body[field]).toBe(`Touched ${kind}`);
			expect(await listedUpdatedAfter(kind, previous)).toContain(record.id);
			expect(await listedUpdatedAfter(kind, renamed.body.updatedAt)).not.toContain(record.id);
		},
	);

	it.each(['clients', 'contracts', 'products'])(
		'touch of a record of %s that does not exist answers 404 naming id, and an unknown field 400',
		async (kind) => {
			const missing = await admin('POST', `/_sandbox/${kind}/${MISSING_ID}/touch`);
			const unknownField = await admin('POST', `/_sandbox/${kind}/${MISSING_ID}/touch`, {
				colour: 'red',
			});

			expect(missing.status).toBe(404);
			expect(missing.body).toMatchObject({
				field: 'id',
				message: expect.stringContaining(MISSING_ID),
			});
			expect(unknownField).toMatchObject({ status: 400, body: { field: 'colour' } });
		},
	);
});

describe("docs/development.md's admin examples", () => {
	/** The curl lines of docs/development.md's sh blocks that call /_sandbox paths. */
	function readmeAdminCurls() {
		const readme = fs.readFileSync(
			path.join(__dirname, '..', '..', 'docs', 'development.md'),
			'utf8',
		);
		return [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
			.flatMap((match) => match[1].split('\n'))
			.filter((line) => line.startsWith('curl ') && line.includes('/_sandbox/'));
	}

	it('each calls an admin operation of the document, with its placeholders filled, and is answered 2xx', async () => {
		const placeholders: Record<string, string> = {
			'<model id>': sandbox.store.models[8].id,
			'<client id>': sandbox.store.clients[5].id,
			'<contract id>': sandbox.store.contracts[6].id,
			'<product id>': [...sandbox.store.products.values()][7].id,
		};
		const curls = readmeAdminCurls();
		const touched = new Set<string>();

		for (const line of curls) {
			const filled = line.replace(/<[a-z ]+ id>/g, (placeholder) => placeholders[placeholder]);
			const method = /-X (\w+)/.exec(filled)![1];
			const url = /http:\/\/localhost:4010(\S+)/.exec(filled)![1];
			const body = /-d '([^']*)'/.exec(filled)?.[1];
			const check = validateAdminRequest({
				method,
				path: url,
				headers: {
					authorization: `Bearer ${ADMIN_TOKEN}`,
					...(body === undefined ? {} : { 'content-type': 'application/json' }),
				},
				body,
			});
			expect({ line, errors: check.errors }).toEqual({ line, errors: [] });
			touched.add(check.operationId!);
			const answer = await admin(method, url, body === undefined ? undefined : JSON.parse(body));
			expect({ line, status: answer.status }).toEqual({ line, status: expect.any(Number) });
			expect(answer.status).toBeLessThan(300);
		}
		expect([...touched].sort()).toEqual([
			'insertEquipmentModel',
			'setSandboxOptions',
			'touchClient',
			'touchContract',
			'touchEquipmentModel',
			'touchProduct',
		]);
	});
});

describe('options', () => {
	it('changes runtime options as setOptions does, and null restores the default', async () => {
		const set = await admin('PUT', '/_sandbox/options', { maxPageSize: 7 });
		const capped = await api(`${MODELS}?limit=20`);
		const reset = await admin('PUT', '/_sandbox/options', { maxPageSize: null });
		const uncapped = await api(`${MODELS}?limit=20`);

		expect(set).toEqual({ status: 200, body: { success: true } });
		expectDocumented('setSandboxOptions', set);
		expect(capped.body.content).toHaveLength(7);
		expect(reset.status).toBe(200);
		expect(uncapped.body.content).toHaveLength(20);
	});

	it.each([
		[
			'an option fixed at start',
			{ models: 10 },
			'models cannot be changed after the sandbox started',
			'models',
		],
		['a value setOptions refuses', { maxPageSize: 2.5 }, 'maxPageSize must be', 'maxPageSize'],
		['a negative latency', { latencyMs: -1 }, 'body/latencyMs must be >= 0', 'latencyMs'],
	])('refuses %s, naming it', async (_case, body, message, field) => {
		const answer = await admin('PUT', '/_sandbox/options', body);

		expect(answer.status).toBe(400);
		expect(answer.body.message).toContain(message);
		expect(answer.body.field).toBe(field);
	});

	it('refuses an empty change', async () => {
		const answer = await admin('PUT', '/_sandbox/options', {});

		expect(answer.status).toBe(400);
		expect(answer.body.message).toMatch(/body must NOT have fewer than 1 properties/);
	});
});

describe('the document', () => {
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the OpenAPI document, read field by field
	const adminPaths = Object.entries(document.paths as Record<string, Record<string, any>>).filter(
		([template]) => template.startsWith('/_sandbox/'),
	);

	it('marks every admin path as sandbox administration, with its own token', () => {
		expect(adminPaths.map(([template]) => template).sort()).toEqual([
			'/_sandbox/clients/{id}/touch',
			'/_sandbox/contracts/{id}/touch',
			'/_sandbox/models',
			'/_sandbox/models/{id}/touch',
			'/_sandbox/options',
			'/_sandbox/products/{id}/touch',
		]);
		for (const [, pathItem] of adminPaths) {
			for (const operation of Object.values(pathItem)) {
				expect(operation).toMatchObject({
					'x-sandbox-admin': true,
					tags: ['Sandbox administration'],
					security: [{ sandboxAdminAuth: [] }],
				});
			}
		}
		expect(document.tags[0].description).toMatch(/^Not part of the Integration API\./);
	});

	it('never counts an admin path as an Integration API operation', () => {
		// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the OpenAPI document, read field by field
		const operationIds = Object.values(document.paths as Record<string, Record<string, any>>)
			.flatMap((pathItem) => Object.values(pathItem))
			.filter((operation) => !operation['x-sandbox-admin'])
			.map((operation) => operation.operationId);
		expect(operationIds.sort()).toEqual(INTEGRATION_API_OPERATIONS);

		const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
		for (const [path, method] of [
			['/_sandbox/models', 'POST'],
			[`/_sandbox/models/${MISSING_ID}/touch`, 'POST'],
			['/_sandbox/options', 'PUT'],
		]) {
			const body = JSON.stringify({ name: 'x' });
			expect(validateRequest({ method, path, headers, body })).toMatchObject({
				ok: false,
				operationId: undefined,
			});
			expect(validateAdminRequest({ method, path, headers, body }).operationId).toBeDefined();
		}
		expect(validateAdminRequest({ method: 'GET', path: MODELS, headers }).operationId).toBe(
			undefined,
		);
	});
});
