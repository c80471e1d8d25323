'use strict';

/**
 * What each operation of openapi.yaml does to the store. The request has already been
 * validated against the document, so a handler only checks what the store knows.
 */

const { randomUUID } = require('node:crypto');
const { HttpError, pathError } = require('./general-error');

const SUCCESS = Object.freeze({ success: true });

/**
 * @typedef {import('./contract').RequestCheck & { pathParams: Record<string, string>, query:
 * Record<string, any>, body: any }} ValidRequest
 * @typedef {{ maxPageSize?: number, clockOffsetMs: number }} Settings
 * @typedef {{ status: number, body: unknown }} OperationResult
 * @typedef {(store: ReturnType<typeof import('./seed').createStore>, request: ValidRequest,
 * settings: Settings) => OperationResult} OperationHandler
 */

/**
 * UUIDs are compared in lower case, the form the store holds, since their hex digits are
 * case-insensitive.
 * @type {Record<string, OperationHandler>}
 */
const handlers = {
	createQuote(store, { body }, settings) {
		const client = store.clients.find((candidate) => candidate.id === body.clientId.toLowerCase());
		if (!client) throw new HttpError(404, `No client has the id ${body.clientId}`, 'clientId');
		const contract = store.contracts.find(
			(candidate) => candidate.id === body.contractId.toLowerCase(),
		);
		if (!contract)
			throw new HttpError(404, `No contract has the id ${body.contractId}`, 'contractId');
		if (contract.clientId !== client.id) {
			throw new HttpError(
				422,
				`Contract ${contract.id} is not a contract of client ${client.id}`,
				'contractId',
			);
		}
		const quote = { ...body, id: randomUUID(), createdAt: apiNow(settings).toISOString() };
		store.quotes.set(quote.id, quote);
		return { status: 201, body: quote };
	},

	listCustomPriceListEntries(store, { pathParams, query }, settings) {
		const entries = store.priceLists.get(pathParams.customPriceId);
		if (!entries) {
			throw pathError(
				404,
				`No custom price list has the id ${pathParams.customPriceId}`,
				'customPriceId',
			);
		}
		const productId = query.productId?.toLowerCase();
		const matching = sortedBy(entries, 'productTitle').filter(
			(entry) =>
				(productId === undefined || entry.productId === productId) &&
				(query.type === undefined || isOfType(store.products.get(entry.productId), query.type)),
		);
		return ok(paginate(matching, query, settings));
	},

	updateRelease(store, { pathParams, body }, settings) {
		const release = store.releases.get(pathParams.id.toLowerCase());
		if (!release) throw pathError(404, `No release has the id ${pathParams.id}`, 'id');
		Object.assign(release, body, { updatedAt: apiNow(settings).toISOString() });
		return ok(release);
	},

	editProductPriceItem(store, { pathParams, body }) {
		const product = findProduct(store, pathParams.id, 'id');
		const priceItem = product.priceItems.find((item) => item.id === pathParams.priceId);
		if (!priceItem) {
			throw pathError(
				404,
				`Product ${product.id} has no price item with the id ${pathParams.priceId}`,
				'priceId',
			);
		}
		// A PUT replaces the item; part 4.4 makes FIXED the default calculation type.
		Object.assign(priceItem, {
			from: body.from,
			price: body.price,
			calculationType: body.calculationType ?? 'FIXED',
		});
		return ok(SUCCESS);
	},

	attachProduct(store, { pathParams, body }) {
		const mainProduct = findProduct(store, pathParams.id, 'id');
		const attachedProduct = findProduct(store, body.productId, 'productId');
		if (attachedProduct.type !== 'SERVICE') {
			throw new HttpError(
				422,
				`Only SERVICE products can be attached; product ${attachedProduct.id} is of type ${attachedProduct.type}`,
				'productId',
			);
		}
		const attached = store.attachments.get(mainProduct.id) ?? new Set();
		if (attached.has(attachedProduct.id)) {
			throw new HttpError(
				409,
				`Product ${attachedProduct.id} is already attached to ${mainProduct.id}`,
				'productId',
			);
		}
		store.attachments.set(mainProduct.id, attached.add(attachedProduct.id));
		return ok(SUCCESS);
	},

	getEquipmentDistance(store, { pathParams }) {
		return ok(store.distances.get(pathParams.date) ?? []);
	},

	deleteInventory(store, { pathParams }) {
		if (!store.inventories.delete(pathParams.id)) {
			throw pathError(404, `No inventory has the id ${pathParams.id}`, 'id');
		}
		return ok(SUCCESS);
	},

	// updatedAfter is compared with updatedAt, which the API's clock wrote (see clockOffsetMs).
	listEquipmentModels(store, { query }, settings) {
		const ids = query.ids === undefined ? undefined : new Set(query.ids.toLowerCase().split(','));
		const updatedAfter =
			query.updatedAfter === undefined ? undefined : Date.parse(query.updatedAfter);
		const search = query.search?.toLowerCase();
		const matching = sortedBy(store.models, 'name').filter(
			(model) =>
				(ids === undefined || ids.has(model.id)) &&
				(query.brandId === undefined || model.brandId === query.brandId.toLowerCase()) &&
				(query.name === undefined || model.name === query.name) &&
				(updatedAfter === undefined || Date.parse(model.updatedAt) > updatedAfter) &&
				(search === undefined || model.name.toLowerCase().includes(search)),
		);
		return ok(paginate(matching, query, settings));
	},
};

/**
 * The API's clock, `clockOffsetMs` ahead of the machine's: an API server's clock need not agree with
 * n8n's.
 * @param {{ clockOffsetMs: number }} settings
 */
function apiNow(settings) {
	return new Date(Date.now() + settings.clockOffsetMs);
}

function ok(body) {
	return { status: 200, body };
}

/**
 * RESOURCE, the vendor's reference's word for every product that is not a service, or one of the
 * description's types (openapi.yaml, ProductType).
 */
function isOfType(product, type) {
	return type === 'RESOURCE' ? product?.type !== 'SERVICE' : product?.type === type;
}

function findProduct(store, id, field) {
	const product = store.products.get(id.toLowerCase());
	if (!product) {
		const message = `No product has the id ${id}`;
		throw field === 'id' ? pathError(404, message, field) : new HttpError(404, message, field);
	}
	return product;
}

/**
 * Deterministic order: by the given text field, then by id (code-unit order, independent of
 * locale).
 */
function sortBy(items, field) {
	const compare = (left, right) => (left < right ? -1 : left > right ? 1 : 0);
	return [...items].sort(
		(left, right) => compare(left[field], right[field]) || compare(left.id, right.id),
	);
}

/**
 * Sorted collections, each with the items and sort keys it was sorted from. Sorting 10,000 models
 * takes about 10 ms: done on every page request, the sandbox's own CPU and not its configured
 * latency would set the pace of paging a large list.
 * @type {WeakMap<object[], { field: string, items: object[], keys: unknown[], ids: unknown[],
 * sorted: object[] }>}
 */
const sortedCollections = new WeakMap();

function isUnchanged(cached, items, field) {
	if (cached.items.length !== items.length) return false;
	for (let index = 0; index < items.length; index++) {
		const item = items[index];
		if (
			item !== cached.items[index] ||
			item[field] !== cached.keys[index] ||
			item.id !== cached.ids[index]
		)
			return false;
	}
	return true;
}

/**
 * `sortBy(items, field)`, sorted again only when an item, its sort key or its id has changed since
 * the last call.
 */
function sortedBy(items, field) {
	const cached = sortedCollections.get(items);
	if (cached?.field === field && isUnchanged(cached, items, field)) return cached.sorted;
	const sorted = sortBy(items, field);
	sortedCollections.set(items, {
		field,
		items: [...items],
		keys: items.map((item) => item[field]),
		ids: items.map((item) => item.id),
		sorted,
	});
	return sorted;
}

/** `maxPageSize` silently caps the requested limit, as a server with a page-size ceiling would. */
function paginate(items, { page, limit }, { maxPageSize }) {
	const pageSize = maxPageSize === undefined ? limit : Math.min(limit, maxPageSize);
	return { content: items.slice((page - 1) * pageSize, page * pageSize), total: items.length };
}

module.exports = { apiNow, handlers };
