import type { INodeProperties } from 'n8n-workflow';

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

export const parallelRequestsField: INodeProperties = {
	displayName: 'Parallel Requests',
	name: 'parallelRequests',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 20 },
	default: 5,
	description: 'How many pages to fetch at the same time. Use 1 to fetch one page after another.',
};

export const listOptionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add option',
	default: {},
	options: [pageSizeField, parallelRequestsField],
};

/** The fields every list operation shows, after its own filters. */
export const listFields: INodeProperties[] = [returnAllField, limitField];
