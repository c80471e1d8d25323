import type { INodeProperties } from 'n8n-workflow';

import { DATE_TIME_FORMS } from './descriptions';

// The filters of the lists the vendor's reference documents (clients, contracts, products,
// equipment): the same query parameters, each list with its own words.

/** Search: the API's `search`, matched by the API against what it says (e.g. a client's name). */
export function searchFilter(matched: string, example: string): INodeProperties {
	return {
		displayName: 'Search',
		name: 'search',
		type: 'string',
		default: '',
		placeholder: `e.g. ${example}`,
		description: `Only the records whose ${matched} contains this text, as the API matches it`,
	};
}

export function updatedAfterFilter(records: string): INodeProperties {
	return {
		displayName: 'Updated After',
		name: 'updatedAfter',
		type: 'dateTime',
		default: '',
		description: `Only the ${records} changed after this moment. ${DATE_TIME_FORMS}.`,
	};
}

/** A filter the API takes as text, e.g. a status, with the reference's example value. */
export function textFilter(displayName: string, name: string, example: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'string',
		default: '',
		placeholder: `e.g. ${example}`,
		description: `Only the records with this ${displayName.toLowerCase()}, as the API names it (e.g. ${example})`,
	};
}
