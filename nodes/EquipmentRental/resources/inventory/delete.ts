import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { checkApiResponse } from '../../shared/errors';
import { perItem, sendOnce } from '../../shared/itemRequest';
import { ItemParameters } from '../../shared/parameters';

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
	routing: {
		request: { method: 'DELETE', url: '/master-data/v1/inventory-management/inventories/{id}' },
		output: {
			postReceive: [
				checkApiResponse({ id: inventoryId }),
				{ type: 'set', properties: { value: '={{ { "deleted": true, ...$response.body } }}' } },
			],
		},
		...perItem(
			sendOnce(function () {
				return { path: { id: new ItemParameters(this).identifier(inventoryId) as string } };
			}),
		),
	},
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['inventory'], operation: ['delete'] } },
	[inventoryId],
);
