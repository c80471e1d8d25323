/**
 * The mechanism every operation sends its request through (requestPerItem): what an operation gets
 * from it without asking, here for an operation declared as an operation file would declare it.
 */
import type { INodeProperties, INodePropertyRouting, INodeType } from 'n8n-workflow';

import { EquipmentRental } from '../../nodes/EquipmentRental/EquipmentRental.node';
import { requestPerItem } from '../../nodes/EquipmentRental/engine/itemRouting';
import { useSandbox } from '../harness/sandbox';

const INVENTORY_PATH = '/master-data/v1/inventory-management/inventories';

const inventoryId: INodeProperties = {
	displayName: 'Inventory ID',
	name: 'inventoryId',
	type: 'string',
	default: '',
	displayOptions: { show: { resource: ['dummy'] } },
};

/** The Equipment Rental node with one more resource, whose only operation is routed by `routing`. */
function withDummyOperation(routing: INodePropertyRouting): INodeType {
	const node = new EquipmentRental();
	node.description = {
		...node.description,
		// The Base URL as n8n's nodes give it: an operation routed by hand has no other (the node's
		// own routing sets it per run).
		requestDefaults: {
			...node.description.requestDefaults,
			baseURL: '={{ $credentials.baseUrl }}',
		},
		properties: node.description.properties.flatMap((property) =>
			property.name === 'resource'
				? [
						{ ...property, options: [...property.options!, { name: 'Dummy', value: 'dummy' }] },
						{
							displayName: 'Operation',
							name: 'operation',
							type: 'options',
							noDataExpression: true,
							displayOptions: { show: { resource: ['dummy'] } },
							options: [{ name: 'Delete', value: 'delete', action: 'Delete', routing }],
							default: 'delete',
						},
						inventoryId,
					]
				: [property],
		),
	};
	return node;
}

// The API explained which record is missing: the address is right, the field is named.
const ID_OR_BASE_URL_HINT = "Check 'Inventory ID' in the node.";

describe('An operation sent through requestPerItem', () => {
	const suite = useSandbox();
	const run = (routing: INodePropertyRouting, onError?: 'continueRegularOutput') =>
		suite.run(
			{ resource: 'dummy', operation: 'delete', inventoryId: 'no-such-inventory' },
			{ nodeType: withDummyOperation(routing), onError },
		);

	// Declared without any mention of the API's error mapping.
	const dummyDelete = requestPerItem({
		method: 'DELETE',
		url: `${INVENTORY_PATH}/{id}`,
		parts: (item) => ({ path: { id: item.identifier(inventoryId) as string } }),
		fieldsByApiName: { id: inventoryId },
	});

	it("fails on the API's error answer, with its explanation and the field at fault", async () => {
		const { error, items } = await run(dummyDelete);

		expect(suite.sandbox.requests.map((request) => request.status)).toEqual([404]);
		expect(items).toEqual([]);
		expect(error).toMatchObject({
			name: 'NodeApiError',
			httpCode: '404',
			message: 'Not found (HTTP 404): no record has the ID you gave [item 0]',
			description: `The API said: No inventory has the id no-such-inventory. The field at fault is 'Inventory ID'. ${ID_OR_BASE_URL_HINT}`,
		});
	});

	it('outputs that failure as a failed item under Continue On Fail, not as data', async () => {
		const { items } = await run(dummyDelete, 'continueRegularOutput');

		expect(items).toEqual([
			{
				json: {
					error: `Not found (HTTP 404): no record has the ID you gave [item 0]. The API said: No inventory has the id no-such-inventory. The field at fault is 'Inventory ID'. ${ID_OR_BASE_URL_HINT}`,
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	// The control: the node's request defaults hand error answers over as data
	// (ignoreHttpStatusErrors), so an operation routed by hand turns them into success.
	it('is needed: routed by hand, the same request outputs the error answer as data', async () => {
		const { error, items } = await run({
			request: { method: 'DELETE', url: `${INVENTORY_PATH}/no-such-inventory` },
		});

		expect(suite.sandbox.requests.map((request) => request.status)).toEqual([404]);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			expect.objectContaining({
				statusCode: 404,
				message: 'No inventory has the id no-such-inventory',
			}),
		]);
	});
});
