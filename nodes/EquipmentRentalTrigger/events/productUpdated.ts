import { productFilters } from '../../shared/masterDataFilters';
import { PRODUCTS_PATH } from '../../shared/paths';
import { createdOrUpdatedEvent } from './createdOrUpdated';

// https://ram-api.syniotec.com/reference/get-products
export const { option, fields, poll } = createdOrUpdatedEvent({
	event: 'productUpdated',
	name: 'Product Created or Updated',
	description:
		'Triggers once for each product created or changed since the previous poll, telling which (changeType)',
	path: PRODUCTS_PATH,
	records: 'products',
	filters: productFilters.fields,
	filterQuery: productFilters.query,
	tellsCreatedFromUpdated: true,
});
