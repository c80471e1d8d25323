import type { INodeProperties } from 'n8n-workflow';

import * as attach from './attach';
import * as getCustomPriceList from './getCustomPriceList';
import * as updatePriceItem from './updatePriceItem';

export const productDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['product'] } },
		options: [attach.option, getCustomPriceList.option, updatePriceItem.option],
		default: 'getCustomPriceList',
	},
	...attach.fields,
	...getCustomPriceList.fields,
	...updatePriceItem.fields,
];
