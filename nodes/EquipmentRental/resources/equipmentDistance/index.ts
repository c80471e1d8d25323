import type { INodeProperties } from 'n8n-workflow';

import * as get from './get';

export const equipmentDistanceDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['equipmentDistance'] } },
		options: [get.option],
		default: 'get',
	},
	...get.fields,
];
