import { updatedAfterFilter } from '../../../shared/filterFields';
import { sortedPaginatedList } from '../../operations/sortedList';
import { productFilters } from '../../../shared/masterDataFilters';
import { PRODUCTS_PATH } from '../../../shared/paths';

const updatedAfter = updatedAfterFilter('products');

// https://ram-api.syniotec.com/reference/get-products
export const { option, fields } = sortedPaginatedList({
	resource: 'product',
	url: PRODUCTS_PATH,
	action: 'Get many products',
	description: 'List products with their price lists, optionally searched or filtered by type',
	filters: [...productFilters.fields, updatedAfter],
	query: (item, filters) => ({
		...productFilters.query(item, filters),
		updatedAfter: item.dateTime(updatedAfter, filters),
	}),
});
