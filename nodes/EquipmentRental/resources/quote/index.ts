import type { INodeProperties } from 'n8n-workflow';

import * as create from './create';

export const quoteDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['quote'] } },
		options: [create.option],
		default: 'create',
	},
	...create.fields,
];
