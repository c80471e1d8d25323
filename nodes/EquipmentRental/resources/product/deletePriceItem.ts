import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../engine/itemRouting';
import { sendPrepared } from '../../engine/itemRequest';
import { lookupOf } from '../../engine/declaredRequest';
import { PRODUCTS } from '../../../shared/paths';
import type { PriceListParts } from './priceList';
import { priceItemNamed, productPath } from './priceList';
import { priceItemPicker, productPicker } from './pickers';

// https://ram-api.syniotec.com/reference/products: DELETE /products/{id}/price-list/{priceId}
export const option: INodePropertyOptions = {
	name: 'Delete Price Item',
	value: 'deletePriceItem',
	action: 'Delete a price item of a product',
	description: "Remove one quantity tier from a product's price list",
	routing: runPerItem(
		{
			method: 'DELETE',
			url: '/master-data/v1/product-management/products/{id}/price-list/{priceId}',
			parts: (item): PriceListParts => priceItemNamed(item),
			fieldsByApiName: { id: productPicker, priceId: priceItemPicker },
			lookups: [lookupOf(productPicker, PRODUCTS)],
			changed: ({ path }) => ({ productId: path?.id, priceId: path?.priceId }),
		},
		{
			prepare: async ({ product, priceId }, item, send) => ({
				path: { ...(await productPath(product, item, send)), priceId: priceId! },
			}),
			perform: sendPrepared,
		},
	),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['deletePriceItem'] } },
	[productPicker, priceItemPicker],
);
