import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../engine/itemRouting';
import { sendPrepared } from '../../engine/itemRequest';
import { lookupOf } from '../../engine/declaredRequest';
import { PRODUCTS } from '../../../shared/paths';
import type { PriceListParts } from './priceList';
import { fromQuantity, priceField, productNamed, productPath } from './priceList';
import { productPicker } from './pickers';

const price = priceField('Price per unit from this quantity on.');

// https://ram-api.syniotec.com/reference/add-price-item-to-product-price-list
export const option: INodePropertyOptions = {
	name: 'Add Price Item',
	value: 'addPriceItem',
	action: 'Add a price item to a product',
	description:
		"Add a quantity tier (from a quantity on, a price per unit) to a product's price list",
	routing: runPerItem(
		{
			method: 'POST',
			url: '/master-data/v1/product-management/products/{id}/price-list',
			parts: (item): PriceListParts => ({
				product: productNamed(item),
				body: {
					from: item.number(fromQuantity, { min: 1 }),
					price: item.number(price, { min: 0 }),
				},
			}),
			fieldsByApiName: { id: productPicker, from: fromQuantity, price },
			lookups: [lookupOf(productPicker, PRODUCTS)],
			changed: ({ path, body }) => ({ productId: path?.id, ...body }),
		},
		{
			prepare: async ({ product, body }, item, send) => ({
				path: await productPath(product, item, send),
				body,
			}),
			perform: sendPrepared,
		},
	),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['addPriceItem'] } },
	[productPicker, fromQuantity, price],
);
