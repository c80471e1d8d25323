/**
 * The node against the API as its vendor documents it and as real servers answer
 * (https://ram-api.syniotec.com/reference/): bodies that whitelisting servers accept, product types
 * of both sources, errors in every common dialect, and success statuses whose body says the request
 * failed.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runTriggerManually } from '../harness/poll';
import { TOKEN, useSandbox, type SandboxSuite } from '../harness/sandbox';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ERROR_DIALECTS } = require('../../sandbox/error-dialects') as { ERROR_DIALECTS: string[] };

/** Dialects whose answers name the field at fault by key, pointer or property path. */
const NAMING_FIELDS = new Set([
	'message',
	'problem-errors',
	'jsonapi',
	'nested',
	'field-list',
	'violations',
]);

interface Refusal {
	/** The node's parameters that the API refuses. */
	parameters: (suite: SandboxSuite) => INodeParameters;
	/** The API's words for it, as every dialect carries them. */
	says: string;
	/** The form's label of the field at fault. */
	label: string;
}

/** Each write, and a list, with a request the API (not the node) refuses, naming one field. */
const REFUSALS: Record<string, Refusal> = {
	'Quote > Create': {
		parameters: ({ sandbox, fixtures }) => {
			const contracts = sandbox.store.contracts as Array<{ id: string; clientId: string }>;
			return {
				resource: 'quote',
				operation: 'create',
				clientId: fixtures.clientId,
				contractId: contracts.find((contract) => contract.clientId !== fixtures.clientId)?.id,
				amount: 100,
			};
		},
		says: 'is not a contract of client',
		label: 'Contract',
	},
	'Product > Update Price Item': {
		parameters: ({ fixtures }) => ({
			resource: 'product',
			operation: 'updatePriceItem',
			productId: fixtures.equipmentProductId,
			priceId: fixtures.priceId,
			from: 1,
			price: 10,
			calculationType: 'PERCENTAGE',
		}),
		says: 'should not exist',
		label: 'Calculation Type',
	},
	'Product > Attach Service': {
		parameters: ({ fixtures }) => ({
			resource: 'product',
			operation: 'attach',
			productId: fixtures.equipmentProductId,
			serviceProductId: fixtures.personProductId,
		}),
		says: 'Only SERVICE products can be attached',
		label: 'Service Product',
	},
	'Release > Update': {
		parameters: () => ({
			resource: 'release',
			operation: 'update',
			releaseId: 'no-such-release',
			updateFields: { reason: 'Returned early' },
		}),
		says: 'No release has the id no-such-release',
		label: 'Release',
	},
	'Inventory > Delete': {
		parameters: () => ({ resource: 'inventory', operation: 'delete', inventoryId: 'no-such-one' }),
		says: 'No inventory has the id no-such-one',
		label: 'Inventory ID',
	},
	'Product > Get Custom Price List': {
		parameters: ({ fixtures }) => ({
			resource: 'product',
			operation: 'getCustomPriceList',
			customPriceId: fixtures.customPriceId,
			returnAll: true,
			filters: { type: '={{ "MACHINE" }}' },
		}),
		says: 'must be equal to one of the allowed values',
		label: 'Product Type',
	},
};

describe('the real API', () => {
	const suite = useSandbox({ strict: true });
	afterEach(() => suite.sandbox.setOptions({ errorDialect: undefined, faults: null }));

	describe('Update Price Item sends only what the reference lists unless asked', () => {
		it('with the form as it opens, the body is from and price, and a strict server accepts it', async () => {
			const { items, error } = await suite.run({
				resource: 'product',
				operation: 'updatePriceItem',
				productId: suite.fixtures.equipmentProductId,
				priceId: suite.fixtures.priceId,
				price: 45.5,
			});

			expect(error).toBeUndefined();
			const products = suite.sandbox.store.products as Map<
				string,
				{ priceItems: Array<{ from: number }> }
			>;
			const [tier] = products.get(suite.fixtures.equipmentProductId)!.priceItems;
			expect(items.map((item) => item.json)).toEqual([
				{
					success: true,
					productId: suite.fixtures.equipmentProductId,
					priceId: suite.fixtures.priceId,
					from: tier.from,
					price: 45.5,
				},
			]);
			expect(suite.sandbox.requests.map((request) => [request.method, request.body])).toEqual([
				['GET', undefined],
				['PUT', { from: tier.from, price: 45.5 }],
			]);
		});

		it('a chosen calculation type is sent, and a strict server names the field', async () => {
			const { error } = await suite.run(REFUSALS['Product > Update Price Item'].parameters(suite));

			expect(suite.sandbox.requests[0].body).toEqual({
				from: 1,
				price: 10,
				calculationType: 'PERCENTAGE',
			});
			expect(error?.message).toBe('The API rejected the request (HTTP 400) [item 0]');
			expect(error?.description).toContain("The field at fault is 'Calculation Type'.");
		});
	});

	describe('product types of both sources', () => {
		const priceList = (type: string) => ({
			resource: 'product',
			operation: 'getCustomPriceList',
			customPriceId: suite.fixtures.customPriceId,
			returnAll: true,
			filters: { type },
		});

		it("the reference's RESOURCE is offered and sent", async () => {
			const { items, error } = await suite.run(priceList('RESOURCE'));

			expect(error).toBeUndefined();
			expect(suite.sandbox.requests[0].query.type).toBe('RESOURCE');
			expect(items.length).toBeGreaterThan(0);
			const products = suite.sandbox.store.products as Map<string, { type: string }>;
			for (const { json } of items)
				expect(products.get(json.productId as string)?.type).not.toBe('SERVICE');
		});

		it('a value given by expression is sent as it is, and the API decides', async () => {
			const { error } = await suite.run(priceList('={{ "MACHINE" }}'));

			expect(suite.sandbox.requests[0].query.type).toBe('MACHINE');
			// Sending it is this test's point, not a contract breach.
			suite.sandbox.resetStats();
			expect(error?.message).toBe('The API rejected the request (HTTP 400) [item 0]');
			expect(error?.description).toContain("The field at fault is 'Product Type'.");
		});
	});

	describe.each(ERROR_DIALECTS)('errors in the %s dialect', (dialect) => {
		beforeEach(() => suite.sandbox.setOptions({ errorDialect: dialect }));
		// A product type the API refuses is one of the point's requests, not a contract breach.
		afterEach(() => suite.sandbox.resetStats());

		it.each(Object.entries(REFUSALS))(
			'%s: the status, the API words and the field by its label',
			async (_name, refusal) => {
				const { error } = await suite.run(refusal.parameters(suite));

				expect(suite.sandbox.requests).toHaveLength(1);
				expect(error?.message).toMatch(/\(HTTP 4\d\d\)/);
				expect(error?.description).toContain(refusal.says);
				expect(error?.description).not.toMatch(/<\/?[a-z][^>]*>|[{}[\]]/i);
				// The html dialect's page signs off as nginx/1.25.3: a server's name is no error.
				expect(error?.description).not.toMatch(/nginx/i);
				if (NAMING_FIELDS.has(dialect))
					expect(error?.description).toContain(`The field at fault is '${refusal.label}'.`);
			},
		);

		it('the trigger reads it too', async () => {
			const { error } = await runTriggerManually({
				parameters: { event: 'equipmentModelUpdated' },
				credentials: { baseUrl: suite.sandbox.url, accessToken: 'not-the-token' },
			});

			expect(error?.message).toMatch(/^Authorization failed \(HTTP 401\)/);
			expect(error?.description).toContain('Invalid or missing access token');
			expect(error?.description).not.toMatch(/<\/?[a-z][^>]*>/i);
		});
	});

	describe('a success status whose body says the request failed', () => {
		const deleteInventory = () => ({
			resource: 'inventory',
			operation: 'delete',
			inventoryId: suite.fixtures.inventoryId,
		});
		beforeEach(() => suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['soft-failure'] } }));
		afterEach(() => suite.sandbox.resetStats());

		it('stops the item with the API words, never outputs deleted: true', async () => {
			const { items, error } = await suite.run(deleteInventory());

			expect(items).toEqual([]);
			expect(error?.message).toBe('The API answered HTTP 200 but said the request failed [item 0]');
			expect(error?.description).toContain('Injected soft failure: nothing was changed');
		});

		it('is an error item under Continue On Fail', async () => {
			const { items, error } = await suite.run(deleteInventory(), {
				onError: 'continueRegularOutput',
			});

			expect(error).toBeUndefined();
			expect(items).toHaveLength(1);
			expect(items[0].json).not.toHaveProperty('deleted');
			expect(items[0].json.error).toContain(
				'The API answered HTTP 200 but said the request failed',
			);
		});

		it('fails every write and the trigger alike', async () => {
			for (const refusal of Object.values(REFUSALS)) {
				const { error } = await suite.run(refusal.parameters(suite));
				expect(error?.message).toBe(
					'The API answered HTTP 200 but said the request failed [item 0]',
				);
			}
			const { error } = await runTriggerManually({
				parameters: { event: 'equipmentModelUpdated' },
				credentials: { baseUrl: suite.sandbox.url, accessToken: TOKEN },
			});
			expect(error?.message).toBe('The API answered HTTP 200 but said the request failed');
		});
	});
});
