import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection } from '../../shared/descriptions';
import { listFields, listOptionsField } from '../../shared/listFields';
import { pagedListPerItem } from '../../shared/pagination';
import { EXAMPLE_UUID, withoutUnset } from '../../shared/parameters';
import { PRODUCT_TYPES, productTypeOptions } from './productTypes';

const customPriceId: INodeProperties = {
	displayName: 'Custom Price List ID',
	name: 'customPriceId',
	type: 'string',
	required: true,
	default: '',
	placeholder: `e.g. ${EXAMPLE_UUID}`,
	description:
		'Identifier of the custom price list to read, exactly as the rental system gives it (its format is not documented)',
};

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
	description: 'Only entries of products of this type',
};

const filters: INodeProperties = { ...filtersCollection, options: [productId, type] };

export const option: INodePropertyOptions = {
	name: 'Get Custom Price List',
	value: 'getCustomPriceList',
	action: 'Get custom price list entries',
	description:
		'List the entries of a custom price list: one item per product with its price, discount and further quantity tiers in "children"',
	routing: pagedListPerItem({
		method: 'GET',
		url: '/master-data/v1/product-management/products/price-lists/custom/{customPriceId}',
		parts: (item) => ({
			path: { customPriceId: item.identifier(customPriceId) as string },
			qs: withoutUnset({
				productId: item.uuid(productId, filters),
				type: item.oneOf(type, PRODUCT_TYPES, filters),
			}),
		}),
		fieldsByApiName: { customPriceId, productId, type },
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['getCustomPriceList'] } },
	[customPriceId, ...listFields, filters, listOptionsField],
);
