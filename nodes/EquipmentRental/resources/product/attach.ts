import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requestPerItem } from '../../shared/itemRequest';
import { productPicker, serviceProductPicker } from './pickers';

const mainProduct = {
	...productPicker,
	description: 'The main product, the one that gets booked, picked by title or given by its ID',
};

// https://ram-api.syniotec.com/reference/attach-product-to-another-product
export const option: INodePropertyOptions = {
	name: 'Attach Service',
	value: 'attach',
	action: 'Attach a service product to a product',
	description:
		'Link a service product (such as delivery or cleaning) to a main product so that bookings suggest it',
	routing: requestPerItem({
		method: 'POST',
		url: '/master-data/v1/product-management/products/{id}/attach',
		parts: (item) => ({
			path: { id: item.identifier(mainProduct) as string },
			body: { productId: item.uuid(serviceProductPicker) },
		}),
		fieldsByApiName: { id: mainProduct, productId: serviceProductPicker },
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['attach'] } },
	[mainProduct, serviceProductPicker],
);
