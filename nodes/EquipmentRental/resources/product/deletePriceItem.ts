import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requestPerItem } from '../../shared/itemRequest';
import { priceItemPath, priceItemPicker, productPicker } from './pickers';

// https://ram-api.syniotec.com/reference/products: DELETE /products/{id}/price-list/{priceId}
export const option: INodePropertyOptions = {
	name: 'Delete Price Item',
	value: 'deletePriceItem',
	action: 'Delete a price item of a product',
	description: "Remove one quantity tier from a product's price list",
	routing: requestPerItem({
		method: 'DELETE',
		url: '/master-data/v1/product-management/products/{id}/price-list/{priceId}',
		parts: (item) => ({
			path: priceItemPath(item),
		}),
		fieldsByApiName: { id: productPicker, priceId: priceItemPicker },
		changed: ({ path }) => ({ productId: path.id, priceId: path.priceId }),
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['deletePriceItem'] } },
	[productPicker, priceItemPicker],
);
