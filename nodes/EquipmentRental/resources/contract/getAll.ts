import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection } from '../../shared/descriptions';
import { listFields } from '../../shared/listFields';
import {
	searchFilter,
	sortedListOptions,
	sortFieldsByApiName,
	sortQuery,
	textFilter,
	updatedAfterFilter,
} from '../../shared/listFilters';
import { pagedListPerItem } from '../../shared/pagination';
import { EXAMPLE_UUID, withoutUnset } from '../../shared/parameters';
import { CONTRACTS_PATH } from '../../shared/paths';

const clientId: INodeProperties = {
	displayName: 'Client ID',
	name: 'clientId',
	type: 'string',
	default: '',
	placeholder: `e.g. ${EXAMPLE_UUID}`,
	description: 'Only the contracts of the client with this UUID, e.g. from Client > Get Many',
};
const search = searchFilter('title or description', 'construction');
const status = textFilter('Status', 'status', 'IN_PROGRESS');
const updatedAfter = updatedAfterFilter('contracts');
const filters: INodeProperties = {
	...filtersCollection,
	options: [clientId, search, status, updatedAfter],
};

// https://ram-api.syniotec.com/reference/get-contracts
export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many contracts',
	description:
		"List contracts, e.g. a client's, optionally searched by title or filtered by status",
	routing: pagedListPerItem({
		method: 'GET',
		url: CONTRACTS_PATH,
		parts: (item) => ({
			qs: withoutUnset({
				clientId: item.uuid(clientId, filters),
				search: item.text(search, filters),
				status: item.text(status, filters),
				updatedAfter: item.dateTime(updatedAfter, filters),
				...sortQuery(item),
			}),
		}),
		fieldsByApiName: {
			clientId,
			search,
			status,
			updatedAfter,
			...sortFieldsByApiName,
		},
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['contract'], operation: ['getAll'] } },
	[...listFields, filters, sortedListOptions],
);
