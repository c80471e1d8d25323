import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { brandId, DATE_TIME_FORMS, filtersCollection, search } from '../../../shared/descriptions';
import { listFields, listOptionsField } from '../../../shared/listFields';
import { pagedListPerItem } from '../../operations/paginatedList';
import { EXAMPLE_UUID, withoutUnset } from '../../../shared/parameters';

const ids: INodeProperties = {
	displayName: 'Model IDs',
	name: 'ids',
	type: 'string',
	default: '',
	placeholder: `e.g. ${EXAMPLE_UUID}, ...`,
	description:
		'Only the models with these UUIDs, separated by commas, e.g. IDs from an earlier Get Many (an array from an expression works too)',
};
const name: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	description: 'Only the models whose name is exactly this',
};
const updatedAfter: INodeProperties = {
	displayName: 'Updated After',
	name: 'updatedAfter',
	type: 'dateTime',
	default: '',
	description: `Only the models changed after this moment. ${DATE_TIME_FORMS}.`,
};

const filters: INodeProperties = {
	...filtersCollection,
	options: [brandId, ids, name, search, updatedAfter],
};

export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many equipment models',
	description: 'List equipment models, optionally filtered by brand, IDs, name or last change',
	routing: pagedListPerItem({
		method: 'GET',
		url: '/master-data/v1/equipment-management/models',
		parts: (item) => ({
			qs: withoutUnset({
				ids: item.uuidList(ids, filters)?.join(','),
				brandId: item.uuid(brandId, filters),
				name: item.text(name, filters),
				updatedAfter: item.dateTime(updatedAfter, filters),
				search: item.text(search, filters),
			}),
		}),
		fieldsByApiName: { ids, brandId, name, updatedAfter, search },
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['equipmentModel'], operation: ['getAll'] } },
	[...listFields, filters, listOptionsField],
);
