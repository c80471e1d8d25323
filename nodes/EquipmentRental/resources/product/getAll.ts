import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection } from '../../shared/descriptions';
import { listFields } from '../../shared/listFields';
import {
	searchFilter,
	sortedListOptions,
	sortFieldsByApiName,
	sortQuery,
	updatedAfterFilter,
} from '../../shared/listFilters';
import { pagedListPerItem } from '../../shared/pagination';
import { withoutUnset } from '../../shared/parameters';
import { PRODUCTS_PATH } from '../../shared/paths';

const type: INodeProperties = {
	displayName: 'Type',
	name: 'type',
	type: 'options',
	default: 'RESOURCE',
	// The product list's types as the reference names them; a value given by expression is sent as
	// it is, as for the custom price list's filter.
	options: [
		{ name: 'Resource', value: 'RESOURCE', description: 'Equipment, people and other resources' },
		{ name: 'Service', value: 'SERVICE', description: 'Such as delivery or cleaning' },
	],
	description: 'Only the products of this type',
};
const search = searchFilter('title or number', 'excavator');
const updatedAfter = updatedAfterFilter('products');
const filters: INodeProperties = { ...filtersCollection, options: [search, type, updatedAfter] };

// https://ram-api.syniotec.com/reference/get-products
export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many products',
	description: 'List products with their price lists, optionally searched or filtered by type',
	routing: pagedListPerItem({
		method: 'GET',
		url: PRODUCTS_PATH,
		parts: (item) => ({
			qs: withoutUnset({
				type: item.text(type, filters),
				search: item.text(search, filters),
				updatedAfter: item.dateTime(updatedAfter, filters),
				...sortQuery(item),
			}),
		}),
		fieldsByApiName: { type, search, updatedAfter, ...sortFieldsByApiName },
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['getAll'] } },
	[...listFields, filters, sortedListOptions],
);
