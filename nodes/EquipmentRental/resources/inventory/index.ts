import type { INodeProperties } from 'n8n-workflow';

import * as deleteInventory from './delete';

export const inventoryDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['inventory'] } },
		options: [deleteInventory.option],
		default: 'delete',
	},
	...deleteInventory.fields,
];
