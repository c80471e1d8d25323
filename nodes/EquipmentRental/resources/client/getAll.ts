import {
	searchFilter,
	sortedPaginatedList,
	textFilter,
	updatedAfterFilter,
} from '../../shared/listFilters';
import { CLIENTS_PATH } from '../../shared/paths';

const search = searchFilter('name or description', 'construction');
const status = textFilter('Status', 'status', 'ACTIVE');
const partnerType = textFilter('Partner Type', 'partnerType', 'INDUSTRY');
const updatedAfter = updatedAfterFilter('clients');

// https://ram-api.syniotec.com/reference/get-clients
export const { option, fields } = sortedPaginatedList({
	resource: 'client',
	url: CLIENTS_PATH,
	action: 'Get many clients',
	description:
		'List clients, optionally searched by name or filtered by status, partner type or last change',
	filters: [partnerType, search, status, updatedAfter],
	query: (item, filters) => ({
		search: item.text(search, filters),
		status: item.text(status, filters),
		partnerType: item.text(partnerType, filters),
		updatedAfter: item.dateTime(updatedAfter, filters),
	}),
});
