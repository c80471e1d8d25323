import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection } from '../../../shared/descriptions';
import { listFields, listOptionsField } from '../../../shared/listFields';
import { searchFilter } from '../../../shared/filterFields';
import { pagedListPerItem } from '../../operations/paginatedList';
import { withoutUnset } from '../../../shared/parameters';
import { EQUIPMENTS_PATH } from '../../../shared/paths';

const search = searchFilter('inventory number', 'EX-20');
const filters: INodeProperties = { ...filtersCollection, options: [search] };

// https://ram-api.syniotec.com/reference/equipments: GET /equipments
export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many pieces of equipment',
	description: 'List the pieces of equipment of the fleet, optionally searched by inventory number',
	routing: pagedListPerItem({
		method: 'GET',
		url: EQUIPMENTS_PATH,
		parts: (item) => ({ qs: withoutUnset({ search: item.text(search, filters) }) }),
		fieldsByApiName: { search },
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['equipment'], operation: ['getAll'] } },
	[...listFields, filters, listOptionsField],
);
