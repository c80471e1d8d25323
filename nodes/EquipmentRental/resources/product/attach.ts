import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requestPerItem } from '../../shared/itemRequest';
import { EXAMPLE_UUID } from '../../shared/parameters';

const productId: INodeProperties = {
	displayName: 'Product ID',
	name: 'productId',
	type: 'string',
	required: true,
	default: '',
	placeholder: `e.g. ${EXAMPLE_UUID}`,
	description:
		"Identifier of the main product, the one that gets booked (the vendor's reference types it as text; in practice a UUID)",
};

const serviceProductId: INodeProperties = {
	displayName: 'Service Product ID',
	name: 'serviceProductId',
	type: 'string',
	required: true,
	default: '',
	placeholder: `e.g. ${EXAMPLE_UUID}`,
	description:
		'UUID of the product to attach. Only products of type Service can be attached; they are then suggested whenever the main product is booked.',
};

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
			path: { id: item.identifier(productId) as string },
			body: { productId: item.uuid(serviceProductId) },
		}),
		fieldsByApiName: { id: productId, productId: serviceProductId },
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['attach'] } },
	[productId, serviceProductId],
);
