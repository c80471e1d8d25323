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

	editProductPriceItem(store, { pathParams, body }, settings) {
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
		stampWrite(product, settings);
		return ok(SUCCESS);
	},

	attachProduct(store, { pathParams, body }, settings) {
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
		stampWrite(mainProduct, settings);
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

	// Reference data: the read operations of the vendor's reference (and three product writes), so
	// that the node can look up IDs. The answers follow the reference's pages; openapi.yaml marks
	// what the pages leave open.

	listClients(store, { query }, settings) {
		const matching = ordered(store.clients, query).filter(
			(client) =>
				matchesSearch(query.search, [client.name, client.number, client.externalId]) &&
				(query.status === undefined || client.status === query.status) &&
				(query.partnerType === undefined || client.partnerType === query.partnerType) &&
				isUpdatedAfter(client, query.updatedAfter),
		);
		return ok(paginate(matching, query, settings));
	},

	getClient(store, { pathParams }) {
		const id = pathParams.id.toLowerCase();
		return ok(
			found(
				store.clients.find((client) => client.id === id),
				`No client has the id ${pathParams.id}`,
				'id',
			),
		);
	},

	getClientByExternalId(store, { pathParams }) {
		return ok(
			found(
				store.clients.find((client) => client.externalId === pathParams.externalId),
				`No client has the external ID ${pathParams.externalId}`,
				'externalId',
			),
		);
	},

	// A clientId that no client has matches no contract (an empty page, not 404).
	listContracts(store, { query }, settings) {
		const clientId = query.clientId?.toLowerCase();
		const matching = ordered(store.contracts, query).filter(
			(contract) =>
				(clientId === undefined || contract.clientId === clientId) &&
				(query.status === undefined || contract.status === query.status) &&
				matchesSearch(query.search, [contract.title, contract.number, contract.externalId]) &&
				isUpdatedAfter(contract, query.updatedAfter),
		);
		return ok(
			pageOf(paginate(matching, query, settings), (contract) => contractView(store, contract)),
		);
	},

	getContract(store, { pathParams }) {
		const id = pathParams.id.toLowerCase();
		const contract = found(
			store.contracts.find((candidate) => candidate.id === id),
			`No contract has the id ${pathParams.id}`,
			'id',
		);
		return ok(contractView(store, contract));
	},

	getContractByExternalId(store, { pathParams }) {
		const contract = found(
			store.contracts.find((candidate) => candidate.externalId === pathParams.externalId),
			`No contract has the external ID ${pathParams.externalId}`,
			'externalId',
		);
		return ok(contractView(store, contract));
	},

	listProducts(store, { query }, settings) {
		const matching = ordered([...store.products.values()], query).filter(
			(product) =>
				(query.type === undefined || isOfType(product, query.type)) &&
				matchesSearch(query.search, [product.title, product.number, product.externalId]) &&
				isUpdatedAfter(product, query.updatedAfter),
		);
		return ok(
			pageOf(paginate(matching, query, settings), (product) => productView(store, product)),
		);
	},

	getProduct(store, { pathParams }) {
		return ok(productView(store, findProduct(store, pathParams.id, 'id')));
	},

	// The reference names this path parameter {id}, though it holds the external ID.
	getProductByExternalId(store, { pathParams }) {
		const product = found(
			[...store.products.values()].find((candidate) => candidate.externalId === pathParams.id),
			`No product has the external ID ${pathParams.id}`,
			'id',
		);
		return ok(productView(store, product));
	},

	// The reference's body has no calculation type; part 4.4 makes FIXED the default.
	addPriceItem(store, { pathParams, body }, settings) {
		const product = findProduct(store, pathParams.id, 'id');
		product.priceItems.push({
			id: randomUUID(),
			from: body.from,
			price: body.price,
			calculationType: 'FIXED',
		});
		stampWrite(product, settings);
		return { status: 201, body: SUCCESS };
	},

	deletePriceItem(store, { pathParams }, settings) {
		const product = findProduct(store, pathParams.id, 'id');
		const priceId = pathParams.priceId.toLowerCase();
		const index = product.priceItems.findIndex((item) => item.id === priceId);
		if (index === -1) {
			throw pathError(
				404,
				`Product ${product.id} has no price item with the id ${pathParams.priceId}`,
				'priceId',
			);
		}
		product.priceItems.splice(index, 1);
		stampWrite(product, settings);
		return ok(SUCCESS);
	},

	detachProduct(store, { pathParams, body }, settings) {
		const mainProduct = findProduct(store, pathParams.id, 'id');
		const productId = body.productId.toLowerCase();
		const attached = store.attachments.get(mainProduct.id);
		if (!attached?.delete(productId)) {
			throw new HttpError(
				404,
				`Product ${body.productId} is not attached to ${mainProduct.id}`,
				'productId',
			);
		}
		// An empty set would still answer has(): a product without attachments has no entry.
		if (attached.size === 0) store.attachments.delete(mainProduct.id);
		stampWrite(mainProduct, settings);
		return ok(SUCCESS);
	},

	getBooking(store, { pathParams }) {
		const booking = found(
			store.bookings.get(pathParams.id.toLowerCase()),
			`No booking has the id ${pathParams.id}`,
			'id',
		);
		return ok(bookingView(store, booking));
	},

	getBookingByExternalId(store, { pathParams }) {
		const booking = found(
			[...store.bookings.values()].find(
				(candidate) => candidate.externalId === pathParams.externalId,
			),
			`No booking has the external ID ${pathParams.externalId}`,
			'externalId',
		);
		return ok(bookingView(store, booking));
	},

	listEquipment(store, { query }, settings) {
		const productId = query.productId?.toLowerCase();
		const modelId = query.modelId?.toLowerCase();
		const brandId = query.brandId?.toLowerCase();
		const matching = sortedBy(store.equipment, 'title').filter(
			(unit) =>
				matchesSearch(query.search, [unit.invNumber, unit.id, unit.title, unit.externalId]) &&
				(productId === undefined || unit.productId === productId) &&
				(modelId === undefined || unit.modelId === modelId) &&
				(brandId === undefined || unit.brandId === brandId),
		);
		return ok(pageOf(paginate(matching, query, settings), equipmentView));
	},

	getEquipment(store, { pathParams }) {
		const id = pathParams.id.toLowerCase();
		const unit = found(
			store.equipment.find((candidate) => candidate.id === id),
			`No equipment has the id ${pathParams.id}`,
			'id',
		);
		return ok(equipmentView(unit));
	},

	getEquipmentUsage(store, { pathParams }) {
		return ok(store.equipmentUsage.get(pathParams.date) ?? []);
	},

	getEquipmentWorkingHours(store, { pathParams }) {
		return ok(store.workingHours.get(pathParams.date) ?? []);
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

/**
 * The moment of a write by the API's clock, at least a millisecond after the record's previous
 * updatedAt: two writes in the same millisecond are still told apart by `updatedAfter`.
 * @param {Date} now
 * @param {string} [previous]
 */
function stampAfter(now, previous) {
	const previousMs = previous === undefined ? -Infinity : Date.parse(previous) + 1;
	return new Date(Math.max(now.getTime(), previousMs)).toISOString();
}

/** Moves the record's updatedAt on for a write (stampAfter). */
function stampWrite(record, settings) {
	record.updatedAt = stampAfter(apiNow(settings), record.updatedAt);
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

/**
 * The items in the order the query asks for: by `sortBy` (then id), reversed for DESC. The reference
 * writes the direction in capitals; lower case is taken as well.
 */
function ordered(items, { sortBy, sortDirection }) {
	const ascending = sortedBy(items, sortBy);
	return sortDirection.toUpperCase() === 'DESC' ? [...ascending].reverse() : ascending;
}

/** Whether a case-insensitive `search` is part of one of the values (all match without one). */
function matchesSearch(search, values) {
	if (search === undefined) return true;
	const needle = search.toLowerCase();
	return values.some((value) => value != null && String(value).toLowerCase().includes(needle));
}

/** Updated strictly after `updatedAfter` (all match without one), by the API's clock's stamps. */
function isUpdatedAfter(record, updatedAfter) {
	return updatedAfter === undefined || Date.parse(record.updatedAt) > Date.parse(updatedAfter);
}

/**
 * The record, or a 404 naming the path parameter that led nowhere.
 * @template T
 * @param {T | undefined} record
 * @param {string} message
 * @param {string} name
 * @returns {T}
 */
function found(record, message, name) {
	if (record === undefined) throw pathError(404, message, name);
	return record;
}

function pageOf(page, view) {
	return { content: page.content.map(view), total: page.total };
}

/**
 * The reference's product (page `products`): RESOURCE for every type that is not a service, the price
 * items as id, from and price, the custom price list entries that hold the product, and the service
 * products attached to it and the products it is attached to.
 */
function productView(store, product) {
	const link = (id) => {
		const linked = store.products.get(id);
		return { id, title: linked.title, number: linked.number, type: referenceType(linked) };
	};
	const attachedTo = [...store.attachments]
		.filter(([, attached]) => attached.has(product.id))
		.map(([mainId]) => link(mainId));
	return {
		id: product.id,
		externalId: product.externalId,
		title: product.title,
		number: product.number,
		additionalInformation: product.additionalInformation,
		createdAt: product.createdAt,
		updatedAt: product.updatedAt,
		type: referenceType(product),
		unitType: product.unitType,
		defaultPeriodType: product.defaultPeriodType,
		defaultQuantity: product.defaultQuantity,
		authorId: product.authorId,
		organizationId: product.organizationId,
		// Sorted by quantity, as tiers are read; sort keeps items of the same `from` in their order.
		priceList: [...product.priceItems]
			.sort((left, right) => left.from - right.from)
			.map(({ id, from, price }) => ({ id, from, price })),
		customPriceList: [...store.priceLists].flatMap(([customPriceId, entries]) =>
			entries
				.filter((entry) => entry.productId === product.id)
				.flatMap((entry) => [entry, ...entry.children])
				.map((entry) => ({
					id: entry.id,
					customPriceId,
					from: entry.from,
					price: entry.priceListPrice,
				})),
		),
		attachments: [...(store.attachments.get(product.id) ?? [])].map(link),
		attachedTo,
	};
}

function referenceType(product) {
	return product.type === 'SERVICE' ? 'SERVICE' : 'RESOURCE';
}

/** The reference's contract (page `contracts`), with the IDs of its bookings. */
function contractView(store, contract) {
	const bookings = [...store.bookings.values()]
		.filter((booking) => booking.contractId === contract.id)
		.map((booking) => ({ id: booking.id, externalId: booking.externalId }));
	return { ...contract, bookings };
}

/**
 * The reference's booking (page `bookings`): its contract and its releases embedded. The client is
 * the contract's (contract.clientId); the reference shows no clientId of the booking itself.
 */
function bookingView(store, booking) {
	const { clientId: _clientId, ...fields } = booking;
	const contract = store.contracts.find((candidate) => candidate.id === booking.contractId);
	const releases = sortedBy(
		[...store.releases.values()].filter((release) => release.bookingId === booking.id),
		'startDate',
	);
	return { ...fields, contract: contractView(store, contract), releases };
}

/** The reference's equipment (page `equipments`); the sandbox tracks no inventory of it. */
function equipmentView(unit) {
	return { ...unit, inventory: [] };
}

/** `maxPageSize` silently caps the requested limit, as a server with a page-size ceiling would. */
function paginate(items, { page, limit }, { maxPageSize }) {
	const pageSize = maxPageSize === undefined ? limit : Math.min(limit, maxPageSize);
	return { content: items.slice((page - 1) * pageSize, page * pageSize), total: items.length };
}

module.exports = {
	apiNow,
	handlers,
	// For the writes (writes.js) and the administration paths (admin.js), which answer records as
	// the reads show them.
	ok,
	stampAfter,
	stampWrite,
	findProduct,
	views: { contractView, productView, bookingView, equipmentView },
};
