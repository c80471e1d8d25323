import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getFromApi } from '../shared/transport';
import {
	BOOKINGS_PATH,
	CLIENTS,
	CLIENTS_PATH,
	CONTRACTS_PATH,
	EQUIPMENTS_PATH,
	PRODUCTS,
	PRODUCTS_PATH,
} from '../shared/paths';
import { chosenId, matchesFilter, searchPage } from './operations/pickers';

type Search = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/** Text of a record's field, or undefined when it has none. */
function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== ''
		? value.trim()
		: typeof value === 'number'
			? String(value)
			: undefined;
}

/** A name followed by its number, e.g. "Acme Construction (10042)". */
function named(name: unknown, number: unknown, fallback: unknown): string {
	const title = text(name) ?? text(fallback) ?? '';
	const suffix = text(number);
	return suffix && suffix !== title ? `${title} (${suffix})` : title;
}

function asItem(name: string, value: unknown): INodeListSearchItems | undefined {
	const id = text(value);
	return id === undefined ? undefined : { name: name || id, value: id };
}

/** A picker that needs another field chosen first says so in its list. */
function chooseFirst(context: ILoadOptionsFunctions, what: string): NodeOperationError {
	return new NodeOperationError(context.getNode(), `Choose the ${what} first`, {
		description: `This list shows the ${what}'s records: pick or enter the ${what} above, then open the list again.`,
	});
}

const clientItem = (client: IDataObject) =>
	asItem(named(client.name, client.number, client.id), client.id);
const contractItem = (contract: IDataObject) =>
	asItem(named(contract.title, contract.number, contract.id), contract.id);
const productItem = (product: IDataObject) =>
	asItem(named(product.title, product.number, product.id), product.id);

/** The price items (quantity tiers) of a product, as the reference's product shows them. */
function priceItemName(item: IDataObject): string {
	return `From ${text(item.from) ?? '?'}: ${text(item.price) ?? '?'}`;
}

async function productOf(context: ILoadOptionsFunctions): Promise<IDataObject> {
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

/** The records of a list the API cannot search or page, filtered here by the search text. */
function filtered(
	records: unknown,
	toItem: (record: IDataObject) => INodeListSearchItems | undefined,
	filter: string | undefined,
): INodeListSearchResult {
	const items = (Array.isArray(records) ? (records as IDataObject[]) : []).flatMap(
		(record) => toItem(record) ?? [],
	);
	return { results: items.filter((item) => matchesFilter(item.name, filter)) };
}

/** The pickers' lists (n8n's listSearch methods), each named for what it lists. */
export const listSearch: Record<string, Search> = {
	async searchClients(filter, paginationToken) {
		return await searchPage(this, CLIENTS_PATH, { filter, paginationToken }, clientItem);
	},

	/** Clients that have a custom price list, named by client: the reference keeps its ID there. */
	async searchCustomPriceLists(filter, paginationToken) {
		return await searchPage(this, CLIENTS_PATH, { filter, paginationToken }, (client) =>
			asItem(
				`${named(client.name, client.number, client.id)}: custom price list`,
				client.customPriceId,
			),
		);
	},

	/** The chosen client's contact persons (an array: the reference shows no paging), by name. */
	async searchContactPersons(filter) {
		const clientId = await chosenId(this, 'clientId', CLIENTS);
		if (!clientId) throw chooseFirst(this, 'client');
		const persons = await getFromApi(
			this,
			`${CLIENTS_PATH}/${encodeURIComponent(clientId)}/contact-persons`,
			{},
			{ forPicker: true, pathHasIds: true },
		);
		return filtered(
			persons,
			(person) => asItem(named(person.name, person.jobTitle, person.id), person.id),
			filter,
		);
	},

	async searchContracts(filter, paginationToken) {
		return await searchPage(this, CONTRACTS_PATH, { filter, paginationToken }, contractItem);
	},

	/** The chosen client's contracts only. */
	async searchClientContracts(filter, paginationToken) {
		const clientId = await chosenId(this, 'clientId', CLIENTS);
		if (!clientId) throw chooseFirst(this, 'client');
		return await searchPage(
			this,
			CONTRACTS_PATH,
			{ qs: { clientId }, filter, paginationToken },
			contractItem,
		);
	},

	async searchProducts(filter, paginationToken) {
		return await searchPage(this, PRODUCTS_PATH, { filter, paginationToken }, productItem);
	},

	/** Only products of type SERVICE can be attached (reference, attach-product-to-another-product). */
	async searchServiceProducts(filter, paginationToken) {
		return await searchPage(
			this,
			PRODUCTS_PATH,
			{ qs: { type: 'SERVICE' }, filter, paginationToken },
			productItem,
		);
	},

	async searchPriceItems(filter) {
		const product = await productOf(this);
		return filtered(product.priceList, (item) => asItem(priceItemName(item), item.id), filter);
	},

	async searchAttachedServices(filter) {
		const product = await productOf(this);
		return filtered(product.attachments, productItem, filter);
	},

	/** The releases the chosen booking embeds (the reference has no list of releases). */
	async searchBookingReleases(filter) {
		const booking = this.getCurrentNodeParameter('booking') as
			{ mode?: string; value?: unknown } | undefined;
		const id = text(booking?.value);
		if (!id) throw chooseFirst(this, 'booking');
		const path =
			booking?.mode === 'externalId'
				? `${BOOKINGS_PATH}/external-id/${encodeURIComponent(id)}`
				: `${BOOKINGS_PATH}/${encodeURIComponent(id)}`;
		const found = (await getFromApi(
			this,
			path,
			{},
			{ forPicker: true, pathHasIds: true },
		)) as IDataObject;
		return filtered(
			found.releases,
			(release) =>
				asItem(
					[text(release.startDate)?.slice(0, 10), text(release.endDate)?.slice(0, 10)]
						.filter(Boolean)
						.join(' to ') + (text(release.reason) ? `: ${text(release.reason)}` : ''),
					release.id,
				),
			filter,
		);
	},

	/** Equipment by title and inventory number, the reference's `title` and `invNumber` (page `equipments`). */
	async searchEquipment(filter, paginationToken) {
		return await searchPage(this, EQUIPMENTS_PATH, { filter, paginationToken }, (equipment) =>
			asItem(named(equipment.title, equipment.invNumber, equipment.id), equipment.id),
		);
	},
};
