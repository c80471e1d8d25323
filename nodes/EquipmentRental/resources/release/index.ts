import type { INodeProperties } from 'n8n-workflow';

import * as update from './update';

export const releaseDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['release'] } },
		options: [update.option],
		default: 'update',
	},
	...update.fields,
];
