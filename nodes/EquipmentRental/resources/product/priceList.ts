import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ItemSender } from '../../engine/itemRequest';
import type { ItemParameters, RecordReference } from '../../../shared/parameters';
import { PRODUCTS } from '../../../shared/paths';
import { idOf } from '../../operations/references';
import { priceItemPicker, productPicker } from './pickers';

// A product's price list: the fields of a price item (a quantity tier) and the product and price
// item a request about one names, shared by Add, Update and Delete Price Item.

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

/** The product an item names, by its ID or its external ID (see productPath). */
export function productNamed(item: ItemParameters): RecordReference {
	return item.reference(productPicker) as RecordReference;
}

/** The path of the product `product` names: its ID, found by its external ID where given so. */
export async function productPath(
	product: RecordReference,
	item: ItemParameters,
	send: ItemSender,
): Promise<{ id: string }> {
	return { id: await idOf(product, PRODUCTS, productPicker, item, send) };
}

/**
 * The parts of a request about a product's price list: the product it names (by ID or external
 * ID), the price item, and the path they come to once the product is found.
 */
export interface PriceListParts {
	product: RecordReference;
	priceId?: string;
	path?: { id: string; priceId?: string };
	body?: IDataObject;
}

/** One price item an item names: its product (by ID or external ID) and its own ID. */
export function priceItemNamed(item: ItemParameters): PriceListParts {
	return { product: productNamed(item), priceId: item.identifier(priceItemPicker) as string };
}
