import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../engine/itemRouting';
import { lookupOf } from '../../engine/declaredRequest';
import { sendPrepared } from '../../engine/itemRequest';
import type { RecordReference } from '../../../shared/parameters';
import { PRODUCTS } from '../../../shared/paths';
import { idOf } from '../../operations/references';
import type { Operation } from '../../operations/recordOperations';
import { productPicker } from './pickers';

/** The products an item links, each by ID or external ID, and the request they come to. */
interface ServiceLinkParts {
	main: RecordReference;
	service: RecordReference;
	path?: { id: string };
	body?: { productId: string };
}

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
	/**
	 * The service product's picker; the reference types its ID as a UUID. By its external ID, it is
	 * found among all products.
	 */
	service: INodeProperties;
}): Operation {
	const mainProduct = { ...productPicker, description: mainProductDescription };
	return {
		option: {
			name,
			value: link,
			action,
			description,
			routing: runPerItem(
				{
					method: 'POST',
					url: `/master-data/v1/product-management/products/{id}/${link}`,
					parts: (item): ServiceLinkParts => ({
						main: item.reference(mainProduct) as RecordReference,
						service: item.reference(service, undefined, { idIsUuid: true }) as RecordReference,
					}),
					fieldsByApiName: { id: mainProduct, productId: service },
					lookups: [lookupOf(mainProduct, PRODUCTS), lookupOf(service, PRODUCTS)],
					changed: ({ path, body }) => ({ productId: path?.id, serviceProductId: body?.productId }),
					outcome: `${link}ed`,
				},
				{
					prepare: async ({ main, service: attached }, item, send) => ({
						path: { id: await idOf(main, PRODUCTS, mainProduct, item, send) },
						body: { productId: await idOf(attached, PRODUCTS, service, item, send) },
					}),
					perform: sendPrepared,
				},
			),
		},
		fields: updateDisplayOptions({ show: { resource: ['product'], operation: [link] } }, [
			mainProduct,
			service,
		]),
	};
}
