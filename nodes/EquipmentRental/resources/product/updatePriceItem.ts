import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../engine/itemRouting';
import { sendPrepared } from '../../engine/itemRequest';
import { lookupOf } from '../../engine/declaredRequest';
import type { ItemParameters } from '../../../shared/parameters';
import { withoutUnset } from '../../../shared/parameters';
import { PRODUCTS, PRODUCTS_PATH } from '../../../shared/paths';
import { fromQuantity, priceField, priceItemNamed, productPath } from './priceList';
import type { PriceListParts } from './priceList';
import { priceItemPicker, productPicker } from './pickers';

const CALCULATION_TYPES = ['FIXED', 'PERCENTAGE'] as const;

// Empty by default: the PUT replaces the tier's range, and a default of 1 moved every tier edited
// for its price alone to "from 1". Workflows that typed another value saved it, and still send it.
const fromQuantityOrKeep: INodeProperties = {
	...fromQuantity,
	required: false,
	default: null,
	placeholder: "Keep the price item's",
	description:
		"Start of the quantity range this price applies to, at least 1. Leave empty to keep the price item's own: it is read from the API before sending.",
};

const price = priceField(
	'Price per unit for this range: an amount, or a percentage if Calculation Type is Percentage.',
);

const calculationType: INodeProperties = {
	displayName: 'Calculation Type',
	name: 'calculationType',
	type: 'options',
	default: '',
	options: [
		{
			name: "Don't Send",
			value: '',
			description:
				"The request has only From Quantity and Price, as in the vendor's reference; the API keeps or applies its own calculation type",
		},
		{ name: 'Fixed', value: 'FIXED', description: 'The price is an absolute amount' },
		{
			name: 'Percentage',
			value: 'PERCENTAGE',
			description: 'The price is a percentage, e.g. of a base price',
		},
	],
	description:
		'How the price is read. Only the API description knows this field; a server that refuses fields its reference does not list refuses Fixed and Percentage.',
};

export const option: INodePropertyOptions = {
	name: 'Update Price Item',
	value: 'updatePriceItem',
	action: 'Update a price item of a product',
	description:
		'Change the quantity range and price (and, if you choose, the calculation type) of one price item (tier) of a product',
	routing: runPerItem(
		{
			method: 'PUT',
			url: `${PRODUCTS_PATH}/{id}/price-list/{priceId}`,
			parts: (item): PriceListParts => ({
				...priceItemNamed(item),
				body: withoutUnset({
					from: item.number(fromQuantityOrKeep, { min: 1 }),
					price: item.number(price, { min: 0 }),
					calculationType: item.oneOf(calculationType, CALCULATION_TYPES),
				}),
			}),
			fieldsByApiName: {
				id: productPicker,
				priceId: priceItemPicker,
				from: fromQuantityOrKeep,
				price,
				calculationType,
			},
			lookups: [lookupOf(productPicker, PRODUCTS)],
			changed: ({ path, body }) => ({ productId: path?.id, priceId: path?.priceId, ...body }),
		},
		{
			// A tier's From Quantity, when the item does not change it, is read before any item writes:
			// the PUT replaces the tier, and a tier missing from the product fails its item before then.
			async prepare({ product, priceId, body = {} }, item, send) {
				const path = { ...(await productPath(product, item, send)), priceId: priceId! };
				if (body.from !== undefined) return { path, body };
				const [record] = await send({ method: 'GET', url: `${PRODUCTS_PATH}/{id}`, path });
				return { path, body: { from: tierStart(item, record.json, path.priceId), ...body } };
			},
			perform: sendPrepared,
		},
	),
};

/** Where the product's tier `priceId` starts, as the product's `priceList` shows it. */
function tierStart(item: ItemParameters, product: IDataObject, priceId: string): number {
	const tiers = Array.isArray(product.priceList) ? (product.priceList as IDataObject[]) : [];
	const from = tiers.find((tier) => String(tier.id) === priceId)?.from;
	if (typeof from !== 'number') {
		throw item.invalid(
			priceItemPicker,
			"one of the product's price items",
			priceId,
			"The product's price list, read to keep the tier's From Quantity, has no such tier with a quantity: pick it from the list, or give From Quantity. Nothing was changed.",
		);
	}
	return from;
}

export const fields = updateDisplayOptions(
	{ show: { resource: ['product'], operation: ['updatePriceItem'] } },
	[productPicker, priceItemPicker, price, fromQuantityOrKeep, calculationType],
);
