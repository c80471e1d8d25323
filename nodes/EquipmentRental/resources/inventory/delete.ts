import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requestPerItem } from '../../engine/itemRouting';

const inventoryId: INodeProperties = {
	displayName: 'Inventory ID',
	name: 'inventoryId',
	type: 'string',
	required: true,
	default: '',
	description:
		'Identifier of the inventory to delete, exactly as the rental system gives it (its format is not documented). The deletion cannot be undone.',
};

export const option: INodePropertyOptions = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete an inventory',
	description: 'Permanently delete an inventory by its ID',
	routing: requestPerItem({
		method: 'DELETE',
		url: '/master-data/v1/inventory-management/inventories/{id}',
		parts: (item) => ({ path: { id: item.identifier(inventoryId) as string } }),
		fieldsByApiName: { id: inventoryId },
		changed: ({ path }) => ({ inventoryId: path.id }),
		output: [
			{ type: 'set', properties: { value: '={{ { "deleted": true, ...$response.body } }}' } },
		],
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['inventory'], operation: ['delete'] } },
	[inventoryId],
);
