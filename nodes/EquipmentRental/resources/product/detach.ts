import type { INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requestPerItem } from '../../shared/itemRequest';
import { idPicker } from '../../shared/pickers';
import { productPicker } from './pickers';

const mainProduct = {
	...productPicker,
	description:
		'The main product whose attached service to remove, picked by title or given by its ID',
};

const attachedService = idPicker({
	displayName: 'Attached Service',
	name: 'serviceProductId',
	description:
		'The service product to detach, picked from the services attached to the main product or given by its UUID',
	searchListMethod: 'searchAttachedServices',
	recordName: 'service',
});

// https://ram-api.syniotec.com/reference/detach-product-from-another-product
export const option: INodePropertyOptions = {
	name: 'Detach Service',
	value: 'detach',
	action: 'Detach a service product from a product',
	description:
		'Remove the link between a main product and an attached service product, so that bookings no longer suggest it',
	routing: requestPerItem({
		method: 'POST',
		url: '/master-data/v1/product-management/products/{id}/detach',
		parts: (item) => ({
			path: { id: item.identifier(mainProduct) as string },
			body: { productId: item.uuid(attachedService) },
		}),
		fieldsByApiName: { id: mainProduct, productId: attachedService },
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['detach'] } },
	[mainProduct, attachedService],
);
