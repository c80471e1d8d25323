import type { INodeProperties } from 'n8n-workflow';

import * as getAll from './getAll';

export const equipmentModelDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['equipmentModel'] } },
		options: [getAll.option],
		default: 'getAll',
	},
	...getAll.fields,
];
