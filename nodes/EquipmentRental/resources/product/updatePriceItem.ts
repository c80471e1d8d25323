import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requestPerItem } from '../../shared/itemRequest';
import { EXAMPLE_UUID, withoutUnset } from '../../shared/parameters';

const CALCULATION_TYPES = ['FIXED', 'PERCENTAGE'] as const;

const productId: INodeProperties = {
	displayName: 'Product ID',
	name: 'productId',
	type: 'string',
	required: true,
	default: '',
	placeholder: `e.g. ${EXAMPLE_UUID}`,
	description:
		"Identifier of the product whose price item to change (the vendor's reference types it as text; in practice a UUID)",
};

const priceId: INodeProperties = {
	displayName: 'Price Item ID',
	name: 'priceId',
	type: 'string',
	required: true,
	default: '',
	description:
		'Identifier of the price item (one quantity tier) of the product to change, exactly as the rental system gives it (its format is not documented)',
};

const from: INodeProperties = {
	displayName: 'From Quantity',
	name: 'from',
	type: 'number',
	required: true,
	default: 1,
	// No minValue: n8n's editor would raise a smaller typed value to it when the field loses focus,
	// without a word. The bound is checked when the node runs.
	description:
		'Start of the quantity range this price applies to, at least 1; a smaller value stops the item with an error',
};

const price: INodeProperties = {
	displayName: 'Price',
	name: 'price',
	type: 'number',
	required: true,
	default: 0,
	// No minValue/numberPrecision: n8n's editor would clamp and round a typed price when the field
	// loses focus. The bound is checked when the node runs.
	description:
		'Price per unit for this range: an amount, or a percentage if Calculation Type is Percentage. Sent as you give it, decimals included; a negative price stops the item with an error.',
};

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
			path: {
				id: item.identifier(productId) as string,
				priceId: item.identifier(priceId) as string,
			},
			body: withoutUnset({
				from: item.number(from, { min: 1 }),
				price: item.number(price, { min: 0 }),
				calculationType: item.oneOf(calculationType, CALCULATION_TYPES),
			}),
		}),
		fieldsByApiName: { id: productId, priceId, from, price, calculationType },
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['updatePriceItem'] } },
	[productId, priceId, from, price, calculationType],
);
