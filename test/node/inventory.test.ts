import { useSandbox } from '../harness/sandbox';

describe('Inventory: Delete', () => {
	const suite = useSandbox();
	const remove = (inventoryId: string) => ({
		resource: 'inventory',
		operation: 'delete',
		inventoryId,
	});

	it('deletes the inventory and says so; deleting it again is a clear not-found error', async () => {
		const { inventoryId } = suite.fixtures;
		const first = await suite.run(remove(inventoryId));

		expect(first.error).toBeUndefined();
		expect(
			suite.sandbox.requests.map((request) => [request.method, request.path, request.body]),
		).toEqual([
			['DELETE', `/master-data/v1/inventory-management/inventories/${inventoryId}`, undefined],
		]);
		expect(first.items.map((item) => item.json)).toEqual([
			{ deleted: true, success: true, inventoryId: suite.fixtures.inventoryId },
		]);
		expect(
			(suite.sandbox.store.inventories as unknown as Map<string, unknown>).has(inventoryId),
		).toBe(false);

		const second = await suite.run(remove(inventoryId));
		expect(second.error?.message).toContain('Not found');
		expect(second.error?.description).toContain(`No inventory has the id ${inventoryId}`);
	});

	it.each(['={{ "" }}', '  ', '.', '..'])(
		'rejects the inventory ID %p before sending anything',
		async (inventoryId) => {
			const { error } = await suite.run(remove(inventoryId));
			expect(error?.message).toMatch(/'Inventory ID' must be (set|a non-empty identifier)/);
			expect(suite.sandbox.requests).toHaveLength(0);
		},
	);
});
