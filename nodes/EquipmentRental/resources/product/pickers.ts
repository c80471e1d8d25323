import type { INodeProperties } from 'n8n-workflow';

import type { ItemParameters } from '../../shared/parameters';
import { idPicker } from '../../shared/pickers';

// The product module's ID fields as pickers, shared by its operations.

export const productPicker = idPicker({
	displayName: 'Product',
	name: 'productId',
	description: 'The product, picked by title from the list or given by its ID',
	searchListMethod: 'searchProducts',
	recordName: 'product',
});

export const serviceProductPicker = idPicker({
	displayName: 'Service Product',
	name: 'serviceProductId',
	description:
		'The service product (e.g. delivery or cleaning), picked from the list of service products or given by its UUID',
	searchListMethod: 'searchServiceProducts',
	recordName: 'service product',
});

export const priceItemPicker = idPicker({
	displayName: 'Price Item',
	name: 'priceId',
	description:
		"One quantity tier of the product's price list, picked from the list (choose the product first) or given by its ID",
	searchListMethod: 'searchPriceItems',
	recordName: 'price item',
});

export const fromQuantity: INodeProperties = {
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

export function priceField(description: string): INodeProperties {
	return {
		displayName: 'Price',
		name: 'price',
		type: 'number',
		required: true,
		// No value until one is given, as Quote's Amount: a default of 0 would set a price never
		// filled in to 0. No minValue/numberPrecision: n8n's editor would clamp and round a typed price
		// when the field loses focus. The bound is checked when the node runs.
		default: null,
		placeholder: 'e.g. 42.50',
		description: `${description} Sent as you give it, decimals included; a negative price stops the item with an error`,
	};
}

/** The path parameters of one price item: its product and its own ID. */
export function priceItemPath(item: ItemParameters): { id: string; priceId: string } {
	return {
		id: item.identifier(productPicker) as string,
		priceId: item.identifier(priceItemPicker) as string,
	};
}
