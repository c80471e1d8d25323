import type { INodeParameters } from 'n8n-workflow';

import { EquipmentRentalApi } from '../../credentials/EquipmentRentalApi.credentials';
import { runNode } from '../harness/engine';
import { useRecordingServer } from '../harness/recordingServer';

const PRODUCT_ID = '3f6c2a5e-8b1d-4c7a-9e2f-1a2b3c4d5e6f';
const OTHER_ID = '9a412c6c-240a-4090-9325-6d69178a9d30';

/** Each operation with the path it requests, relative to the base URL. */
const everyOperation: Array<[string, INodeParameters, string]> = [
	[
		'Equipment Distance > Get',
		{ resource: 'equipmentDistance', operation: 'get', date: '2024-05-31' },
		'/analytics/v1/equipment-distance/2024-05-31',
	],
	[
		'Equipment Model > Get Many',
		{ resource: 'equipmentModel', operation: 'getAll', limit: 1 },
		'/master-data/v1/equipment-management/models?page=1&limit=1',
	],
	[
		'Inventory > Delete',
		{ resource: 'inventory', operation: 'delete', inventoryId: 'inv-1' },
		'/master-data/v1/inventory-management/inventories/inv-1',
	],
	[
		'Product > Attach Service',
		{ resource: 'product', operation: 'attach', productId: PRODUCT_ID, serviceProductId: OTHER_ID },
		`/master-data/v1/product-management/products/${PRODUCT_ID}/attach`,
	],
	[
		'Product > Get Custom Price List',
		{ resource: 'product', operation: 'getCustomPriceList', customPriceId: 'cp-1', limit: 1 },
		'/master-data/v1/product-management/products/price-lists/custom/cp-1?page=1&limit=1',
	],
	[
		'Product > Update Price Item',
		{
			resource: 'product',
			operation: 'updatePriceItem',
			productId: PRODUCT_ID,
			priceId: 'p-1',
			from: 1,
			price: 1,
		},
		`/master-data/v1/product-management/products/${PRODUCT_ID}/price-list/p-1`,
	],
	[
		'Quote > Create',
		{
			resource: 'quote',
			operation: 'create',
			clientId: PRODUCT_ID,
			contractId: OTHER_ID,
			amount: 1,
		},
		'/master-data/v1/quote-management/quotes',
	],
	[
		'Release > Update',
		{
			resource: 'release',
			operation: 'update',
			releaseId: PRODUCT_ID,
			updateFields: { reason: 'r' },
		},
		`/master-data/v1/booking-management/releases/${PRODUCT_ID}`,
	],
];

/** How a base URL may end, and the path prefix it stands for. */
const BASE_URL_ENDINGS = [
	['', ''],
	['/', ''],
	['//', ''],
	['/api', '/api'],
	['/api/', '/api'],
	['/v2/api/', '/v2/api'],
];

describe('Credential', () => {
	const recorder = useRecordingServer();

	it.each(
		everyOperation.flatMap(([name, parameters, path]) =>
			BASE_URL_ENDINGS.map(
				([ending, prefix]) => [name, ending, `${prefix}${path}`, parameters] as const,
			),
		),
	)(
		'%s with a base URL ending in "%s" requests %s, with the bearer token',
		async (_name, ending, expectedUrl, parameters) => {
			await runNode({
				parameters,
				credentials: { baseUrl: `${recorder.url}${ending}`, accessToken: 'token-1' },
			});

			// The recorder's empty page is no distance list, so that GET is retried: the same URL each
			// time.
			expect([...new Set(recorder.seen.map((request) => request.url))]).toEqual([expectedUrl]);
			expect(recorder.seen[0].headers.authorization).toBe('Bearer token-1');
		},
	);

	it('tests the credential with one cheap authenticated list request', async () => {
		const credential = new EquipmentRentalApi();
		expect(credential.test.request).toMatchObject({
			url: '/master-data/v1/equipment-management/models',
			qs: { page: 1, limit: 1 },
		});
		// As n8n's CredentialsHelper calls it for every request: the request's own headers kept.
		await expect(
			credential.authenticate(
				{ baseUrl: 'https://api.example.com', accessToken: 'token-1' },
				{ url: '/x', headers: { Accept: 'application/json' } },
			),
		).resolves.toEqual({
			url: '/x',
			headers: { Accept: 'application/json', Authorization: 'Bearer token-1' },
		});
		expect(
			credential.properties.find((property) => property.name === 'accessToken')?.typeOptions,
		).toEqual({
			password: true,
		});
	});
});
