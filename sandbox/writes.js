'use strict';

/**
 * The vendor's reference's writes of master data: create, update and delete of clients and their
 * contact persons, contracts, bookings, products and equipment (and equipment by external ID).
 * Each follows its page; openapi.yaml marks `x-assumed` what the pages leave open, and these rules
 * that none of them shows:
 * - null stands for "no value": a create leaves such a field out, a PATCH clears it (the record no
 *   longer has it), a PUT takes it as not sent;
 * - PATCH changes only the fields sent; PUT (equipment) replaces the record: a field not sent is
 *   gone, those the sandbox shows as null when unset are null;
 * - an external ID belongs to one record of a kind: a write that would give it to a second one is
 *   answered 409 naming the external ID (field externalId);
 * - createdAt and updatedAt are stamped by the API's clock, and every write moves updatedAt on by at
 *   least a millisecond, so that a list read with `updatedAfter` the previous stamp shows the record;
 * - DELETE answers `{ success: true }`; a record that other records still name is not deleted (409,
 *   field id), and a deleted record is gone from its list, its get and its get by external ID.
 */

const { randomUUID } = require('node:crypto');
const { HttpError, pathError } = require('./general-error');
const { apiNow, ok, stampAfter, stampWrite, findProduct, views } = require('./handlers');

const { contractView, productView, bookingView, equipmentView } = views;
const SUCCESS = Object.freeze({ success: true });
/** Fields the sandbox's equipment shows as null when unset (as the distance records do). */
const UNSET_EQUIPMENT_FIELDS = Object.freeze({
	invNumber: null,
	beaconId: null,
	modelId: null,
	brandId: null,
});

/** @type {Record<string, import('./handlers').OperationHandler>} */
const writeHandlers = {
	// Clients (page create-client; the clients page lists update and delete)

	createClient(store, { body }, settings) {
		const { contactPersons, ...fields } = body;
		requireUnusedExternalId(store.clients, fields.externalId, 'client');
		requireDistinctExternalIds(contactPersons ?? []);
		const stamp = apiNow(settings).toISOString();
		const id = randomUUID();
		const client = {
			id,
			...present(fields),
			number: fields.number === undefined ? nextClientNumber(store.clients) : Number(fields.number),
			organization: store.organizationId,
			createdAt: stamp,
			updatedAt: stamp,
			contactPersons: (contactPersons ?? []).map((person) => newContactPerson(id, person, stamp)),
		};
		store.clients.push(client);
		return created(client);
	},

	updateClient(store, { pathParams, body }, settings) {
		const client = findClient(store, pathParams.id, 'id');
		requireUnusedExternalId(store.clients, body.externalId, 'client', client.id);
		patch(
			client,
			body.number === undefined ? body : { ...body, number: Number(body.number) },
			settings,
		);
		return ok(client);
	},

	deleteClient(store, { pathParams }) {
		const client = findClient(store, pathParams.id, 'id');
		refuseWhileNamed(
			`Client ${client.id}`,
			store.contracts.filter((contract) => contract.clientId === client.id),
			'contracts',
		);
		store.clients.splice(store.clients.indexOf(client), 1);
		return ok(SUCCESS);
	},

	// Contact persons of a client (page create-contact-person; the clients page lists the others).
	// They are part of their client, whose answer embeds them: their writes move its updatedAt too.

	listContactPersons(store, { pathParams }) {
		return ok(findClient(store, pathParams.clientId, 'clientId').contactPersons);
	},

	createContactPerson(store, { pathParams, body }, settings) {
		const client = findClient(store, pathParams.clientId, 'clientId');
		requireUnusedExternalId(client.contactPersons, body.externalId, 'contact person');
		const person = newContactPerson(client.id, body, apiNow(settings).toISOString());
		client.contactPersons.push(person);
		stampWrite(client, settings);
		return created(person);
	},

	getContactPerson(store, { pathParams }) {
		const client = findClient(store, pathParams.clientId, 'clientId');
		return ok(findContactPerson(client, pathParams.id));
	},

	getContactPersonByExternalId(store, { pathParams }) {
		const client = findClient(store, pathParams.clientId, 'clientId');
		const person = client.contactPersons.find(
			(candidate) => candidate.externalId === pathParams.externalId,
		);
		if (!person) {
			throw pathError(
				404,
				`No contact person of client ${client.id} has the external ID ${pathParams.externalId}`,
				'externalId',
			);
		}
		return ok(person);
	},

	updateContactPerson(store, { pathParams, body }, settings) {
		const client = findClient(store, pathParams.clientId, 'clientId');
		const person = findContactPerson(client, pathParams.id);
		requireUnusedExternalId(client.contactPersons, body.externalId, 'contact person', person.id);
		patch(person, body, settings);
		stampWrite(client, settings);
		return ok(person);
	},

	deleteContactPerson(store, { pathParams }, settings) {
		const client = findClient(store, pathParams.clientId, 'clientId');
		const person = findContactPerson(client, pathParams.id);
		client.contactPersons.splice(client.contactPersons.indexOf(person), 1);
		stampWrite(client, settings);
		return ok(SUCCESS);
	},

	// Contracts (page create-contract; the contracts page lists update and delete)

	createContract(store, { body }, settings) {
		const { contractPosition, contactPosition, ...fields } = body;
		const client = findClient(store, fields.clientId, 'clientId', false);
		requireUnusedExternalId(store.contracts, fields.externalId, 'contract');
		requireEndAfterStart(fields.startDate, fields.endDate);
		const now = apiNow(settings);
		const contract = {
			id: randomUUID(),
			...present(fields),
			clientId: client.id,
			...present({ contactPosition: samePosition(contractPosition, contactPosition) }),
			number: fields.number ?? nextContractNumber(store.contracts, now),
			organization: store.organizationId,
			createdAt: now.toISOString(),
			updatedAt: now.toISOString(),
		};
		setStatusByDates(contract, now);
		store.contracts.push(contract);
		return created(contractView(store, contract));
	},

	updateContract(store, { pathParams, body }, settings) {
		const contract = findRecord(store.contracts, pathParams.id, 'contract');
		const { contractPosition, contactPosition, ...changes } = body;
		if (contractPosition !== undefined || contactPosition !== undefined)
			changes.contactPosition = samePosition(contractPosition, contactPosition);
		if (changes.clientId !== undefined)
			changes.clientId = findClient(store, changes.clientId, 'clientId', false).id;
		requireUnusedExternalId(store.contracts, changes.externalId, 'contract', contract.id);
		requireEndAfterStart(
			changes.startDate ?? contract.startDate,
			changes.endDate ?? contract.endDate,
		);
		patch(contract, changes, settings);
		if (changes.startDate !== undefined || changes.endDate !== undefined)
			setStatusByDates(contract, apiNow(settings));
		return ok(contractView(store, contract));
	},

	deleteContract(store, { pathParams }) {
		const contract = findRecord(store.contracts, pathParams.id, 'contract');
		refuseWhileNamed(
			`Contract ${contract.id}`,
			[...store.bookings.values()].filter((booking) => booking.contractId === contract.id),
			'bookings',
		);
		store.contracts.splice(store.contracts.indexOf(contract), 1);
		return ok(SUCCESS);
	},

	// Bookings (pages create-booking and update-booking; the bookings page lists delete)

	createBooking(store, { body }, settings) {
		const { contractId, productId, entityId, ...fields } = body;
		const contract = findRecord(store.contracts, contractId, 'contract', 'contractId');
		const product = findBookableProduct(store, productId);
		const entity = findEntity(store, product, entityId);
		requireAttachableProducts(store, fields.attachedProducts);
		requireUnusedExternalId([...store.bookings.values()], fields.externalId, 'booking');
		requireEndAfterStart(fields.startDate, fields.endDate);
		const stamp = apiNow(settings).toISOString();
		const booking = {
			id: randomUUID(),
			// Kept for the sandbox's own use (the client is the contract's), as in the seed.
			clientId: contract.clientId,
			contractId: contract.id,
			productId: product.id,
			entityId: entity.id,
			productType: entity.type,
			unitType: product.unitType,
			quantity: 1,
			status: 'RESERVED',
			billingStatus: 'NOT_BILLED',
			...present(fields),
			createdAt: stamp,
			updatedAt: stamp,
			deletedAt: null,
		};
		store.bookings.set(booking.id, booking);
		return created(bookingView(store, booking));
	},

	updateBooking(store, { pathParams, body }, settings) {
		const booking = findBooking(store, pathParams.id);
		const changes = { ...body };
		if (changes.entityId !== undefined) {
			const entity = findEntity(store, store.products.get(booking.productId), changes.entityId);
			Object.assign(changes, { entityId: entity.id, productType: entity.type });
		}
		requireUnusedExternalId(
			[...store.bookings.values()],
			changes.externalId,
			'booking',
			booking.id,
		);
		requireEndAfterStart(
			changes.startDate ?? booking.startDate,
			changes.endDate ?? booking.endDate,
		);
		patch(booking, changes, settings);
		return ok(bookingView(store, booking));
	},

	// A booking's releases are part of it (its answer embeds them): they go with it.
	deleteBooking(store, { pathParams }) {
		const booking = findBooking(store, pathParams.id);
		for (const [id, release] of store.releases)
			if (release.bookingId === booking.id) store.releases.delete(id);
		store.bookings.delete(booking.id);
		return ok(SUCCESS);
	},

	// Products (pages create-product and update-product; the products page lists delete)

	createProduct(store, { body }, settings) {
		const { priceList, ...fields } = body;
		requireUnusedExternalId([...store.products.values()], fields.externalId, 'product');
		const stamp = apiNow(settings).toISOString();
		const product = {
			id: randomUUID(),
			...present(fields),
			number: fields.number ?? nextProductNumber(store.products, fields.type),
			priceItems: priceItemsOf(priceList),
			organizationId: store.organizationId,
			createdAt: stamp,
			updatedAt: stamp,
		};
		store.products.set(product.id, product);
		return created(productView(store, product));
	},

	// A price list sent replaces the product's price items (each gets a new id).
	updateProduct(store, { pathParams, body }, settings) {
		const product = findProduct(store, pathParams.id, 'id');
		const { priceList, ...changes } = body;
		requireUnusedExternalId(
			[...store.products.values()],
			changes.externalId,
			'product',
			product.id,
		);
		if (priceList !== undefined) changes.priceItems = priceItemsOf(priceList);
		patch(product, changes, settings);
		return ok(productView(store, product));
	},

	// Its attachments (to and from other products) go with it; while bookings, equipment or custom
	// price lists name it, it stays.
	deleteProduct(store, { pathParams }) {
		const product = findProduct(store, pathParams.id, 'id');
		refuseWhileNamed(
			`Product ${product.id}`,
			[...store.bookings.values()].filter(
				(booking) =>
					booking.productId === product.id ||
					(booking.attachedProducts ?? []).some((attached) => attached.productId === product.id),
			),
			'bookings',
		);
		refuseWhileNamed(
			`Product ${product.id}`,
			store.equipment.filter((unit) => unit.productId === product.id),
			'pieces of equipment',
		);
		refuseWhileNamed(
			`Product ${product.id}`,
			[...store.priceLists.keys()].filter((customPriceId) =>
				store.priceLists.get(customPriceId).some((entry) => entry.productId === product.id),
			),
			'custom price lists',
		);
		store.attachments.delete(product.id);
		for (const [mainId, attached] of store.attachments) {
			attached.delete(product.id);
			if (attached.size === 0) store.attachments.delete(mainId);
		}
		store.products.delete(product.id);
		return ok(SUCCESS);
	},

	// Equipment (page equipments: its module lists POST, PUT and DELETE without pages of their own)

	createEquipment(store, { body }, settings) {
		const links = knownEquipmentLinks(store, body);
		requireUnusedExternalId(store.equipment, body.externalId, 'piece of equipment');
		const stamp = apiNow(settings).toISOString();
		const unit = {
			id: randomUUID(),
			...UNSET_EQUIPMENT_FIELDS,
			...present(body),
			...links,
			createdAt: stamp,
			updatedAt: stamp,
		};
		store.equipment.push(unit);
		return created(equipmentView(unit));
	},

	// PUT replaces the record: only its id and createdAt stay.
	replaceEquipment(store, { pathParams, body }, settings) {
		const unit = findRecord(store.equipment, pathParams.id, 'equipment');
		const links = knownEquipmentLinks(store, body);
		requireUnusedExternalId(store.equipment, body.externalId, 'piece of equipment', unit.id);
		const replacement = {
			id: unit.id,
			...UNSET_EQUIPMENT_FIELDS,
			...present(body),
			...links,
			createdAt: unit.createdAt,
			updatedAt: stampAfter(apiNow(settings), unit.updatedAt),
		};
		store.equipment[store.equipment.indexOf(unit)] = replacement;
		return ok(equipmentView(replacement));
	},

	// Its distance, usage and working-hours records stay: they are history.
	deleteEquipment(store, { pathParams }) {
		const unit = findRecord(store.equipment, pathParams.id, 'equipment');
		refuseWhileNamed(
			`Equipment ${unit.id}`,
			[...store.bookings.values()].filter((booking) => booking.entityId === unit.id),
			'bookings',
		);
		store.equipment.splice(store.equipment.indexOf(unit), 1);
		return ok(SUCCESS);
	},

	getEquipmentByExternalId(store, { pathParams }) {
		const unit = store.equipment.find(
			(candidate) => candidate.externalId === pathParams.externalId,
		);
		if (!unit) {
			throw pathError(
				404,
				`No equipment has the external ID ${pathParams.externalId}`,
				'externalId',
			);
		}
		return ok(equipmentView(unit));
	},
};

function created(body) {
	return { status: 201, body };
}

/** The fields that hold a value: null stands for "no value", and a create leaves such fields out. */
function present(fields) {
	return Object.fromEntries(
		Object.entries(fields).filter(([, value]) => value !== null && value !== undefined),
	);
}

/**
 * A PATCH: the fields sent change, a field sent as null is cleared (the record no longer has it),
 * and updatedAt moves on.
 */
function patch(record, changes, settings) {
	for (const [field, value] of Object.entries(changes)) {
		if (value === null) delete record[field];
		else record[field] = value;
	}
	stampWrite(record, settings);
}

/**
 * 409 when another record of the kind already has the external ID (the reference does not say
 * whether external IDs are unique; a get by external ID can only answer one record).
 * @param {Array<{ id: string, externalId?: string }>} records
 * @param {string | null | undefined} externalId
 * @param {string} kind
 * @param {string} [ownId] the record being written, which may keep its own external ID
 */
function requireUnusedExternalId(records, externalId, kind, ownId) {
	if (externalId === undefined || externalId === null) return;
	const holder = records.find((record) => record.externalId === externalId && record.id !== ownId);
	if (holder) {
		throw new HttpError(
			409,
			`The external ID ${externalId} is already taken by ${kind} ${holder.id}`,
			'externalId',
		);
	}
}

/** The contact persons of one new client: no two with the same external ID. */
function requireDistinctExternalIds(contactPersons) {
	const seen = new Set();
	for (const { externalId } of contactPersons) {
		if (externalId === undefined || externalId === null) continue;
		if (seen.has(externalId)) {
			throw new HttpError(
				409,
				`The external ID ${externalId} is given to more than one contact person`,
				'contactPersons',
			);
		}
		seen.add(externalId);
	}
}

/** 409 (field id) while other records name the one to delete. */
function refuseWhileNamed(record, namedBy, what) {
	if (namedBy.length === 0) return;
	throw pathError(
		409,
		`${record} is still named by ${namedBy.length} ${what}: it cannot be deleted before them`,
		'id',
	);
}

function requireEndAfterStart(startDate, endDate) {
	if (Date.parse(endDate) < Date.parse(startDate))
		throw new HttpError(400, `endDate ${endDate} is before startDate ${startDate}`, 'endDate');
}

/**
 * A 404 about a record an ID names: in the path (its parameter) or in the body (its field).
 * @param {string} message
 * @param {string} field
 * @param {boolean} inPath
 */
function notFound(message, field, inPath) {
	return inPath ? pathError(404, message, field) : new HttpError(404, message, field);
}

/**
 * The record of `records` with the id (UUIDs compared in lower case, the form the store holds).
 * @template {{ id: string }} T
 * @param {T[]} records
 * @param {string} id
 * @param {string} kind
 * @param {string} [bodyField] the body field that names it; the path's id when left out
 * @returns {T}
 */
function findRecord(records, id, kind, bodyField) {
	const record = records.find((candidate) => candidate.id === id.toLowerCase());
	if (!record) throw notFound(`No ${kind} has the id ${id}`, bodyField ?? 'id', !bodyField);
	return record;
}

/**
 * @param {string} field the path parameter (id; clientId of the contact persons' paths) or, with
 * inPath false, the body field (a contract's clientId) that names the client
 */
function findClient(store, id, field, inPath = true) {
	const client = store.clients.find((candidate) => candidate.id === id.toLowerCase());
	if (!client) throw notFound(`No client has the id ${id}`, field, inPath);
	return client;
}

function findContactPerson(client, id) {
	const person = client.contactPersons.find((candidate) => candidate.id === id.toLowerCase());
	if (!person)
		throw pathError(404, `No contact person of client ${client.id} has the id ${id}`, 'id');
	return person;
}

function findBooking(store, id) {
	const booking = store.bookings.get(id.toLowerCase());
	if (!booking) throw pathError(404, `No booking has the id ${id}`, 'id');
	return booking;
}

/** A product that can be booked: any but a service (services are attached to bookings). */
function findBookableProduct(store, productId) {
	const product = findProduct(store, productId, 'productId');
	if (product.type === 'SERVICE') {
		throw new HttpError(
			422,
			`Product ${product.id} is a SERVICE: services are attached to a booking (attachedProducts), not booked`,
			'productId',
		);
	}
	return product;
}

/**
 * What a booking books: a piece of equipment, or (for a PERSON product, since the sandbox models no
 * staff) a person, whose ID is taken as given.
 * @returns {{ id: string, type: 'EQUIPMENT' | 'PERSON' }}
 */
function findEntity(store, product, entityId) {
	const unit = store.equipment.find((candidate) => candidate.id === entityId.toLowerCase());
	if (unit) return { id: unit.id, type: 'EQUIPMENT' };
	if (product?.type === 'PERSON') return { id: entityId.toLowerCase(), type: 'PERSON' };
	throw new HttpError(
		404,
		`No equipment has the id ${entityId} (a booking of product ${product?.id} books a piece of equipment)`,
		'entityId',
	);
}

/** A booking's attached products: known service products, as the attach page requires. */
function requireAttachableProducts(store, attachedProducts) {
	for (const { productId } of attachedProducts ?? []) {
		const product = store.products.get(productId.toLowerCase());
		if (!product)
			throw new HttpError(404, `No product has the id ${productId}`, 'attachedProducts');
		if (product.type !== 'SERVICE') {
			throw new HttpError(
				422,
				`Only SERVICE products can be attached; product ${product.id} is of type ${product.type}`,
				'attachedProducts',
			);
		}
	}
}

/** The product, model and brand a piece of equipment names, as the store holds their IDs. */
function knownEquipmentLinks(store, { productId, modelId, brandId }) {
	const links = {};
	if (productId !== undefined && productId !== null)
		links.productId = findProduct(store, productId, 'productId').id;
	if (modelId !== undefined && modelId !== null)
		links.modelId = findRecord(store.models, modelId, 'equipment model', 'modelId').id;
	if (brandId !== undefined && brandId !== null)
		links.brandId = findRecord(store.brands, brandId, 'brand', 'brandId').id;
	return links;
}

/**
 * One of a contract's two names for the contact's position: create-contract's body says
 * contractPosition, the contract model contactPosition. Both are taken; sent together, they must
 * agree.
 */
function samePosition(contractPosition, contactPosition) {
	const sent = [contractPosition, contactPosition].filter((value) => value !== undefined);
	if (sent.length === 2 && sent[0] !== sent[1]) {
		throw new HttpError(
			400,
			'contractPosition and contactPosition are the same field and were sent with different values',
			'contractPosition',
		);
	}
	return sent[0];
}

/** PLANNED before the start, COMPLETED after the end, IN_PROGRESS between, as the seed's. */
function setStatusByDates(contract, now) {
	const status =
		Date.parse(contract.startDate) > now.getTime()
			? 'PLANNED'
			: Date.parse(contract.endDate) < now.getTime()
				? 'COMPLETED'
				: 'IN_PROGRESS';
	Object.assign(contract, { status, isInactive: status === 'COMPLETED' });
}

function newContactPerson(clientId, fields, stamp) {
	return {
		id: randomUUID(),
		clientId,
		...present(fields),
		createdAt: stamp,
		updatedAt: stamp,
	};
}

function priceItemsOf(priceList) {
	return priceList.map(({ from, price }) => ({
		id: randomUUID(),
		from,
		price,
		calculationType: 'FIXED',
	}));
}

/** The first number after the highest a client has. */
function nextClientNumber(clients) {
	return Math.max(10000, ...clients.map((client) => client.number ?? 0)) + 1;
}

/** CT-<year>-<sequence>, as the seed numbers contracts, the first sequence no contract has. */
function nextContractNumber(contracts, now) {
	return unusedNumber(
		new Set(contracts.map((contract) => contract.number)),
		(sequence) => `CT-${now.getUTCFullYear()}-${String(sequence).padStart(4, '0')}`,
		contracts.length + 1,
	);
}

/** SV-<sequence> for a service, RS-<sequence> for a resource. */
function nextProductNumber(products, type) {
	const prefix = type === 'SERVICE' ? 'SV' : 'RS';
	return unusedNumber(
		new Set([...products.values()].map((product) => product.number)),
		(sequence) => `${prefix}-${sequence}`,
		1001 + products.size,
	);
}

function unusedNumber(taken, format, first) {
	let sequence = first;
	while (taken.has(format(sequence))) sequence += 1;
	return format(sequence);
}

module.exports = { writeHandlers };
