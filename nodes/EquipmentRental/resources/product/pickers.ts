import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';

import { CLIENTS_PATH, PRODUCTS, PRODUCTS_PATH } from '../../../shared/paths';
import { getFromApi } from '../../../shared/transport';
import {
	chooseFirst,
	chosenId,
	filtered,
	idPicker,
	listItem,
	nameWithNumber,
	searchPage,
	textOf,
} from '../../operations/pickers';
import { clientName } from '../client/pickers';

// The product module's ID fields as pickers, shared by its operations, and their lists.

export const productPicker = idPicker({
	displayName: 'Product',
	name: 'productId',
	description:
		'The product: picked by title from the list, or given by its ID or by the external ID another system gave it',
	search: searchProducts,
	recordName: 'product',
	byExternalId: true,
});

export const serviceProductPicker = idPicker({
	displayName: 'Service Product',
	name: 'serviceProductId',
	description:
		'The service product (e.g. delivery or cleaning): picked from the list of service products, or given by its UUID or by the external ID another system gave it',
	search: searchServiceProducts,
	recordName: 'service product',
	byExternalId: true,
});

export const priceItemPicker = idPicker({
	displayName: 'Price Item',
	name: 'priceId',
	description:
		"One quantity tier of the product's price list, picked from the list (choose the product first) or given by its ID",
	search: searchPriceItems,
	recordName: 'price item',
});

/** A client's custom price list, picked by the client's name. */
export const customPriceListPicker = idPicker({
	displayName: 'Custom Price List',
	name: 'customPriceId',
	description:
		"The custom price list, picked by its client's name from the list or given by its ID (a client's customPriceId)",
	search: searchCustomPriceLists,
	recordName: 'client',
});

/** A service attached to the main product, to detach. */
export const attachedServicePicker = idPicker({
	displayName: 'Attached Service',
	name: 'serviceProductId',
	description:
		'The service product to detach: picked from the services attached to the main product, or given by its UUID or external ID',
	search: searchAttachedServices,
	recordName: 'service',
	byExternalId: true,
});

const productItem = (product: IDataObject) =>
	listItem(nameWithNumber(product.title, product.number, product.id), product.id);

export async function searchProducts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) {
	return await searchPage(this, PRODUCTS_PATH, { filter, paginationToken }, productItem);
}

/** Only products of type SERVICE can be attached (reference, attach-product-to-another-product). */
async function searchServiceProducts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) {
	return await searchPage(
		this,
		PRODUCTS_PATH,
		{ qs: { type: 'SERVICE' }, filter, paginationToken },
		productItem,
	);
}

/** The product chosen in the product picker, read whole: the lists that follow it are in it. */
async function chosenProduct(context: ILoadOptionsFunctions): Promise<IDataObject> {
	const productId = await chosenId(context, 'productId', PRODUCTS);
	if (!productId) throw chooseFirst(context, 'product');
	return (await getFromApi(
		context,
		`${PRODUCTS_PATH}/${encodeURIComponent(productId)}`,
		{},
		{
			forPicker: true,
			pathHasIds: true,
		},
	)) as IDataObject;
}

/** The chosen product's price items (quantity tiers), named as the reference's product has them. */
async function searchPriceItems(this: ILoadOptionsFunctions, filter?: string) {
	const product = await chosenProduct(this);
	return filtered(
		product.priceList,
		(item) => listItem(`From ${textOf(item.from) ?? '?'}: ${textOf(item.price) ?? '?'}`, item.id),
		filter,
	);
}

/** Clients that have a custom price list, named by client: the reference keeps its ID there. */
async function searchCustomPriceLists(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) {
	return await searchPage(this, CLIENTS_PATH, { filter, paginationToken }, (client) =>
		listItem(`${clientName(client)}: custom price list`, client.customPriceId),
	);
}

/** The services attached to the chosen product. */
async function searchAttachedServices(this: ILoadOptionsFunctions, filter?: string) {
	const product = await chosenProduct(this);
	return filtered(product.attachments, productItem, filter);
}

export const productSearches = {
	searchProducts,
	searchServiceProducts,
	searchPriceItems,
	searchCustomPriceLists,
	searchAttachedServices,
};
