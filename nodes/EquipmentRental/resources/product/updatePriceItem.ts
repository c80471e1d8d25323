import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requestPerItem } from '../../shared/itemRequest';
import { withoutUnset } from '../../shared/parameters';
import { fromQuantity, priceField, priceItemPath, priceItemPicker, productPicker } from './pickers';

const CALCULATION_TYPES = ['FIXED', 'PERCENTAGE'] as const;

const price = priceField(
	'Price per unit for this range: an amount, or a percentage if Calculation Type is Percentage.',
);

const calculationType: INodeProperties = {
	displayName: 'Calculation Type',
	name: 'calculationType',
	type: 'options',
	default: '',
	options: [
		{
			name: "Don't Send",
			value: '',
			description:
				"The request has only From Quantity and Price, as in the vendor's reference; the API keeps or applies its own calculation type",
		},
		{ name: 'Fixed', value: 'FIXED', description: 'The price is an absolute amount' },
		{
			name: 'Percentage',
			value: 'PERCENTAGE',
			description: 'The price is a percentage, e.g. of a base price',
		},
	],
	description:
		'How the price is read. Only the API description knows this field; a server that refuses fields its reference does not list refuses Fixed and Percentage.',
};

export const option: INodePropertyOptions = {
	name: 'Update Price Item',
	value: 'updatePriceItem',
	action: 'Update a price item of a product',
	description:
		'Change the quantity range and price (and, if you choose, the calculation type) of one price item (tier) of a product',
	routing: requestPerItem({
		method: 'PUT',
		url: '/master-data/v1/product-management/products/{id}/price-list/{priceId}',
		parts: (item) => ({
			path: priceItemPath(item),
			body: withoutUnset({
				from: item.number(fromQuantity, { min: 1 }),
				price: item.number(price, { min: 0 }),
				calculationType: item.oneOf(calculationType, CALCULATION_TYPES),
			}),
		}),
		fieldsByApiName: {
			id: productPicker,
			priceId: priceItemPicker,
			from: fromQuantity,
			price,
			calculationType,
		},
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['updatePriceItem'] } },
	[productPicker, priceItemPicker, fromQuantity, price, calculationType],
);
