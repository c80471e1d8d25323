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
import { withoutUnset } from '../../shared/parameters';
import { CLIENTS_PATH } from '../../shared/paths';

const search = searchFilter('name or description', 'construction');
const status = textFilter('Status', 'status', 'ACTIVE');
const partnerType = textFilter('Partner Type', 'partnerType', 'INDUSTRY');
const updatedAfter = updatedAfterFilter('clients');
const filters: INodeProperties = {
	...filtersCollection,
	options: [partnerType, search, status, updatedAfter],
};

// https://ram-api.syniotec.com/reference/get-clients
export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many clients',
	description:
		'List clients, optionally searched by name or filtered by status, partner type or last change',
	routing: pagedListPerItem({
		method: 'GET',
		url: CLIENTS_PATH,
		parts: (item) => ({
			qs: withoutUnset({
				search: item.text(search, filters),
				status: item.text(status, filters),
				partnerType: item.text(partnerType, filters),
				updatedAfter: item.dateTime(updatedAfter, filters),
				...sortQuery(item),
			}),
		}),
		fieldsByApiName: {
			search,
			status,
			partnerType,
			updatedAfter,
			...sortFieldsByApiName,
		},
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['client'], operation: ['getAll'] } },
	[...listFields, filters, sortedListOptions],
);
