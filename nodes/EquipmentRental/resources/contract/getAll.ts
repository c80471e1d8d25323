import type { INodeProperties } from 'n8n-workflow';

import {
	searchFilter,
	sortedPaginatedList,
	textFilter,
	updatedAfterFilter,
} from '../../shared/listFilters';
import { EXAMPLE_UUID } from '../../shared/parameters';
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

// https://ram-api.syniotec.com/reference/get-contracts
export const { option, fields } = sortedPaginatedList({
	resource: 'contract',
	url: CONTRACTS_PATH,
	action: 'Get many contracts',
	description:
		"List contracts, e.g. a client's, optionally searched by title or filtered by status",
	filters: [clientId, search, status, updatedAfter],
	query: (item, filters) => ({
		clientId: item.uuid(clientId, filters),
		search: item.text(search, filters),
		status: item.text(status, filters),
		updatedAfter: item.dateTime(updatedAfter, filters),
	}),
});
