import { updatedAfterFilter } from '../../../shared/filterFields';
import { sortedPaginatedList } from '../../operations/sortedList';
import { contractFilters } from '../../../shared/masterDataFilters';
import { CONTRACTS_PATH } from '../../../shared/paths';

const updatedAfter = updatedAfterFilter('contracts');

// https://ram-api.syniotec.com/reference/get-contracts
export const { option, fields } = sortedPaginatedList({
	resource: 'contract',
	url: CONTRACTS_PATH,
	action: 'Get many contracts',
	description:
		"List contracts, e.g. a client's, optionally searched by title or filtered by status",
	filters: [...contractFilters.fields, updatedAfter],
	query: (item, filters) => ({
		...contractFilters.query(item, filters),
		updatedAfter: item.dateTime(updatedAfter, filters),
	}),
});
