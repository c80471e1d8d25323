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

/** Share of the products each seeded custom price list holds; the first (the fixture) holds all. */
const CUSTOM_PRICE_LIST_SHARE = [1, 0.7, 0.5];
/** Shares of the products the lists of the further clients hold, one picked per list. */
const CLIENT_PRICE_LIST_SHARES = [1, 0.8, 0.6, 0.4];
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
 * Clients beyond the first six, so that a client picker has more than two pages of 20. "Acme
 * Construction" is the one the reference-data tests search for (fixtures.acmeClientId).
 */
const MORE_CLIENT_NAMES = [
	'Acme Construction',
	'Bergmann Tiefbau GmbH',
	'Northline Civil Engineering',
	'Rheinland Gerüstbau',
	'Brightwater Utilities',
	'Keller & Sohn Bauunternehmung',
	'Summit Roofing Ltd',
	'Alpenblick Hochbau AG',
	'Coastal Marine Works',
	'Hansa Logistikbau',
	'Meridian Facility Services',
	'Oakridge Homes',
	'Vogel Elektrotechnik',
	'Ironbridge Steel Erectors',
	'Lindner Garten- und Landschaftsbau',
	'Pioneer Demolition',
	'Silverline Events GmbH',
	'Town of Westbrook',
	'Weser Wasserbau',
	'Granite Paving Co.',
	'Falkenstein Immobilien',
	'Redwood Timber Frames',
	'Elbtal Straßenbau',
	'Crestview Property Management',
	'Schmidt Haustechnik',
	'Harborview Shipyards',
	'Nordlicht Solarparks',
	'Stonegate Masonry',
	'Donau Brückenbau',
	'Evergreen Landscaping Services',
	'Taunus Fertighaus',
	'Clearwater Drilling',
	'Ostsee Hafenbetriebe',
	'Highpoint Glazing',
	'Baumann Abbruch & Recycling',
	'Riverside Council',
	'Saxonia Industriebau',
	'Blue Ridge Excavation',
	'Mosel Weinbau Service',
	'Trident Offshore Services',
	'Kranich Eventtechnik',
	'Lakeshore University Facilities',
];

/** Cities (with postal codes) of client and site addresses; Berlin is left to Acme's site. */
const CITIES = [
	['Hamburg', '20095'],
	['Munich', '80331'],
	['Cologne', '50667'],
	['Frankfurt am Main', '60311'],
	['Stuttgart', '70173'],
	['Düsseldorf', '40213'],
	['Leipzig', '04109'],
	['Dresden', '01067'],
	['Hanover', '30159'],
	['Nuremberg', '90402'],
	['Bremen', '28195'],
	['Essen', '45127'],
];
const STREETS = [
	'Hauptstraße',
	'Industriestraße',
	'Am Hafen',
	'Gewerbering',
	'Bahnhofstraße',
	'Lindenallee',
	'Werkstraße',
	'Schlossplatz',
];
const SITE_KINDS = [
	'office tower',
	'bridge renovation',
	'residential block',
	'logistics hall',
	'school extension',
	'road works',
	'hospital wing',
	'rail depot',
	'festival grounds',
	'sewer renewal',
];
const CONTACT_NAMES = [
	'Anna Keller',
	'Jonas Weber',
	'Laura Fischer',
	'Mehmet Yilmaz',
	'Sophie Becker',
	'Tom Richter',
	'Claire Martin',
	'Lukas Hoffmann',
];
const CONTACT_POSITIONS = ['Site manager', 'Project manager', 'Foreman', 'Purchasing'];
const DEPARTMENTS = ['Operations', 'Purchasing', 'Site management', 'Accounting'];
const CREDIT_LIMITS = [10000, 25000, 50000, 100000, 250000];
const PAYMENT_TERMS = [14, 30, 45, 60];

/** The vendor's reference's unit types (openapi.yaml, Product: unitType) of the catalogue's units. */
const UNIT_TYPES = {
	day: 'DAY',
	hour: 'HOUR',
	km: 'KILOMETER',
	litre: 'LITRE',
	piece: 'PIECE',
	'flat rate': 'FLAT_RATE',
	percent: 'PERCENT',
};

/**
 * @typedef {'EQUIPMENT' | 'PERSON' | 'SERVICE' | 'INVENTORY'} ProductType
 * @typedef {{ id: string, from: number, price: number, calculationType: 'FIXED' | 'PERCENTAGE' }}
 * PriceItem
 * @typedef {object} Product `type` is the description's (part 2.6); the vendor's reference fields
 * (externalId ... updatedAt) are added by describeProducts
 * @property {string} id
 * @property {ProductType} type
 * @property {string} title
 * @property {string} number
 * @property {string} unit
 * @property {PriceItem[]} priceItems
 * @property {string} externalId
 * @property {string} additionalInformation
 * @property {string} unitType
 * @property {'CALENDAR_DAYS' | 'WORKING_DAYS'} defaultPeriodType
 * @property {number} defaultQuantity
 * @property {string} authorId
 * @property {string} organizationId
 * @property {string} createdAt
 * @property {string} updatedAt
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
 * @typedef {object} Client the client of the vendor's reference (page `clients`)
 * @property {string} id
 * @property {string} name
 * @property {number} number
 * @property {string} externalId
 * @property {string} customPriceId
 * @property {string} status
 * @property {string} partnerType
 * @property {string} createdAt
 * @property {string} updatedAt
 * @property {ContactPerson[]} contactPersons
 * @typedef {object} ContactPerson a contact person of a client (page `clients`)
 * @property {string} id
 * @property {string} clientId
 * @property {string} name
 * @property {string} jobTitle
 * @property {string} department
 * @property {string} email
 * @property {string} phone
 * @property {string} mobile
 * @property {boolean} isMain
 * @property {string} externalId
 * @property {string} createdAt
 * @property {string} updatedAt
 * @typedef {object} Contract the contract of the vendor's reference (page `contracts`)
 * @property {string} id
 * @property {string} clientId
 * @property {string} number
 * @property {string} title
 * @property {string} externalId
 * @property {'PLANNED' | 'IN_PROGRESS' | 'COMPLETED'} status
 * @property {string} startDate
 * @property {string} endDate
 * @property {string} pickUpAddress
 * @property {string} deliveryAddress
 * @property {boolean} selfPickUp
 * @property {string} createdAt
 * @property {string} updatedAt
 * @typedef {object} Booking `externalId` and the fields after it are added by describeBookings
 * @property {string} id
 * @property {string} clientId
 * @property {string} contractId
 * @property {string} productId
 * @property {number} quantity
 * @property {string} startDate
 * @property {string} endDate
 * @property {string} externalId
 * @property {string} status
 * @property {string} updatedAt
 * @property {string} createdAt
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
 * @typedef {object} EquipmentUnit a piece of equipment; the fields after beaconId are the vendor's
 * reference's (page `equipments`), added by describeEquipmentUnits
 * @property {string} id
 * @property {string} productId
 * @property {string | null} invNumber
 * @property {string | null} beaconId
 * @property {string} title
 * @property {string} externalId
 * @property {string | null} modelId
 * @property {string | null} brandId
 * @property {string} warehouseId
 * @property {string} createdAt
 * @property {string} updatedAt
 * @typedef {{ id: string, type: 'PROJECT' | 'WAREHOUSE', name: string, costCenter: string }} Site
 * a site where equipment is used (equipment usage)
 * @typedef {object} EquipmentDistance distance record of part 2.5
 * @property {string} id
 * @property {string} date
 * @property {number | null} distance
 * @property {string} equipmentId
 * @property {{ id: string, invNumber: string | null, beaconId: string | null }} equipment
 * @typedef {object} WorkingHours working hours record of the vendor's reference (page
 * `equipment-working-hours`)
 * @property {string} id
 * @property {string} start
 * @property {string} end
 * @property {number} duration milliseconds
 * @property {string} equipmentId
 * @property {{ id: string, invNumber: string | null, beaconId: string | null }} equipment
 * @typedef {object} EquipmentUsage usage record of the vendor's reference (page `equipment-usage`)
 * @property {number} duration milliseconds
 * @property {{ id: string, invNumber: string | null, beaconId: string | null }} equipment
 * @property {{ id: string, costCenter: string, type: 'PROJECT' | 'WAREHOUSE' }} site
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

	// The fields of the vendor's reference pages, and the clients and contracts added for it, come
	// from streams of their own: the identifiers above stay what tests and example workflows know.
	const organizationId = randomFor('organization').uuid();
	describeProducts(randomFor('product-reference'), { products, organizationId, today });
	const sites = createSites(randomFor('sites'));
	describeEquipmentUnits(randomFor('equipment-reference'), {
		equipmentUnits,
		products,
		models: modelList,
		sites,
		today,
	});
	// Every client has a custom price list of its own: the seeded lists keep their IDs (the fixture's
	// goes to the fixture client), the further clients' lists come from a stream of their own.
	const ownPriceList = createPriceListAllocator(randomFor('client-price-lists'), {
		priceLists,
		products,
		reserved: customPriceId,
	});
	describeClients(randomFor('client-reference'), {
		clients,
		ownPriceList,
		fixtureClient: { id: releaseBooking.clientId, customPriceId },
		organizationId,
		today,
	});
	describeContracts(randomFor('contract-reference'), { contracts, clients, organizationId, today });
	describeBookings(randomFor('booking-reference'), {
		bookings,
		contracts,
		products,
		equipmentUnits,
		today,
	});
	const moreClients = createMoreClients(randomFor('more-clients'), {
		firstIndex: clients.length,
		ownPriceList,
		organizationId,
		today,
	});
	clients.push(...moreClients.clients);
	describeContactPersons(randomFor('contact-persons'), clients);
	contracts.push(...moreClients.contracts);
	const workingHours = createWorkingHours(randomFor('equipment-working-hours'), {
		equipmentUnits,
		days,
		today,
	});
	const equipmentUsage = createUsageReports(randomFor('equipment-usage'), {
		workingHours,
		equipmentUnits,
		sites,
	});
	const acmeClient = moreClients.clients.find((client) => client.name === ACME_CLIENT_NAME);
	const acmeBerlinContract = moreClients.contracts.find(
		(contract) => contract.title === ACME_BERLIN_SITE.title,
	);
	const releaseContract = contracts.find((contract) => contract.id === releaseBooking.contractId);

	const fixtureClient = clients.find((client) => client.id === releaseBooking.clientId);

	return {
		/** The organization every record belongs to. */
		organizationId,
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
		/** Warehouses and project sites where equipment is used (equipment usage). */
		sites,
		/** @type {Map<string, WorkingHours[]>} date (YYYY-MM-DD) -> records */
		workingHours,
		/** @type {Map<string, EquipmentUsage[]>} date (YYYY-MM-DD) -> records */
		equipmentUsage,
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
			/** "Acme Construction", one of the clients beyond the first page of 20. */
			acmeClientId: acmeClient.id,
			/** Acme's contract titled "Berlin Hauptbahnhof site". */
			acmeBerlinContractId: acmeBerlinContract.id,
			/** External IDs of the fixture client, contract, equipment product and booking. */
			clientExternalId: fixtureClient.externalId,
			/** The fixture client's main contact person. */
			contactPersonId: fixtureClient.contactPersons[0].id,
			contactPersonExternalId: fixtureClient.contactPersons[0].externalId,
			contractExternalId: releaseContract.externalId,
			productExternalId: equipmentProduct.externalId,
			bookingExternalId: releaseBooking.externalId,
			/** The last day with equipment usage and working hours: yesterday. */
			usageDate: formatDate(new Date(today.getTime() - DAY_MS)),
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
		const entries = customPriceListEntries(random, products, share);
		priceLists.set(random.uuid(), entries);
	}
	return priceLists;
}

/** The entries of one custom price list: about `share` of the products, at least one. */
function customPriceListEntries(random, products, share) {
	const all = [...products.values()];
	const chosen = all.filter(() => random.chance(share));
	return (chosen.length > 0 ? chosen : [random.pick(all)]).map((product) => {
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
}

/**
 * Hands out custom price lists, each to one client only: first the seeded lists not `reserved`, in
 * their order, then new ones (added to `priceLists`), so that a client's own list is no one else's.
 * @param {import('./random').Random} random
 * @param {{ priceLists: Map<string, PriceListEntry[]>, products: Map<string, Product>, reserved:
 * string }} options
 * @returns {() => string} the next unused customPriceId
 */
function createPriceListAllocator(random, { priceLists, products, reserved }) {
	const unused = [...priceLists.keys()].filter((customPriceId) => customPriceId !== reserved);
	return () => {
		const seeded = unused.shift();
		if (seeded !== undefined) return seeded;
		const entries = customPriceListEntries(random, products, random.pick(CLIENT_PRICE_LIST_SHARES));
		const customPriceId = random.uuid();
		priceLists.set(customPriceId, entries);
		return customPriceId;
	};
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

/**
 * The first six clients and their contracts (id, name; id, clientId, number): describeClients and
 * describeContracts add the vendor's reference fields.
 * @returns {{ clients: Client[], contracts: Contract[] }}
 */
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

/**
 * Pieces of equipment; some lack an inventory number or a beacon (part 2.5 allows null).
 * describeEquipmentUnits adds the vendor's reference fields.
 * @returns {EquipmentUnit[]}
 */
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

const ACME_CLIENT_NAME = 'Acme Construction';
/** Acme's first contract: the site the reference-data tests look for by "Berlin". */
const ACME_BERLIN_SITE = {
	title: 'Berlin Hauptbahnhof site',
	city: 'Berlin',
	zipCode: '10557',
	startDaysFromToday: -30,
	durationDays: 210,
};
const PUBLIC_CLIENT = /\b(City|Town) of\b|Council|University/;
const SECOND = 1000;

/**
 * The vendor's reference fields of a product (page `products`): derived from its number, unit and
 * type, with moments of creation and update before the reference date.
 */
function describeProducts(random, { products, organizationId, today }) {
	const authorId = random.uuid();
	for (const product of products.values()) {
		const updatedAt = momentBefore(random, today.getTime(), 180);
		Object.assign(product, {
			externalId: `ERP-PR-${product.number}`,
			additionalInformation: `${product.title}, priced per ${product.unit}.`,
			unitType: UNIT_TYPES[product.unit],
			// The reference's period types (CALENDAR_DAYS, WORKING_DAYS) are the booking page's: staff
			// work on working days, everything else is rented by the calendar.
			defaultPeriodType: product.type === 'PERSON' ? 'WORKING_DAYS' : 'CALENDAR_DAYS',
			defaultQuantity: 1,
			authorId,
			organizationId,
			createdAt: new Date(momentBefore(random, Date.parse(updatedAt), 3 * 365)).toISOString(),
			updatedAt,
		});
	}
}

/** Warehouses (one per depot) and project sites, each with its cost center (equipment usage). */
function createSites(random) {
	const costCenter = () => String(random.integer(1000000, 9999999));
	/** @type {Site[]} */
	const warehouses = DEPOTS.map((name) => ({
		id: random.uuid(),
		type: 'WAREHOUSE',
		name,
		costCenter: costCenter(),
	}));
	/** @type {Site[]} */
	const projects = Array.from({ length: 12 }, (_, index) => ({
		id: random.uuid(),
		type: 'PROJECT',
		name: `Project site ${index + 1}`,
		costCenter: costCenter(),
	}));
	return [...warehouses, ...projects];
}

/**
 * The vendor's reference fields of each piece of equipment (page `equipments`): its product's title,
 * a model (and so a brand) of the seeded models, and a home warehouse.
 */
function describeEquipmentUnits(random, { equipmentUnits, products, models, sites, today }) {
	const warehouses = sites.filter((site) => site.type === 'WAREHOUSE');
	equipmentUnits.forEach((unit, index) => {
		const model = random.pick(models);
		const updatedAt = momentBefore(random, today.getTime(), 365);
		Object.assign(unit, {
			title: products.get(unit.productId).title,
			externalId: `ERP-EQ-${10001 + index}`,
			modelId: model?.id ?? null,
			brandId: model?.brandId ?? null,
			warehouseId: random.pick(warehouses).id,
			year: random.integer(2012, today.getUTCFullYear()),
			serial_number: `SN-${random.integer(10000000, 99999999)}`,
			active: !random.chance(0.05),
			createdAt: new Date(momentBefore(random, Date.parse(updatedAt), 4 * 365)).toISOString(),
			updatedAt,
		});
	});
}

/**
 * The vendor's reference fields of the first clients (page `clients`). The client of the fixture
 * booking gets the fixture custom price list, so that its customPriceId leads to fixtures.customPriceId;
 * every other client gets one of its own.
 */
function describeClients(random, { clients, ownPriceList, fixtureClient, organizationId, today }) {
	clients.forEach((client, index) => {
		Object.assign(
			client,
			clientFields(random, {
				name: client.name,
				index,
				customPriceId:
					client.id === fixtureClient.id ? fixtureClient.customPriceId : ownPriceList(),
				organizationId,
				today,
			}),
		);
	});
}

function clientFields(random, { name, index, customPriceId, organizationId, today }) {
	const number = 10001 + index;
	const [city, postalCode] = random.pick(CITIES);
	const street = random.pick(STREETS);
	const domain = `${slugOf(name)}.example`;
	const creditLimit = random.pick(CREDIT_LIMITS);
	const updatedAt = momentBefore(random, today.getTime(), 365);
	return {
		number,
		longName: name,
		externalId: `ERP-CL-${number}`,
		customPriceId,
		creditLimit,
		usedLimit: roundCents(creditLimit * random.next() * 0.8),
		paymentTerms: random.pick(PAYMENT_TERMS),
		frameContract: random.chance(0.3),
		selfInsurance: random.chance(0.2),
		street,
		streetAndNumber: `${street} ${random.integer(1, 180)}`,
		city,
		postalCode,
		country: 'Germany',
		phone: `+49 ${random.integer(30, 899)} ${random.integer(100000, 9999999)}`,
		email: `info@${domain}`,
		website: `https://www.${domain}`,
		partnerType: PUBLIC_CLIENT.test(name) ? 'PUBLIC' : random.pick(['INDUSTRY', 'CRAFT']),
		status: random.chance(0.1) ? 'INACTIVE' : 'ACTIVE',
		organization: organizationId,
		createdAt: new Date(momentBefore(random, Date.parse(updatedAt), 5 * 365)).toISOString(),
		updatedAt,
		contactPersons: [],
	};
}

/** The vendor's reference fields of the first contracts (page `contracts`), keeping id and number. */
function describeContracts(random, { contracts, clients, organizationId, today }) {
	for (const contract of contracts) {
		const client = clients.find((candidate) => candidate.id === contract.clientId);
		Object.assign(
			contract,
			contractFields(random, { number: contract.number, client, organizationId, today }),
		);
	}
}

/**
 * A construction site's contract. Its status follows its dates: PLANNED before the start, COMPLETED
 * after the end, IN_PROGRESS between.
 * @param {import('./random').Random} random
 * @param {{ number: string, client: { email: string }, organizationId: string, today: Date, site?:
 * typeof ACME_BERLIN_SITE }} options
 */
function contractFields(random, { number, client, organizationId, today, site }) {
	const [randomCity, randomZipCode] = random.pick(CITIES);
	const city = site?.city ?? randomCity;
	const zipCode = site?.zipCode ?? randomZipCode;
	const title = site?.title ?? `${city} ${random.pick(SITE_KINDS)}`;
	const start = today.getTime() + (site?.startDaysFromToday ?? random.integer(-300, 30)) * DAY_MS;
	const end = start + (site?.durationDays ?? random.integer(60, 540)) * DAY_MS;
	const status =
		start > today.getTime() ? 'PLANNED' : end < today.getTime() ? 'COMPLETED' : 'IN_PROGRESS';
	const street = `${random.pick(STREETS)} ${random.integer(1, 180)}`;
	const contactName = random.pick(CONTACT_NAMES);
	const createdAt = Math.min(start - random.integer(5, 60) * DAY_MS, today.getTime() - DAY_MS);
	return {
		title,
		constructionName: title,
		externalId: `ERP-${number}`,
		status,
		isInactive: status === 'COMPLETED',
		startDate: new Date(start).toISOString(),
		endDate: new Date(end).toISOString(),
		street,
		city,
		zipCode,
		country: 'Germany',
		pickUpAddress: random.pick(DEPOTS),
		deliveryAddress: `${street}, ${zipCode} ${city}`,
		selfPickUp: random.chance(0.2),
		contactName,
		contactPosition: random.pick(CONTACT_POSITIONS),
		contactPhone: `+49 ${random.integer(150, 179)} ${random.integer(1000000, 9999999)}`,
		contactEmail: `${slugOf(contactName).replace('-', '.')}@${client.email.split('@')[1]}`,
		additionalInformation: '',
		organization: organizationId,
		createdAt: new Date(createdAt).toISOString(),
		updatedAt: momentBetween(random, createdAt, today.getTime()),
	};
}

/**
 * Clients (and 1 to 3 contracts each) beyond the first six, numbered on from them; Acme
 * Construction has two contracts, the first on the Berlin site.
 */
function createMoreClients(random, { firstIndex, ownPriceList, organizationId, today }) {
	/** @type {Client[]} */
	const clients = [];
	/** @type {Contract[]} */
	const contracts = [];
	MORE_CLIENT_NAMES.forEach((name, offset) => {
		const index = firstIndex + offset;
		const isAcme = name === ACME_CLIENT_NAME;
		const client = {
			id: random.uuid(),
			name,
			...clientFields(random, {
				name,
				index,
				customPriceId: ownPriceList(),
				organizationId,
				today,
			}),
			...(isAcme ? { status: 'ACTIVE' } : {}),
		};
		clients.push(client);
		const contractCount = isAcme ? 2 : random.integer(1, 3);
		for (let contractIndex = 0; contractIndex < contractCount; contractIndex += 1) {
			const number = `CT-${2024 + contractIndex}-${String(index + 1).padStart(4, '0')}`;
			contracts.push({
				id: random.uuid(),
				clientId: client.id,
				number,
				...contractFields(random, {
					number,
					client,
					organizationId,
					today,
					site: isAcme && contractIndex === 0 ? ACME_BERLIN_SITE : undefined,
				}),
			});
		}
	});
	return { clients, contracts };
}

/**
 * The vendor's reference fields of each booking (page `bookings`). The external ID follows the
 * booking's place in the seed; the booked entity is a piece of equipment of the booked product when
 * there is one (staff are not modelled: a person gets an ID of its own).
 */
function describeBookings(random, { bookings, contracts, products, equipmentUnits, today }) {
	const lastUpdatedById = random.uuid();
	[...bookings.values()].forEach((booking, index) => {
		const product = products.get(booking.productId);
		const contract = contracts.find((candidate) => candidate.id === booking.contractId);
		const units = equipmentUnits.filter((unit) => unit.productId === product.id);
		const start = Date.parse(booking.startDate);
		const end = Date.parse(booking.endDate);
		const normalPrice = product.priceItems[0].price;
		const billedUnitsPerDay = product.unit === 'hour' ? 8 : 1;
		Object.assign(booking, {
			externalId: `ERP-BKG-${10001 + index}`,
			entityId: units.length > 0 ? random.pick(units).id : random.uuid(),
			productType: product.type,
			changePrice: false,
			normalUsage: 8,
			unitType: product.unitType,
			normalPrice,
			exceptionalUsagePrice: roundCents(normalPrice * 1.5),
			normalUsageType: 'DAY',
			periodType: product.defaultPeriodType,
			// RESERVED and IN_PROGRESS are the create and update pages' values; RETURNED is the sandbox's.
			status:
				start > today.getTime() ? 'RESERVED' : end < today.getTime() ? 'RETURNED' : 'IN_PROGRESS',
			billingStatus: end < today.getTime() ? 'BILLED' : 'NOT_BILLED',
			cost: roundCents(
				normalPrice * booking.quantity * billedUnitsPerDay * Math.round((end - start) / DAY_MS),
			),
			pickUpAddress: contract.pickUpAddress,
			deliveryAddress: contract.deliveryAddress,
			selfPickUp: contract.selfPickUp,
			lastUpdatedById,
			updatedAt: momentBefore(random, today.getTime(), 60),
			deletedAt: null,
		});
		// The page shows no createdAt; the sandbox's records all carry one: a week before the booking
		// started or was last updated, whichever came first (no draw, so the values above stay).
		booking.createdAt = new Date(
			Math.min(start, Date.parse(booking.updatedAt)) - 7 * DAY_MS,
		).toISOString();
	});
}

/**
 * One or two contact persons of each client (page `clients`), the first its main contact, created
 * and last changed between the client's creation and its last update.
 * @param {import('./random').Random} random
 * @param {Client[]} clients
 */
function describeContactPersons(random, clients) {
	for (const client of clients) {
		const count = random.integer(1, 2);
		client.contactPersons = Array.from({ length: count }, (_, index) => {
			const name = random.pick(CONTACT_NAMES);
			const createdAt = momentBetween(
				random,
				Date.parse(client.createdAt),
				Date.parse(client.updatedAt),
			);
			return {
				id: random.uuid(),
				clientId: client.id,
				name,
				jobTitle: random.pick(CONTACT_POSITIONS),
				department: random.pick(DEPARTMENTS),
				email: `${slugOf(name).replace('-', '.')}@${client.email.split('@')[1]}`,
				phone: `+49 ${random.integer(30, 899)} ${random.integer(100000, 9999999)}`,
				mobile: `+49 ${random.integer(150, 179)} ${random.integer(1000000, 9999999)}`,
				isMain: index === 0,
				externalId: `ERP-CP-${client.number}-${index + 1}`,
				createdAt,
				updatedAt: momentBetween(random, Date.parse(createdAt), Date.parse(client.updatedAt)),
			};
		});
	}
}

/**
 * One working-hours record per piece of equipment and day, for the `days` days ending yesterday.
 * A shift that runs past midnight is split at 00:00 UTC, as the vendor's reference says: the day's
 * record ends at 00:00 and the next day's record is the rest of that shift, from 00:00.
 */
function createWorkingHours(random, { equipmentUnits, days, today }) {
	/** @type {Map<string, WorkingHours[]>} */
	const workingHours = new Map();
	/** @type {Map<string, number>} equipment id -> milliseconds of its shift left after midnight */
	const carriedOver = new Map();
	for (let daysAgo = days; daysAgo >= 1; daysAgo -= 1) {
		const dayStart = today.getTime() - daysAgo * DAY_MS;
		const dayEnd = dayStart + DAY_MS;
		const records = equipmentUnits.map((unit) => {
			const carried = carriedOver.get(unit.id);
			carriedOver.delete(unit.id);
			const start = carried ? dayStart : dayStart + random.integer(5 * 60, 21 * 60) * 60 * SECOND;
			const shiftEnd = carried
				? dayStart + carried
				: start + random.integer(30, 10 * 60) * 60 * SECOND;
			if (shiftEnd > dayEnd) carriedOver.set(unit.id, shiftEnd - dayEnd);
			const end = Math.min(shiftEnd, dayEnd);
			return {
				id: random.uuid(),
				start: new Date(start).toISOString(),
				end: new Date(end).toISOString(),
				duration: end - start,
				equipmentId: unit.id,
				equipment: { id: unit.id, invNumber: unit.invNumber, beaconId: unit.beaconId },
			};
		});
		workingHours.set(formatDate(new Date(dayStart)), records);
	}
	return workingHours;
}

/**
 * One usage record per piece of equipment and day: the day's working hours, on one site (its home
 * warehouse, or a project site).
 */
function createUsageReports(random, { workingHours, equipmentUnits, sites }) {
	const projects = sites.filter((site) => site.type === 'PROJECT');
	const siteById = new Map(sites.map((site) => [site.id, site]));
	/** @type {Map<string, EquipmentUsage[]>} */
	const usage = new Map();
	for (const [date, records] of workingHours) {
		usage.set(
			date,
			records.map((record, index) => {
				const unit = equipmentUnits[index];
				const site = random.chance(0.35) ? siteById.get(unit.warehouseId) : random.pick(projects);
				return {
					duration: record.duration,
					equipment: { ...record.equipment },
					site: { id: site.id, costCenter: site.costCenter, type: site.type },
				};
			}),
		);
	}
	return usage;
}

/** An ISO moment up to `maxDays` days (to the second) before `beforeMs`. */
function momentBefore(random, beforeMs, maxDays) {
	return new Date(beforeMs - random.integer(1, maxDays * 24 * 60 * 60) * SECOND).toISOString();
}

/** An ISO moment between `fromMs` and `toMs`, to the second. */
function momentBetween(random, fromMs, toMs) {
	return new Date(
		fromMs + random.integer(0, Math.max(0, Math.floor((toMs - fromMs) / SECOND))) * SECOND,
	).toISOString();
}

/** Lower-case words joined by hyphens, ASCII only (for e-mail domains). */
function slugOf(text) {
	return text
		.replace(/ß/g, 'ss')
		.normalize('NFD')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');
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
