import { idPicker } from '../../operations/pickers';

// The product module's ID fields as pickers, shared by its operations.

export const productPicker = idPicker({
	displayName: 'Product',
	name: 'productId',
	description:
		'The product: picked by title from the list, or given by its ID or by the external ID another system gave it',
	searchListMethod: 'searchProducts',
	recordName: 'product',
	byExternalId: true,
});

export const serviceProductPicker = idPicker({
	displayName: 'Service Product',
	name: 'serviceProductId',
	description:
		'The service product (e.g. delivery or cleaning): picked from the list of service products, or given by its UUID or by the external ID another system gave it',
	searchListMethod: 'searchServiceProducts',
	recordName: 'service product',
	byExternalId: true,
});

export const priceItemPicker = idPicker({
	displayName: 'Price Item',
	name: 'priceId',
	description:
		"One quantity tier of the product's price list, picked from the list (choose the product first) or given by its ID",
	searchListMethod: 'searchPriceItems',
	recordName: 'price item',
});

/** A client's custom price list, picked by the client's name. */
export const customPriceListPicker = idPicker({
	displayName: 'Custom Price List',
	name: 'customPriceId',
	description:
		"The custom price list, picked by its client's name from the list or given by its ID (a client's customPriceId)",
	searchListMethod: 'searchCustomPriceLists',
	recordName: 'client',
});

/** A service attached to the main product, to detach. */
export const attachedServicePicker = idPicker({
	displayName: 'Attached Service',
	name: 'serviceProductId',
	description:
		'The service product to detach: picked from the services attached to the main product, or given by its UUID or external ID',
	searchListMethod: 'searchAttachedServices',
	recordName: 'service',
	byExternalId: true,
});
