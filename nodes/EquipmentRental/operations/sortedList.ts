import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection } from '../../shared/descriptions';
import { listFields, listOptionsField } from '../../shared/listFields';
import { pagedListPerItem } from './paginatedList';
import type { ItemParameters } from '../../shared/parameters';
import { withoutUnset } from '../../shared/parameters';
import type { Operation } from './recordOperations';

// The sort options of the lists the vendor's reference documents (clients, contracts, products,
// equipment), and their operation.

const sortByOption: INodeProperties = {
	displayName: 'Sort By',
	name: 'sortBy',
	type: 'string',
	default: '',
	placeholder: 'e.g. updatedAt',
	description: "The record field to sort by, e.g. updatedAt or name; the API's order when empty",
};

const sortDirectionOption: INodeProperties = {
	displayName: 'Sort Direction',
	name: 'sortDirection',
	type: 'options',
	default: 'ASC',
	options: [
		{ name: 'Ascending', value: 'ASC' },
		{ name: 'Descending', value: 'DESC' },
	],
	description: 'Sent with Sort By only',
};

/** Options of a list the API sorts: Page Size and Parallel Requests, then Sort By and Direction. */
const sortedListOptions: INodeProperties = {
	...listOptionsField,
	options: [...(listOptionsField.options as INodeProperties[]), sortByOption, sortDirectionOption],
};

/** `sortBy` and `sortDirection` from a list's Options; the direction only with a field to sort by. */
function sortQuery(item: ItemParameters): {
	sortBy?: string;
	sortDirection?: 'ASC' | 'DESC';
} {
	const sortBy = item.text(sortByOption, sortedListOptions)?.trim();
	if (!sortBy) return {};
	return {
		sortBy,
		sortDirection: item.oneOf(sortDirectionOption, ['ASC', 'DESC'], sortedListOptions) ?? 'ASC',
	};
}

/**
 * A list operation of the reference's kind (clients, contracts, products): Return All / Limit,
 * Filters sent as query parameters, and Options with Sort By and Sort Direction. Each filter's `name`
 * is its query parameter's, so that an error naming one names the form's field.
 */
export function sortedPaginatedList({
	resource,
	url,
	action,
	description,
	filters,
	query,
}: {
	resource: string;
	url: string;
	action: string;
	description: string;
	filters: INodeProperties[];
	/** The query parameters of `filters`, each read and checked from `collection`. */
	query: (item: ItemParameters, collection: INodeProperties) => IDataObject;
}): Operation {
	const collection: INodeProperties = { ...filtersCollection, options: filters };
	return {
		option: {
			name: 'Get Many',
			value: 'getAll',
			action,
			description,
			routing: pagedListPerItem({
				method: 'GET',
				url,
				parts: (item) => ({
					qs: withoutUnset({ ...query(item, collection), ...sortQuery(item) }),
				}),
				fieldsByApiName: {
					...Object.fromEntries(filters.map((filter) => [filter.name, filter])),
					sortBy: sortByOption,
					sortDirection: sortDirectionOption,
				},
			}),
		},
		fields: updateDisplayOptions({ show: { resource: [resource], operation: ['getAll'] } }, [
			...listFields,
			collection,
			sortedListOptions,
		]),
	};
}
