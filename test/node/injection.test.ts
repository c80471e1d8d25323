/**
 * Injection: IDs stay inside their own path segment, query values inside their own parameter, and
 * nothing a user types reaches a header, not even through the credential. (Base URLs of every form:
 * credential.test.ts.)
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode } from '../harness/engine';
import { useRecordingServer } from '../harness/recordingServer';
import { TOKEN, useSandbox } from '../harness/sandbox';

const PRODUCT_ID = '3f6c2a5e-8b1d-4c7a-9e2f-1a2b3c4d5e6f';
const INJECTED_HEADER = 'x-injected';
const HEADER_INJECTION = `a\r\n${INJECTED_HEADER}: 1`;

/**
 * IDs that would escape their path segment, start a query or fragment, or break the request line if
 * sent raw.
 */
const HOSTILE_IDS = [
	'a/b',
	'../admin',
	'../../master-data/v1/inventory-management/inventories',
	'..%2F..%2Fadmin',
	'?limit=1000',
	'x?page=2&limit=1',
	'#fragment',
	'%',
	'%2F',
	'%252F',
	HEADER_INJECTION,
	'line\nbreak',
	'Ünïcødé-🙂-漢字',
	' padded ',
	'a;b=c',
	'a b+c',
	'back\\slash',
	'...',
	'.hidden',
];

interface PathOperation {
	name: string;
	parameters: INodeParameters;
	/** The operation's path with {id} where the hostile ID goes; the other segments are fixed. */
	template: string;
	/** Query parameters the operation itself sends. */
	query: string[];
}

const pathOperations: PathOperation[] = [
	{
		name: 'Inventory > Delete',
		parameters: { resource: 'inventory', operation: 'delete', inventoryId: '={{ $json.id }}' },
		template: '/master-data/v1/inventory-management/inventories/{id}',
		query: [],
	},
	{
		name: 'Product > Get Custom Price List',
		parameters: {
			resource: 'product',
			operation: 'getCustomPriceList',
			customPriceId: '={{ $json.id }}',
			limit: 1,
		},
		template: '/master-data/v1/product-management/products/price-lists/custom/{id}',
		query: ['page', 'limit'],
	},
	{
		name: 'Product > Update Price Item',
		parameters: {
			resource: 'product',
			operation: 'updatePriceItem',
			productId: PRODUCT_ID,
			priceId: '={{ $json.id }}',
			from: 1,
			price: 1,
		},
		template: `/master-data/v1/product-management/products/${PRODUCT_ID}/price-list/{id}`,
		query: [],
	},
];

describe('Injection', () => {
	const suite = useSandbox();

	describe.each(pathOperations.map((operation) => [operation.name, operation] as const))(
		'%s',
		(_name, operation) => {
			it('keeps every hostile ID inside its own path segment, with no query of its own', async () => {
				const { errorItems } = await suite.run(operation.parameters, {
					items: HOSTILE_IDS.map((id) => ({ id })),
					onError: 'continueErrorOutput',
				});

				const templateSegments = operation.template.split('/');
				const idIndex = templateSegments.indexOf('{id}');
				const requests = suite.sandbox.requests;
				expect(requests).toHaveLength(HOSTILE_IDS.length);
				for (const request of requests) {
					const segments = request.path.split('/');
					expect(segments).toHaveLength(templateSegments.length);
					expect(segments.filter((_segment, index) => index !== idIndex)).toEqual(
						templateSegments.filter((_segment, index) => index !== idIndex),
					);
					expect(Object.keys(request.query).sort()).toEqual([...operation.query].sort());
					expect(request.headers[INJECTED_HEADER]).toBeUndefined();
				}
				const sentIds = requests.map((request) =>
					decodeURIComponent(request.path.split('/')[idIndex]),
				);
				expect(sentIds.sort()).toEqual(HOSTILE_IDS.map((id) => id.trim()).sort());
				// The sandbox answers 404 for IDs it does not know: each item failed on its own, as the
				// API's answer.
				expect(errorItems.every((item) => String(item.json.error).startsWith('Not found'))).toBe(
					true,
				);
			});
		},
	);

	it('rejects the dot segments "." and "..", which URL normalisation would remove, before sending anything', async () => {
		const { errorItems } = await suite.run(pathOperations[0].parameters, {
			items: [{ id: '.' }, { id: '..' }, { id: ' .. ' }],
			onError: 'continueErrorOutput',
		});

		expect(suite.sandbox.requests).toHaveLength(0);
		expect(errorItems.map((item) => item.json.error)).toEqual([
			`'Inventory ID' must be a non-empty identifier (text, not "." or "..") [item 0]. Received the text ".".`,
			`'Inventory ID' must be a non-empty identifier (text, not "." or "..") [item 1]. Received the text "..".`,
			`'Inventory ID' must be a non-empty identifier (text, not "." or "..") [item 2]. Received the text " .. ".`,
		]);
	});

	it('keeps query values inside their own parameter: & = # and line breaks in a filter add no parameter', async () => {
		const names = ['a&limit=1000', 'x=y', '#top', HEADER_INJECTION, 'Ünïcødé 🙂 +%20'];
		await suite.run(
			{
				resource: 'equipmentModel',
				operation: 'getAll',
				limit: 1,
				filters: { name: '={{ $json.name }}', search: '={{ $json.name }}' },
			},
			{ items: names.map((name) => ({ name })) },
		);

		expect(suite.sandbox.requests).toHaveLength(names.length);
		for (const request of suite.sandbox.requests) {
			expect(Object.keys(request.query).sort()).toEqual(['limit', 'name', 'page', 'search']);
			expect(request.query.limit).toBe('1');
			expect(request.query.search).toBe(request.query.name);
			expect(request.headers[INJECTED_HEADER]).toBeUndefined();
		}
		expect(suite.sandbox.requests.map((request) => request.query.name).sort()).toEqual(
			[...names].sort(),
		);
	});

	it('sends line breaks in body fields as JSON text, not as headers', async () => {
		const { items } = await suite.run({
			resource: 'release',
			operation: 'update',
			releaseId: suite.fixtures.releaseId,
			updateFields: { reason: HEADER_INJECTION, externalId: HEADER_INJECTION },
		});

		expect(items).toHaveLength(1);
		expect(suite.sandbox.requests[0].body).toEqual({
			reason: HEADER_INJECTION,
			externalId: HEADER_INJECTION.trim(),
		});
		expect(suite.sandbox.requests[0].headers[INJECTED_HEADER]).toBeUndefined();
	});

	describe('through the credential', () => {
		const recorder = useRecordingServer();

		const getModels = { resource: 'equipmentModel', operation: 'getAll', limit: 1 };

		it('sends no request when the access token holds a line break, and does not show the token', async () => {
			const accessToken = `${TOKEN}\r\n${INJECTED_HEADER}: 1`;
			const { error } = await runNode({
				parameters: getModels,
				credentials: { baseUrl: recorder.url, accessToken },
			});

			expect(recorder.seen).toHaveLength(0);
			expect(error?.message).toContain('Invalid character in header content ["Authorization"]');
			expect(
				JSON.stringify({ ...error, message: error?.message, description: error?.description }),
			).not.toContain(TOKEN);
		});

		it('adds no header when the base URL holds a line break: URL parsing drops it', async () => {
			await runNode({
				parameters: getModels,
				credentials: {
					baseUrl: `${recorder.url}/api\r\n${INJECTED_HEADER}: 1`,
					accessToken: TOKEN,
				},
			});

			expect(recorder.seen).toHaveLength(1);
			expect(recorder.seen[0].headers[INJECTED_HEADER]).toBeUndefined();
			expect(recorder.seen[0].url).toBe(
				`/api${INJECTED_HEADER}:%201/master-data/v1/equipment-management/models?page=1&limit=1`,
			);
		});

		it('keeps a hostile ID inside its segment under a base URL with a path prefix', async () => {
			await runNode({
				parameters: {
					resource: 'inventory',
					operation: 'delete',
					inventoryId: '../../admin?x=1#y',
				},
				credentials: { baseUrl: `${recorder.url}/api/`, accessToken: TOKEN },
			});

			expect(recorder.seen.map((request) => request.url)).toEqual([
				'/api/master-data/v1/inventory-management/inventories/..%2F..%2Fadmin%3Fx%3D1%23y',
			]);
		});
	});
});
