import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { requestPerItem } from '../../shared/itemRequest';
import type { Operation } from '../../shared/recordOperations';
import { productPicker } from './pickers';

/**
 * Attach Service and Detach Service: `POST /products/{id}/<link>` with `{ productId }`, the service
 * product, in the body (https://ram-api.syniotec.com/reference/attach-product-to-another-product and
 * .../detach-product-from-another-product).
 */
export function serviceLinkOperation({
	link,
	name,
	action,
	description,
	mainProductDescription,
	service,
}: {
	link: 'attach' | 'detach';
	name: string;
	action: string;
	description: string;
	mainProductDescription: string;
	/** The service product's field; the reference types it as a UUID. */
	service: INodeProperties;
}): Operation {
	const mainProduct = { ...productPicker, description: mainProductDescription };
	return {
		option: {
			name,
			value: link,
			action,
			description,
			routing: requestPerItem({
				method: 'POST',
				url: `/master-data/v1/product-management/products/{id}/${link}`,
				parts: (item) => ({
					path: { id: item.identifier(mainProduct) as string },
					body: { productId: item.uuid(service) },
				}),
				fieldsByApiName: { id: mainProduct, productId: service },
				changed: ({ path, body }) => ({ productId: path.id, serviceProductId: body.productId }),
			}),
		},
		fields: updateDisplayOptions({ show: { resource: ['product'], operation: [link] } }, [
			mainProduct,
			service,
		]),
	};
}
