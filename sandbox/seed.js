'use strict';

const { createStreamRandom } = require('./random');

const DAY_MS = 24 * 60 * 60 * 1000;

/** [type, title, unit, base price, calculation type of its price items] */
const PRODUCT_CATALOG = [
	['EQUIPMENT', 'Crawler excavator 20 t', 'day', 420, 'FIXED'],
	['EQUIPMENT', 'Mini excavator 1.8 t', 'day', 95, 'FIXED'],
	['EQUIPMENT', 'Crawler excavator 14 t', 'day', 310, 'FIXED'],
	['EQUIPMENT', 'Wheel loader 5 t', 'day', 260, 'FIXED'],
	['EQUIPMENT', 'Scissor lift 8 m electric', 'day', 85, 'FIXED'],
	['EQUIPMENT', 'Scissor lift 12 m diesel', 'day', 140, 'FIXED'],
	['EQUIPMENT', 'Articulating boom lift 16 m', 'day', 210, 'FIXED'],
	['EQUIPMENT', 'Telescopic handler 4 t / 14 m', 'day', 230, 'FIXED'],
	['EQUIPMENT', 'Vibratory plate compactor 90 kg', 'day', 45, 'FIXED'],
	['EQUIPMENT', 'Tandem roller 2.5 t', 'day', 150, 'FIXED'],
	['EQUIPMENT', 'Site dumper 3 t', 'day', 120, 'FIXED'],
	['EQUIPMENT', 'Mobile generator 100 kVA', 'day', 175, 'FIXED'],
	['EQUIPMENT', 'LED tower light', 'day', 55, 'FIXED'],
	['EQUIPMENT', 'Forklift 2.5 t', 'day', 110, 'FIXED'],
	['PERSON', 'Excavator operator', 'hour', 62, 'FIXED'],
	['PERSON', 'Crane operator', 'hour', 78, 'FIXED'],
	['PERSON', 'Lift operator (IPAF certified)', 'hour', 58, 'FIXED'],
	['PERSON', 'Site supervisor', 'hour', 85, 'FIXED'],
	['PERSON', 'Truck driver', 'hour', 54, 'FIXED'],
	['SERVICE', 'Delivery and pick-up', 'km', 2.4, 'FIXED'],
	['SERVICE', 'Final cleaning', 'flat rate', 65, 'FIXED'],
	['SERVICE', 'Damage waiver insurance', 'percent', 12, 'PERCENTAGE'],
	['SERVICE', 'Refuelling service', 'litre', 2.1, 'FIXED'],
	['SERVICE', 'On-site machine briefing', 'hour', 70, 'FIXED'],
	['SERVICE', 'Weekend surcharge', 'percent', 25, 'PERCENTAGE'],
	['INVENTORY', 'Safety harness', 'piece', 6, 'FIXED'],
	['INVENTORY', 'Traffic cone', 'piece', 0.8, 'FIXED'],
	['INVENTORY', 'Barrier fence panel 3.5 m', 'piece', 2.5, 'FIXED'],
	['INVENTORY', 'Extension cable 25 m', 'piece', 4, 'FIXED'],
	['INVENTORY', 'Ground protection mat', 'piece', 9, 'FIXED'],
	['INVENTORY', 'Hydraulic breaker attachment', 'piece', 48, 'FIXED'],
	['INVENTORY', 'Digging bucket 600 mm', 'piece', 15, 'FIXED'],
];

const PRODUCT_NUMBER_PREFIX = { EQUIPMENT: 'EQ', PERSON: 'PE', SERVICE: 'SV', INVENTORY: 'IN' };

/** Quantities at which a cheaper tier starts, by unit. */
const TIER_STARTS = {
	day: [1, 3, 7],
	hour: [1, 8, 40],
	piece: [1, 10, 50],
	km: [1, 50],
	litre: [1, 100],
	'flat rate': [1],
	percent: [1],
};

/** Each further tier takes this share of the base price off the unit price. */
const FURTHER_TIER_DISCOUNT = 0.08;

/** Share of the products each custom price list holds; the first (the fixture) holds all. */
const CUSTOM_PRICE_LIST_SHARE = [1, 0.7, 0.5];
const DISCOUNT_PERCENTAGES = [5, 7.5, 10, 12.5, 15, 20];

const CLIENT_NAMES = [
	'Nordbau GmbH',
	'Harbour Construction Ltd',
	'Greenfield Landscaping',
	'City of Riverton',
	'Skyline Facades',
	'Atlas Events',
];

const RELEASE_REASONS = ['Partial return', 'Early return', 'Weather downtime', 'Machine swap'];
const DEPOTS = ['Depot North', 'Depot South', 'Depot Harbour', 'Depot Airport'];

const BRAND_NAMES = [
	'Caterpillar',
	'Komatsu',
	'Liebherr',
	'Volvo CE',
	'JCB',
	'Hitachi',
	'Kubota',
	'Takeuchi',
	'Bobcat',
	'Wacker Neuson',
	'JLG',
	'Genie',
	'Haulotte',
	'Manitou',
	'Bomag',
];

/** [category, model series prefixes] */
const MODEL_CATEGORIES = [
	['Excavator', ['', 'E', 'EC', 'R', 'ZX']],
	['Wheel loader', ['L', 'WL', 'W']],
	['Scissor lift', ['GS', 'SL', 'ES']],
	['Boom lift', ['Z', 'HA', 'AB']],
	['Telehandler', ['MT', 'TH', 'TL']],
	['Compactor', ['BW', 'BP', 'VP']],
	['Dumper', ['D', 'SD']],
	['Generator', ['G', 'GP']],
];
const MODEL_SUFFIXES = ['', ' LC', ' E', ' Pro', ' XR', ' RT', ' Gen 2'];

/**
 * @typedef {'EQUIPMENT' | 'PERSON' | 'SERVICE' | 'INVENTORY'} ProductType
 * @typedef {{ id: string, from: number, price: number, calculationType: 'FIXED' | 'PERCENTAGE' }}
 * PriceItem
 * @typedef {{ id: string, type: ProductType, title: string, number: string, unit: string,
 * priceItems: PriceItem[] }} Product
 * @typedef {object} PriceListEntry custom price list entry of part 2.2
 * @property {string} id
 * @property {string} productId
 * @property {string} productTitle
 * @property {string} productNumber
 * @property {number} from
 * @property {string} productUnit
 * @property {number} standardPrice
 * @property {number} discount
 * @property {number} discountTotal
 * @property {number} priceListPrice
 * @property {'PRICE' | 'PERCENTAGE'} discountCalculation
 * @property {PriceListEntry[]} children
 * @typedef {{ id: string, clientId: string, contractId: string, productId: string, quantity:
 * number, startDate: string, endDate: string }} Booking
 * @typedef {object} Release
 * @property {string} id
 * @property {string} bookingId
 * @property {string} startDate
 * @property {string} endDate
 * @property {number} percentage
 * @property {number} quantity
 * @property {string} reason
 * @property {string} externalId
 * @property {string} createdAt
 * @property {string} updatedAt
 * @typedef {{ id: string, productId: string, serialNumber: string, location: string }} Inventory
 * @typedef {{ id: string, name: string }} Brand
 * @typedef {{ id: string, name: string, brandId: string, brand: Brand, category: string, updatedAt:
 * string, createdAt: string }} ModelEntity
 * @typedef {{ id: string, productId: string, invNumber: string | null, beaconId: string | null }}
 * EquipmentUnit
 * @typedef {object} EquipmentDistance distance record of part 2.5
 * @property {string} id
 * @property {string} date
 * @property {number | null} distance
 * @property {string} equipmentId
 * @property {{ id: string, invNumber: string | null, beaconId: string | null }} equipment
 */

/**
 * @typedef {object} SeedOptions
 * @property {number} [seed] seed of the generator (default 1)
 * @property {number} [models] number of equipment models (default 2000)
 * @property {number} [equipment] number of pieces of equipment with distance reports (default 200)
 * @property {number} [days] number of days of distance reports, ending yesterday (default 30)
 * @property {string | Date} [today] reference date (default: the current UTC date)
 */

/**
 * Builds the in-memory store of the sandbox: deterministic for a given seed and reference date.
 * @param {SeedOptions} [options]
 */
function createStore(options = {}) {
	const { seed = 1, models = 2000, equipment = 200, days = 30 } = options;
	const today = startOfUtcDay(options.today === undefined ? new Date() : new Date(options.today));
	const randomFor = (stream) => createStreamRandom(seed, stream);

	const products = createProducts(randomFor('products'));
	const priceLists = createCustomPriceLists(randomFor('price-lists'), products);
	const { clients, contracts } = createClientsAndContracts(randomFor('clients'));
	const bookings = createBookings(randomFor('bookings'), { contracts, products, today });
	const releases = createReleases(randomFor('releases'), bookings, today);
	const inventories = createInventories(randomFor('inventories'), products);
	const brandRandom = randomFor('brands');
	const brands = BRAND_NAMES.map((name) => ({ id: brandRandom.uuid(), name }));
	const modelList = createModels(randomFor('models'), { brands, count: models, today });
	const equipmentUnits = createEquipmentUnits(randomFor('equipment'), {
		products,
		count: equipment,
	});
	const distances = createDistanceReports(randomFor('distances'), { equipmentUnits, days, today });

	const productOfType = (type) => [...products.values()].find((product) => product.type === type);
	const equipmentProduct = productOfType('EQUIPMENT');
	const [customPriceId] = priceLists.keys();
	const [firstRelease] = releases.values();
	const releaseBooking = bookings.get(firstRelease.bookingId);

	return {
		products,
		priceLists,
		/** @type {Map<string, Set<string>>} main product id -> ids of the attached service products */
		attachments: new Map(),
		clients,
		contracts,
		bookings,
		releases,
		inventories,
		/** @type {Map<string, Record<string, unknown>>} */
		quotes: new Map(),
		brands,
		models: modelList,
		equipment: equipmentUnits,
		distances,
		fixtures: {
			customPriceId,
			equipmentProductId: equipmentProduct.id,
			serviceProductId: productOfType('SERVICE').id,
			personProductId: productOfType('PERSON').id,
			inventoryProductId: productOfType('INVENTORY').id,
			priceId: equipmentProduct.priceItems[0].id,
			releaseId: firstRelease.id,
			bookingId: releaseBooking.id,
			clientId: releaseBooking.clientId,
			contractId: releaseBooking.contractId,
			inventoryId: [...inventories.keys()][0],
			brandId: brands[0].id,
			modelId: modelList[0]?.id,
			equipmentId: equipmentUnits.find((unit) => unit.invNumber && unit.beaconId)?.id,
			distanceDate: formatDate(new Date(today.getTime() - DAY_MS)),
		},
	};
}

function createProducts(random) {
	/** @type {Map<string, Product>} */
	const products = new Map();
	PRODUCT_CATALOG.forEach(([type, title, unit, basePrice, calculationType], index) => {
		const id = random.uuid();
		const priceItems = TIER_STARTS[unit].map((from, tier) => ({
			id: random.uuid(),
			from,
			price: roundCents(basePrice * (1 - FURTHER_TIER_DISCOUNT * tier)),
			calculationType,
		}));
		const number = `${PRODUCT_NUMBER_PREFIX[type]}-${1001 + index}`;
		products.set(id, { id, type, title, number, unit, priceItems });
	});
	return products;
}

/**
 * Custom price lists whose entries follow PriceList (part 2.2): the first tier, with the further
 * tiers as children.
 */
function createCustomPriceLists(random, products) {
	/** @type {Map<string, PriceListEntry[]>} customPriceId -> entries */
	const priceLists = new Map();
	for (const share of CUSTOM_PRICE_LIST_SHARE) {
		const entries = [...products.values()]
			.filter(() => random.chance(share))
			.map((product) => {
				const discountCalculation = random.pick(['PRICE', 'PERCENTAGE']);
				const discount = random.pick(DISCOUNT_PERCENTAGES);
				const tierEntry = (priceItem) =>
					priceListEntry(random.uuid(), product, priceItem, discountCalculation, discount);
				const [firstTier, ...furtherTiers] = product.priceItems;
				return {
					...tierEntry(firstTier),
					children: furtherTiers.map((priceItem) => ({ ...tierEntry(priceItem), children: [] })),
				};
			});
		priceLists.set(random.uuid(), entries);
	}
	return priceLists;
}

function priceListEntry(id, product, priceItem, discountCalculation, discount) {
	const priceListPrice = roundCents(priceItem.price * (1 - discount / 100));
	return {
		id,
		productId: product.id,
		productTitle: product.title,
		productNumber: product.number,
		from: priceItem.from,
		productUnit: product.unit,
		standardPrice: priceItem.price,
		discount,
		discountTotal: roundCents(priceItem.price - priceListPrice),
		priceListPrice,
		discountCalculation,
	};
}

function createClientsAndContracts(random) {
	const clients = CLIENT_NAMES.map((name) => ({ id: random.uuid(), name }));
	const contracts = clients.flatMap((client, clientIndex) =>
		Array.from({ length: random.integer(1, 2) }, (_, contractIndex) => ({
			id: random.uuid(),
			clientId: client.id,
			number: `CT-${2024 + contractIndex}-${String(clientIndex + 1).padStart(4, '0')}`,
		})),
	);
	return { clients, contracts };
}

function createBookings(random, { contracts, products, today }) {
	const bookable = [...products.values()].filter((product) =>
		['EQUIPMENT', 'PERSON'].includes(product.type),
	);
	/** @type {Map<string, Booking>} */
	const bookings = new Map();
	for (let index = 0; index < 24; index += 1) {
		const contract = random.pick(contracts);
		const start = today.getTime() + random.integer(-60, 30) * DAY_MS + 7 * 60 * 60 * 1000;
		const booking = {
			id: random.uuid(),
			clientId: contract.clientId,
			contractId: contract.id,
			productId: random.pick(bookable).id,
			quantity: random.integer(1, 4),
			startDate: new Date(start).toISOString(),
			endDate: new Date(start + random.integer(2, 21) * DAY_MS).toISOString(),
		};
		bookings.set(booking.id, booking);
	}
	return bookings;
}

function createReleases(random, bookings, today) {
	/** @type {Map<string, Release>} */
	const releases = new Map();
	for (const booking of bookings.values()) {
		const releaseCount = random.integer(1, 2);
		for (let index = 0; index < releaseCount; index += 1) {
			const bookingStart = Date.parse(booking.startDate);
			const bookingDays = (Date.parse(booking.endDate) - bookingStart) / DAY_MS;
			const startDate = new Date(bookingStart + random.integer(1, bookingDays - 1) * DAY_MS);
			const createdAt = new Date(today.getTime() - random.integer(1, 90) * DAY_MS).toISOString();
			const release = {
				id: random.uuid(),
				bookingId: booking.id,
				startDate: startDate.toISOString(),
				endDate: booking.endDate,
				percentage: random.pick([25, 50, 100]),
				quantity: random.pick([0.5, 1, 1.5, 2]),
				reason: random.pick(RELEASE_REASONS),
				externalId: `ERP-REL-${random.integer(10000, 99999)}`,
				createdAt,
				updatedAt: createdAt,
			};
			releases.set(release.id, release);
		}
	}
	return releases;
}

function createInventories(random, products) {
	const inventoryProducts = [...products.values()].filter(
		(product) => product.type === 'INVENTORY',
	);
	/** @type {Map<string, Inventory>} */
	const inventories = new Map();
	for (let index = 0; index < 40; index += 1) {
		const inventory = {
			id: random.uuid(),
			productId: random.pick(inventoryProducts).id,
			serialNumber: `SN-${random.integer(100000, 999999)}`,
			location: random.pick(DEPOTS),
		};
		inventories.set(inventory.id, inventory);
	}
	return inventories;
}

/** Models with unique names and updatedAt spread over the two years before the reference date. */
function createModels(random, { brands, count, today }) {
	const usedNames = new Set();
	/** @type {ModelEntity[]} */
	const models = [];
	while (models.length < count) {
		const brand = random.pick(brands);
		const [category, seriesPrefixes] = random.pick(MODEL_CATEGORIES);
		const name = `${brand.name} ${random.pick(seriesPrefixes)}${random.integer(10, 9999)}${random.pick(MODEL_SUFFIXES)}`;
		if (usedNames.has(name)) continue;
		usedNames.add(name);
		const updatedAt = today.getTime() - random.integer(1, 2 * 365 * 24 * 60 * 60) * 1000;
		const createdAt = updatedAt - random.integer(0, 400 * 24 * 60 * 60) * 1000;
		models.push({
			id: random.uuid(),
			name,
			brandId: brand.id,
			brand: { id: brand.id, name: brand.name },
			category,
			updatedAt: new Date(updatedAt).toISOString(),
			createdAt: new Date(createdAt).toISOString(),
		});
	}
	return models;
}

/** Pieces of equipment; some lack an inventory number or a beacon (part 2.5 allows null). */
function createEquipmentUnits(random, { products, count }) {
	const equipmentProducts = [...products.values()].filter(
		(product) => product.type === 'EQUIPMENT',
	);
	return Array.from({ length: count }, (_, index) => ({
		id: random.uuid(),
		productId: random.pick(equipmentProducts).id,
		invNumber: random.chance(0.07) ? null : `INV-${10001 + index}`,
		beaconId: random.chance(0.15) ? null : `BCN-${random.uuid().slice(0, 8).toUpperCase()}`,
	}));
}

/** Daily reports for the `days` days ending yesterday; a tenth has no recorded distance. */
function createDistanceReports(random, { equipmentUnits, days, today }) {
	/** @type {Map<string, EquipmentDistance[]>} date (YYYY-MM-DD) -> records */
	const distances = new Map();
	for (let daysAgo = days; daysAgo >= 1; daysAgo -= 1) {
		const day = new Date(today.getTime() - daysAgo * DAY_MS);
		const records = equipmentUnits.map((unit) => ({
			id: random.uuid(),
			date: day.toISOString(),
			distance: random.chance(0.1) ? null : reportedDistance(random),
			equipmentId: unit.id,
			equipment: { id: unit.id, invNumber: unit.invNumber, beaconId: unit.beaconId },
		}));
		distances.set(formatDate(day), records);
	}
	return distances;
}

function reportedDistance(random) {
	if (random.chance(0.25)) return 0;
	return Math.round(random.next() * 1800) / 10;
}

function startOfUtcDay(date) {
	if (Number.isNaN(date.getTime())) throw new TypeError('today must be a valid date');
	return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/** @param {Date} date */
function formatDate(date) {
	return date.toISOString().slice(0, 10);
}

function roundCents(amount) {
	return Math.round(amount * 100) / 100;
}

module.exports = { createStore };
