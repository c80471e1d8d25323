import type { INodeProperties } from 'n8n-workflow';

export const parallelRequestsField: INodeProperties = {
	displayName: 'Parallel Requests',
	name: 'parallelRequests',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 20 },
	default: 5,
	description:
		'The most requests the node has in flight at once, for all items and pages of one run together. Use 1 to send one request after another.',
};

export const maxRateLimitWaitField: INodeProperties = {
	displayName: 'Max Rate Limit Wait (Seconds)',
	name: 'maxRateLimitWait',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 300,
	description:
		"When the API refuses requests as rate-limited (HTTP 429), the node pauses as the API's Retry-After asks and goes on more slowly. If the API keeps refusing for longer than this, the items not yet done fail.",
};

/**
 * The node's own options under "Request Options", the collection n8n adds to every declarative
 * node (Batching, Proxy, Timeout, ...): n8n's loader merges these into it, so that every setting of
 * how requests are sent is in one place, for every operation.
 */
export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [maxRateLimitWaitField, parallelRequestsField],
};
