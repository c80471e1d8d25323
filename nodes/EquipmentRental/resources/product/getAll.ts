import type { INodeProperties } from 'n8n-workflow';

import { searchFilter, sortedPaginatedList, updatedAfterFilter } from '../../shared/listFilters';
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

// https://ram-api.syniotec.com/reference/get-products
export const { option, fields } = sortedPaginatedList({
	resource: 'product',
	url: PRODUCTS_PATH,
	action: 'Get many products',
	description: 'List products with their price lists, optionally searched or filtered by type',
	filters: [search, type, updatedAfter],
	query: (item, filters) => ({
		type: item.text(type, filters),
		search: item.text(search, filters),
		updatedAfter: item.dateTime(updatedAfter, filters),
	}),
});
