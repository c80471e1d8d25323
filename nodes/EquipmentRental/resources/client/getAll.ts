import { updatedAfterFilter } from '../../../shared/filterFields';
import { sortedPaginatedList } from '../../operations/sortedList';
import { clientFilters } from '../../../shared/masterDataFilters';
import { CLIENTS_PATH } from '../../../shared/paths';

const updatedAfter = updatedAfterFilter('clients');

// https://ram-api.syniotec.com/reference/get-clients
export const { option, fields } = sortedPaginatedList({
	resource: 'client',
	url: CLIENTS_PATH,
	action: 'Get many clients',
	description:
		'List clients, optionally searched by name or filtered by status, partner type or last change',
	filters: [...clientFilters.fields, updatedAfter],
	query: (item, filters) => ({
		...clientFilters.query(item, filters),
		updatedAfter: item.dateTime(updatedAfter, filters),
	}),
});
