import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection } from '../../../shared/descriptions';
import { listFields, listOptionsField } from '../../../shared/listFields';
import { pagedListPerItem } from '../../operations/paginatedList';
import { EXAMPLE_UUID, withoutUnset } from '../../../shared/parameters';
import { productTypeOptions } from './productTypes';
import { customPriceListPicker } from './pickers';

const productId: INodeProperties = {
	displayName: 'Product ID',
	name: 'productId',
	type: 'string',
	default: '',
	placeholder: `e.g. ${EXAMPLE_UUID}`,
	description: 'Only entries of the product with this UUID',
};
const type: INodeProperties = {
	displayName: 'Product Type',
	name: 'type',
	type: 'options',
	default: 'EQUIPMENT',
	options: productTypeOptions,
	description:
		'Only entries of products of this type. The two sources name different types (each option says which); a value given by expression is sent as it is.',
};

const filters: INodeProperties = { ...filtersCollection, options: [productId, type] };

const ONE_ITEM_PER_TIER = 'tier';
const output: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	default: 'product',
	options: [
		{
			name: 'One Item per Product',
			value: 'product',
			description: 'Each entry with its further quantity tiers nested in "children"',
		},
		{
			name: 'One Item per Tier',
			value: ONE_ITEM_PER_TIER,
			description:
				"Each quantity tier as an item of its own with its product's fields, e.g. one row per tier in a spreadsheet",
		},
	],
	description: 'How the entries are output. Limit counts entries (products) either way.',
};

const options: INodeProperties = {
	...listOptionsField,
	options: [output, ...(listOptionsField.options as INodeProperties[])],
};

/**
 * An entry and its further tiers (spec 2.2: `children`, entries with from greater than 1, nested
 * in turn) as flat items, lowest quantity first: each tier keeps the fields it has and takes its
 * product's fields from the entry above it.
 */
function tiersOf(entry: IDataObject): IDataObject[] {
	const { children, ...tier } = entry;
	const further = Array.isArray(children) ? (children as IDataObject[]) : [];
	return [
		tier,
		...further.flatMap((child) => tiersOf(child).map((childTier) => ({ ...tier, ...childTier }))),
	].sort((left, right) => Number(left.from) - Number(right.from));
}

export const option: INodePropertyOptions = {
	name: 'Get Custom Price List',
	value: 'getCustomPriceList',
	action: 'Get custom price list entries',
	description:
		'List the entries of a custom price list: one item per product with its price, discount and further quantity tiers in "children", or one item per tier',
	routing: pagedListPerItem(
		{
			method: 'GET',
			url: '/master-data/v1/product-management/products/price-lists/custom/{customPriceId}',
			parts: (item) => ({
				path: { customPriceId: item.identifier(customPriceListPicker) as string },
				qs: withoutUnset({
					productId: item.uuid(productId, filters),
					type: item.text(type, filters),
				}),
			}),
			fieldsByApiName: { customPriceId: customPriceListPicker, productId, type },
		},
		(item) =>
			item.oneOf(output, [ONE_ITEM_PER_TIER, 'product'], options) === ONE_ITEM_PER_TIER
				? (entries) => entries.flatMap(tiersOf)
				: (entries) => entries,
	),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['getCustomPriceList'] } },
	[customPriceListPicker, ...listFields, filters, options],
);
