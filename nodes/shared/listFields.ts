import type { INodeProperties } from 'n8n-workflow';

import { parallelRequestsField } from './requestOptionFields';

export const returnAllField: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

export const limitField: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
};

export const pageSizeField: INodeProperties = {
	displayName: 'Page Size',
	name: 'pageSize',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 100,
	description:
		"How many records to ask for per request (the API's limit). If the API serves fewer per page, the node notices and pages at its size.",
};

/**
 * Parallel Requests as 0.2.0 placed it, under a list's Options: shown only on nodes saved then
 * (version 1), where it still sets the run's pace unless Request Options does (requestPace.ts).
 */
const version1ParallelRequestsField: INodeProperties = {
	...parallelRequestsField,
	displayOptions: { show: { '@version': [1] } },
};

export const listOptionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [pageSizeField, version1ParallelRequestsField],
};

/** The fields every list operation shows, after its own filters. */
export const listFields: INodeProperties[] = [returnAllField, limitField];
