/**
 * Hostile input, property-based: every parameter of every operation, given any value through an
 * expression, is either accepted and sent as a request the OpenAPI document allows, or rejected
 * with an error naming the field and the item, before anything is sent. Never an
 * unhandled error, never a request that breaks the contract.
 *
 * The fields are read from the node's own description, so a new parameter is covered without
 * editing this file. Many values go through one engine run: one input item each, under Continue on
 * Fail (error output).
 */
import fc from 'fast-check';
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
} from 'n8n-workflow';

import { EquipmentRental } from '../../nodes/EquipmentRental/EquipmentRental.node';
import { shownOptions, shownProperties } from '../harness/description';
import { contractViolations, useSandbox } from '../harness/sandbox';
import {
	BOOKINGS,
	CLIENTS,
	CONTRACTS,
	createDirectly,
	directApi,
	EQUIPMENTS,
	MISSING_ID,
	newExternalId,
	PRODUCTS,
} from '../harness/writes';

/**
 * Property runs per field; each run sends up to MAX_VALUES_PER_RUN values as items of one
 * execution.
 */
const RUNS_PER_FIELD = 4;
const MAX_VALUES_PER_RUN = 25;
const TIMEZONES = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Europe/Berlin'];
const ANY_VALUE = '={{ $json.value }}';

interface Operation {
	resource: string;
	operation: string;
}

interface Field {
	/** Where the value sits in the node's parameters, e.g. "filters.brandId". */
	path: string;
	displayName: string;
	property: INodeProperties;
}

const description = new EquipmentRental().description;
const { properties } = description;

function allOperations(): Operation[] {
	return properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) =>
			(property.options as Array<{ value: string }>).map((option) => ({
				resource: property.displayOptions!.show!.resource![0] as string,
				operation: option.value,
			})),
		);
}

/** Every parameter of the operation a user can fill, collection options included. */
function fieldsOf(operation: Operation): Field[] {
	const parameters = { ...operation };
	return shownProperties(description, parameters)
		.filter((property) => !['resource', 'operation', 'requestOptions'].includes(property.name))
		.flatMap((property) =>
			property.type === 'collection'
				? shownOptions(description, property, parameters).map((option) => ({
						path: `${property.name}.${option.name}`,
						displayName: option.displayName,
						property: option,
					}))
				: [{ path: property.name, displayName: property.displayName, property }],
		);
}

/** The node's own options under Request Options, which every operation has. */
function requestOptionFields(): Field[] {
	const requestOptions = properties.find((property) => property.name === 'requestOptions')!;
	return (requestOptions.options as INodeProperties[]).map((option) => ({
		path: `requestOptions.${option.name}`,
		displayName: option.displayName,
		property: option,
	}));
}

function withValueAt(parameters: INodeParameters, path: string, value: unknown): INodeParameters {
	const [head, ...rest] = path.split('.');
	if (rest.length === 0) return { ...parameters, [head]: value } as INodeParameters;
	return {
		...parameters,
		[head]: withValueAt((parameters[head] ?? {}) as INodeParameters, rest.join('.'), value),
	};
}

/** An input item whose `value` an expression hands to the field under test, whatever its type. */
function asItem(value: unknown): IDataObject {
	return { value } as IDataObject;
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Texts that have broken URL, header, number and date handling elsewhere. */
const NASTY_TEXTS = [
	'',
	' ',
	'\t\n',
	'.',
	'..',
	'../..',
	'a/b',
	'?page=2',
	'#top',
	'%',
	'%2F',
	'%00',
	'a\r\nX-Injected: 1',
	'\u0000',
	'\uD800',
	'a\uDFFFb',
	'🙂',
	'Ünïcødé',
	'null',
	'undefined',
	'NaN',
	'Infinity',
	'-0',
	'1e400',
	'0x10',
	'1_000',
	' 12 ',
	'12abc',
	'=1+1',
	'{{ 1 }}',
	'[]',
	'{}',
	'{"a":1}',
	'[1]',
	'true',
	'x'.repeat(5000),
];
const SPECIAL_NUMBERS = [
	Number.NaN,
	Infinity,
	-Infinity,
	-0,
	0,
	1e308,
	-1e308,
	Number.MAX_SAFE_INTEGER + 2,
	Number.MIN_VALUE,
	-Number.MIN_VALUE,
	1e21,
	0.1 + 0.2,
];
/** The range of four-digit years, the only ones ISO 8601 writes without a sign. */
const YEAR_0_START_MS = Date.parse('0000-01-01T00:00:00Z');
const YEAR_9999_END_MS = Date.parse('9999-12-31T23:59:59.999Z');

const uuidVariants = fc
	.tuple(fc.uuid(), fc.constantFrom('as is', 'upper', 'padded', 'braced', 'urn', 'truncated'))
	.map(
		([uuid, variant]) =>
			({
				'as is': uuid,
				upper: uuid.toUpperCase(),
				padded: ` ${uuid} `,
				braced: `{${uuid}}`,
				urn: `urn:uuid:${uuid}`,
				truncated: uuid.slice(0, 35),
			})[variant],
	);

const dateTexts = fc
	.tuple(
		fc.integer({ min: YEAR_0_START_MS, max: YEAR_9999_END_MS }),
		fc.constantFrom('Z', '+14:00', '-12:00', '+05:30', '', 'date'),
	)
	.map(([ms, suffix]) => {
		const iso = new Date(ms).toISOString();
		if (suffix === 'date') return iso.slice(0, 10);
		return `${iso.slice(0, 19)}${suffix}`;
	});

/** Any value an expression can hand to a parameter. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
	fc.string(),
	fc.string({ unit: 'grapheme' }),
	fc.string({ unit: 'binary' }),
	fc.constantFrom(...NASTY_TEXTS),
	uuidVariants,
	fc.array(uuidVariants, { maxLength: 3 }).map((uuids) => uuids.join(',')),
	dateTexts,
	fc.constantFrom(
		'2024-02-30',
		'2024-13-01',
		'2024-01-01T25:00:00',
		'0000-01-01',
		'9999-12-31T23:59:59-05:00',
		'2024-W01',
	),
	fc.double(),
	fc.integer(),
	fc.constantFrom(...SPECIAL_NUMBERS),
	fc.double().map(String),
	fc.boolean(),
	fc.constant(null),
	fc.array(fc.oneof(fc.uuid(), fc.string(), fc.integer(), fc.constant(null)), { maxLength: 3 }),
	fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/**
 * Expressions that yield a value of another type than the field's (one per item, chosen by
 * $itemIndex).
 */
const WRONG_TYPE_EXPRESSIONS = [
	'$now',
	'$today',
	'[1, 2]',
	'["3f6c2a5e-8b1d-4c7a-9e2f-1a2b3c4d5e6f"]',
	'{ a: 1 }',
	'null',
	'undefined',
	'NaN',
	'1 / 0',
	'-0',
	'true',
	'123',
	'-5',
	'"x".repeat(3000)',
	'$json',
	'[]',
];

/**
 * Fields whose text the node sends as given for the API to judge, and the one contract breach that
 * may follow: the two sources name different product types
 * (https://ram-api.syniotec.com/reference/products and part 2.6), so a type given by expression
 * goes to the API, which answers for it.
 */
const JUDGED_BY_THE_API: Record<string, string> = {
	'filters.type': 'query/type must be equal to one of the allowed values',
	// The reference names no list of fields to sort by ("Field to sort by", e.g. updatedAt).
	'options.sortBy': 'query/sortBy must be equal to one of the allowed values',
	// The writes' open lists ("Other values can be given by expression"): the pages show a booking's
	// status and billing status only by example (the document's lists are x-assumed), and the node
	// sends any period type given by expression for the API to judge.
	'additionalFields.status': 'body/status must be equal to one of the allowed values',
	'updateFields.status': 'body/status must be equal to one of the allowed values',
	'updateFields.billingStatus': 'body/billingStatus must be equal to one of the allowed values',
	'additionalFields.periodType': 'body/periodType must be equal to one of the allowed values',
	'updateFields.periodType': 'body/periodType must be equal to one of the allowed values',
	'additionalFields.defaultPeriodType':
		'body/defaultPeriodType must be equal to one of the allowed values',
	'updateFields.defaultPeriodType':
		'body/defaultPeriodType must be equal to one of the allowed values',
	// create-client types a client's number as text, its model as a number: the node sends the text
	// (the page's type), and the sandbox's document takes digits only (x-assumed).
	'additionalFields.number': 'body/number must match pattern "^[0-9]+$"',
	'updateFields.number': 'body/number must match pattern "^[0-9]+$"',
};

/**
 * Properties that fail for a defect of the node, by operation and field: skipped, not weakened,
 * until the node is fixed (each names its defect). None at present.
 */
const NODE_DEFECTS: Record<string, string> = {};

function defectOf({ resource, operation }: Operation, field: Field): string | undefined {
	return NODE_DEFECTS[`${resource}.${operation} ${field.path}`];
}

/** A structure's UUID: the reference lists no structures, and the sandbox takes any. */
const STRUCTURE_ID = '123e4567-e89b-42d3-a456-426614174000';

describe('Hostile input to every parameter', () => {
	const suite = useSandbox({ models: 30, equipment: 30 });

	/**
	 * Records of the tests' own for the updates to change, so that the fixtures the reads and the
	 * other writes use keep their values whatever an update sends or clears.
	 */
	const own = {} as Record<
		'clientId' | 'contactPersonId' | 'contractId' | 'bookingId' | 'productId' | 'equipmentId',
		string
	> & { equipmentExternalId: string };
	beforeAll(async () => {
		const f = suite.fixtures;
		const client = await createDirectly(suite, CLIENTS, {
			name: 'Property test client',
			contactPersons: [{ name: 'Property test person', isMain: true }],
		});
		own.clientId = client.id;
		own.contactPersonId = (client.contactPersons as Array<{ id: string }>)[0].id;
		own.contractId = (
			await createDirectly(suite, CONTRACTS, {
				clientId: f.clientId,
				startDate: '2025-01-01T00:00:00Z',
				endDate: '2099-12-31T00:00:00Z',
				structureId: STRUCTURE_ID,
			})
		).id;
		own.bookingId = (
			await createDirectly(suite, BOOKINGS, {
				startDate: '2025-07-01T00:00:00Z',
				endDate: '2025-07-10T00:00:00Z',
				entityId: f.equipmentId,
				productId: f.equipmentProductId,
				contractId: f.contractId,
			})
		).id;
		own.productId = (
			await createDirectly(suite, PRODUCTS, {
				title: 'Property test product',
				type: 'RESOURCE',
				unitType: 'DAY',
				priceList: [{ from: 1, price: 10 }],
			})
		).id;
		own.equipmentId = (
			await createDirectly(suite, EQUIPMENTS, { title: 'Property test equipment' })
		).id;
		own.equipmentExternalId = (
			suite.sandbox.store.equipment as unknown as Array<{ id: string; externalId: string }>
		).find((unit) => unit.id === f.equipmentId)!.externalId;
	});

	/**
	 * Required fields set to working values, so that only the field under test decides. A write that
	 * creates gets values no record has (an external ID of its own per run), so that runs do not
	 * collide; updates change the tests' own records, and deletes name records the API does not hold
	 * (its 404 explains the item, and nothing is deleted).
	 */
	function baseParameters({ resource, operation }: Operation): INodeParameters {
		const f = suite.fixtures;
		const contract = {
			clientId: f.clientId,
			startDate: '2025-01-01T00:00:00Z',
			endDate: '2099-12-31T00:00:00Z',
			structureId: STRUCTURE_ID,
		};
		const booking = {
			startDate: '2025-07-01T00:00:00Z',
			endDate: '2025-07-10T00:00:00Z',
			entityId: f.equipmentId,
			productId: f.equipmentProductId,
			contractId: f.contractId,
		};
		const product = {
			title: 'Property test product',
			type: 'RESOURCE',
			unitType: 'DAY',
			priceList: { priceItem: [{ from: 1, price: 10 }] },
		};
		const byOperation: Record<string, INodeParameters> = {
			'booking.create': booking,
			'booking.delete': { bookingId: MISSING_ID },
			// Two fields, so that the body is never empty when the field under test is left unset.
			'booking.update': {
				bookingId: own.bookingId,
				updateFields: { quantity: 1, additionalInformation: 'checked' },
			},
			'booking.upsert': { externalId: newExternalId('PROP-B'), ...booking },
			'client.create': { name: 'Property test client' },
			'client.delete': { clientId: MISSING_ID },
			'client.update': {
				clientId: own.clientId,
				updateFields: { city: 'Berlin', creditLimit: 1 },
			},
			'client.upsert': { externalId: newExternalId('PROP-CL'), name: 'Property test client' },
			'contactPerson.create': {
				clientId: own.clientId,
				name: 'Property test person',
				isMain: false,
			},
			'contactPerson.delete': { clientId: own.clientId, contactPersonId: MISSING_ID },
			'contactPerson.get': { clientId: f.clientId, contactPersonId: f.contactPersonId },
			'contactPerson.getAll': { clientId: f.clientId, limit: 1 },
			'contactPerson.getByExternalId': {
				clientId: f.clientId,
				externalId: f.contactPersonExternalId,
			},
			'contactPerson.update': {
				clientId: own.clientId,
				contactPersonId: own.contactPersonId,
				updateFields: { jobTitle: 'Dispatcher', department: 'Logistics' },
			},
			'contactPerson.upsert': {
				clientId: own.clientId,
				externalId: newExternalId('PROP-CP'),
				name: 'Property test person',
				isMain: false,
			},
			'contract.create': contract,
			'contract.delete': { contractId: MISSING_ID },
			'contract.update': {
				contractId: own.contractId,
				updateFields: { title: 'Checked', city: 'Berlin' },
			},
			'contract.upsert': { externalId: newExternalId('PROP-CT'), ...contract },
			'equipment.create': { title: 'Property test equipment' },
			'equipment.delete': { equipmentId: MISSING_ID },
			'equipment.getByExternalId': { externalId: own.equipmentExternalId },
			'equipment.update': {
				equipmentId: own.equipmentId,
				updateFields: { subtitle: 'Checked', warehouseId: 'WH-1' },
			},
			'equipment.upsert': {
				externalId: newExternalId('PROP-E'),
				title: 'Property test equipment',
			},
			'product.create': product,
			'product.delete': { productId: MISSING_ID },
			'product.update': {
				productId: own.productId,
				updateFields: { title: 'Property test product', additionalInformation: 'checked' },
			},
			'product.upsert': { externalId: newExternalId('PROP-P'), ...product },
			'booking.get': { bookingId: f.bookingId },
			'booking.getByExternalId': { externalId: f.bookingExternalId },
			'client.get': { clientId: f.clientId },
			'client.getAll': { limit: 1 },
			'client.getByExternalId': { externalId: f.clientExternalId },
			'contract.get': { contractId: f.contractId },
			'contract.getAll': { limit: 1 },
			'contract.getByExternalId': { externalId: f.contractExternalId },
			'equipment.get': { equipmentId: f.equipmentId },
			'equipment.getAll': { limit: 1 },
			'equipmentDistance.get': { date: f.distanceDate },
			'equipmentUsage.get': { date: f.usageDate },
			'equipmentWorkingHours.get': { date: f.usageDate },
			'product.addPriceItem': { productId: f.equipmentProductId, from: 1, price: 1 },
			// IDs the API does not hold: its 404 explains the item, and nothing is changed.
			'product.deletePriceItem': { productId: f.equipmentProductId, priceId: 'no-such-tier' },
			'product.detach': { productId: f.inventoryProductId, serviceProductId: f.serviceProductId },
			'product.get': { productId: f.equipmentProductId },
			'product.getAll': { limit: 1 },
			'product.getByExternalId': { externalId: f.productExternalId },
			'equipmentModel.getAll': { limit: 1 },
			'inventory.delete': { inventoryId: 'no-such-inventory' },
			'product.attach': { productId: f.equipmentProductId, serviceProductId: f.serviceProductId },
			'product.getCustomPriceList': { customPriceId: f.customPriceId, limit: 1 },
			'product.updatePriceItem': {
				productId: f.equipmentProductId,
				priceId: f.priceId,
				from: 1,
				price: 1,
			},
			'quote.create': { clientId: f.clientId, contractId: f.contractId, amount: 1 },
			// Two fields, so that the body is never empty when the field under test is left unset.
			'release.update': {
				releaseId: f.releaseId,
				updateFields: { reason: 'checked', quantity: 1 },
			},
		};
		return { resource, operation, ...byOperation[`${resource}.${operation}`] };
	}

	/**
	 * Runs the operation once, one item per value, and checks every item: rejected by the field's own
	 * validation with no request, or accepted and sent as a request the contract allows. Returns the
	 * requests the run sent; what it created is deleted again.
	 */
	async function checkValues(
		operation: Operation,
		field: Field,
		items: IDataObject[],
		value: string,
		timezone = 'UTC',
	) {
		suite.sandbox.resetStats();
		const before = recordIds();
		try {
			await checkRun(operation, field, items, value, timezone);
			return [...suite.sandbox.requests];
		} finally {
			await removeCreatedSince(before);
			// Checked by checkRun, with what the API judges left out; the removals are the test's own.
			suite.sandbox.resetStats();
		}
	}

	/** The IDs of the records the writes create, by the collection they are deleted from. */
	function recordIds(): Array<[string, Set<string>]> {
		const store = suite.sandbox.store as unknown as Record<
			'clients' | 'contracts' | 'equipment',
			Array<{ id: string }>
		> &
			Record<'bookings' | 'products', Map<string, unknown>>;
		// In the order a record is deleted before the records it names.
		return [
			[BOOKINGS, new Set(store.bookings.keys())],
			[CONTRACTS, new Set(store.contracts.map((record) => record.id))],
			[EQUIPMENTS, new Set(store.equipment.map((record) => record.id))],
			[PRODUCTS, new Set(store.products.keys())],
			[CLIENTS, new Set(store.clients.map((record) => record.id))],
		];
	}

	/**
	 * Deletes, through the API, the records created since `before`: the lists the reads check (one
	 * request per item, one page each) keep their seeded size however many records the writes create.
	 */
	async function removeCreatedSince(before: Array<[string, Set<string>]>) {
		const now = new Map(recordIds());
		for (const [path, ids] of before) {
			for (const id of now.get(path)!) {
				if (ids.has(id)) continue;
				const answer = await directApi(suite)('DELETE', `${path}/${id}`);
				if (answer.status !== 200)
					throw new Error(`Removing ${path}/${id} answered ${answer.status}`);
			}
		}
	}

	async function checkRun(
		operation: Operation,
		field: Field,
		items: IDataObject[],
		value: string,
		timezone: string,
	) {
		const {
			items: output,
			errorItems,
			error,
		} = await suite.run(withValueAt(baseParameters(operation), field.path, value), {
			items,
			onError: 'continueErrorOutput',
			timezone,
		});

		expect(error).toBeUndefined();
		const rejection = (index: number) =>
			new RegExp(`^'${escapeRegExp(field.displayName)}' must be .+ \\[item ${index}\\]\\.( |$)`);
		const itemIndex = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;
		const rejected = errorItems.filter((item) =>
			rejection(itemIndex(item)).test(String(item.json.error)),
		);
		// Any other failure must be the API's answer, which the item quotes, to a request that was sent.
		const unexplained = errorItems
			.filter(
				(item) => !rejected.includes(item) && !String(item.json.error).includes('The API said: '),
			)
			.map(
				(item) =>
					`item ${itemIndex(item)} (${JSON.stringify(items[itemIndex(item)])}): ${String(item.json.error)}`,
			);
		expect(unexplained).toEqual([]);
		const judgedByTheApi = JUDGED_BY_THE_API[field.path];
		expect(
			contractViolations(suite.sandbox.requests).filter(
				(violation) => !(judgedByTheApi && violation.endsWith(`: ${judgedByTheApi}`)),
			),
		).toEqual([]);
		// An item's write may read first (Update Price Item reads the tier it keeps): writes are counted.
		// Create or Update writes nothing for a record that holds the item's values already.
		const writes = suite.sandbox.requests.filter((request) => request.method !== 'GET');
		const unchanged = output.filter((item) => item.json.upserted === 'unchanged');
		const writesSomething = writes.length > 0 || unchanged.length > 0;
		expect(writesSomething ? writes : suite.sandbox.requests).toHaveLength(
			items.length - rejected.length - unchanged.length,
		);
		expect(output.every((item) => item.json.error === undefined)).toBe(true);
	}

	describe.each(
		allOperations().map(
			(operation) => [`${operation.resource} > ${operation.operation}`, operation] as const,
		),
	)('%s', (_name, operation) => {
		for (const field of fieldsOf(operation)) {
			const test = defectOf(operation, field) ? it.skip : it;
			test(`${field.path}: any value is rejected by name or sent within the contract`, async () => {
				await fc.assert(
					fc.asyncProperty(
						fc.array(hostileValue, { minLength: 1, maxLength: MAX_VALUES_PER_RUN }),
						fc.constantFrom(...TIMEZONES),
						async (values, timezone) => {
							await checkValues(operation, field, values.map(asItem), ANY_VALUE, timezone);
						},
					),
					{ numRuns: RUNS_PER_FIELD },
				);
			});
		}

		for (const field of fieldsOf(operation)) {
			const test = defectOf(operation, field) ? it.skip : it;
			test(`${field.path}: expressions yielding another type are rejected by name or sent within the contract`, async () => {
				const expression = `={{ [${WRONG_TYPE_EXPRESSIONS.join(', ')}][$itemIndex] }}`;
				await checkValues(
					operation,
					field,
					WRONG_TYPE_EXPRESSIONS.map(() => ({})),
					expression,
				);
			});
		}
	});

	describe('Fields to Clear', () => {
		const recordOf = (resource: string): INodeParameters =>
			({
				client: { clientId: own.clientId },
				contactPerson: { clientId: own.clientId, contactPersonId: own.contactPersonId },
				contract: { contractId: own.contractId },
				booking: { bookingId: own.bookingId },
				product: { productId: own.productId },
				equipment: { equipmentId: own.equipmentId },
			})[resource]!;
		const options = properties
			.filter((property) => property.name === 'clearFields')
			.flatMap((property) =>
				(property.options as Array<{ value: string }>).map((option) => ({
					resource: property.displayOptions!.show!.resource![0] as string,
					field: option.value,
				})),
			);

		// What every record has (a number the API generates, a booking's status) is not offered.
		it.each([
			['booking', 'billingStatus'],
			['booking', 'quantity'],
			['booking', 'status'],
			['client', 'number'],
			['contract', 'number'],
			['product', 'number'],
		])('%s > update does not offer to clear %s, which every record has', (resource, field) => {
			expect(options).not.toContainEqual({ resource, field });
			expect(options.some((option) => option.resource === resource)).toBe(true);
		});

		for (const { resource, field } of options) {
			it(`${resource} > update: ${field} is cleared with null, within the contract`, async () => {
				const { items, error } = await suite.run({
					resource,
					operation: 'update',
					...recordOf(resource),
					clearFields: [field],
				});

				expect(error).toBeUndefined();
				const writes = suite.sandbox.requests.filter((request) => request.method !== 'GET');
				expect(writes).toHaveLength(1);
				expect((writes[0].body as IDataObject)[field]).toBeNull();
				// The sandbox shows some unset equipment fields as null.
				expect(items[0].json[field] ?? null).toBeNull();
			});
		}
	});

	it('covers every operation, and every validated parameter of each', () => {
		const fields = allOperations().flatMap((operation) =>
			fieldsOf(operation).map((field) => field.path),
		);
		expect(allOperations()).toHaveLength(54);
		expect(fields).toEqual(
			expect.arrayContaining([
				'amount',
				'clientId',
				'externalId',
				'options.sortBy',
				'booking',
				'from',
				'price',
				'filters.ids',
				'additionalFields.metadata',
				'updateFields.quantity',
				'priceList',
				'additionalFields.contactPersons',
				'additionalFields.attachedProducts',
				'additionalFields.point',
				'updateFields.clientId',
				'clearFields',
			]),
		);
	});

	describe('bounds and edge values', () => {
		interface EdgeCase {
			operation: Operation;
			path: string;
			value: unknown;
			verdict: 'accepted' | 'rejected';
			/**
			 * What the request carries for an accepted value: the body field, or for list options the
			 * limit query.
			 */
			sent?: unknown;
			timezone?: string;
		}
		const quote = { resource: 'quote', operation: 'create' };
		const priceItem = { resource: 'product', operation: 'updatePriceItem' };
		const models = { resource: 'equipmentModel', operation: 'getAll' };
		const distance = { resource: 'equipmentDistance', operation: 'get' };

		it.each<EdgeCase>([
			{
				operation: quote,
				path: 'amount',
				value: 100_000_000,
				verdict: 'accepted',
				sent: 100_000_000,
			},
			{
				operation: quote,
				path: 'amount',
				value: '100000000',
				verdict: 'accepted',
				sent: 100_000_000,
			},
			{ operation: quote, path: 'amount', value: 100_000_000.01, verdict: 'rejected' },
			{ operation: quote, path: 'amount', value: 1e308, verdict: 'rejected' },
			{ operation: quote, path: 'amount', value: -0, verdict: 'accepted', sent: 0 },
			{ operation: priceItem, path: 'from', value: 1, verdict: 'accepted', sent: 1 },
			{ operation: priceItem, path: 'from', value: 0.999, verdict: 'rejected' },
			{ operation: priceItem, path: 'from', value: 1 - Number.EPSILON, verdict: 'rejected' },
			{ operation: priceItem, path: 'price', value: 0, verdict: 'accepted', sent: 0 },
			{ operation: priceItem, path: 'price', value: -0, verdict: 'accepted', sent: 0 },
			{ operation: priceItem, path: 'price', value: '-0', verdict: 'accepted', sent: 0 },
			{ operation: priceItem, path: 'price', value: -0.01, verdict: 'rejected' },
			{ operation: priceItem, path: 'price', value: -Number.MIN_VALUE, verdict: 'rejected' },
			{ operation: models, path: 'limit', value: 1, verdict: 'accepted', sent: '1' },
			{ operation: models, path: 'limit', value: 0.999, verdict: 'rejected' },
			{ operation: models, path: 'limit', value: 2.7, verdict: 'accepted', sent: '2' },
			{ operation: models, path: 'options.pageSize', value: 1, verdict: 'accepted', sent: '1' },
			{ operation: models, path: 'options.pageSize', value: 0.5, verdict: 'rejected' },
			{
				operation: models,
				path: 'requestOptions.parallelRequests',
				value: 20,
				verdict: 'accepted',
				sent: '1',
			},
			{
				operation: models,
				path: 'requestOptions.parallelRequests',
				value: 20.5,
				verdict: 'rejected',
			},
			{ operation: models, path: 'requestOptions.parallelRequests', value: 0, verdict: 'rejected' },
			{
				operation: models,
				path: 'requestOptions.maxRateLimitWait',
				value: 0.5,
				verdict: 'rejected',
			},
			// Years beyond 9999 (or before 0000) once the zone is applied have no ISO 8601 form the API
			// reads.
			{
				operation: distance,
				path: 'date',
				value: '9999-12-31T23:59:59-05:00',
				verdict: 'rejected',
			},
			{
				operation: distance,
				path: 'date',
				value: '9999-12-31T20:00:00Z',
				verdict: 'rejected',
				timezone: 'Pacific/Kiritimati',
			},
			{ operation: distance, path: 'date', value: '9999-12-31', verdict: 'accepted' },
			{
				operation: quote,
				path: 'additionalFields.startDate',
				value: '0000-01-01T00:00:00+14:00',
				verdict: 'rejected',
			},
			{
				operation: quote,
				path: 'additionalFields.startDate',
				value: '0000-01-01T00:00:00Z',
				verdict: 'accepted',
				sent: '0000-01-01T00:00:00.000Z',
			},
			// Half of a surrogate pair has no UTF-8 form: it cannot go into a URL, nor be any text.
			{ operation: priceItem, path: 'priceId', value: '\uD800', verdict: 'rejected' },
			{ operation: models, path: 'filters.search', value: 'a\uDFFFb', verdict: 'rejected' },
			{ operation: models, path: 'filters.search', value: '🙂', verdict: 'accepted' },
			// A date is an object to JavaScript, not a JSON object.
			{
				operation: quote,
				path: 'additionalFields.metadata',
				value: new Date(0),
				verdict: 'rejected',
			},
		])(
			'$path = $value is $verdict',
			async ({ operation, path, value, verdict, sent, timezone }) => {
				const field = [...fieldsOf(operation), ...requestOptionFields()].find(
					(candidate) => candidate.path === path,
				)!;
				const requests = await checkValues(operation, field, [asItem(value)], ANY_VALUE, timezone);

				expect(requests).toHaveLength(verdict === 'accepted' ? 1 : 0);
				if (sent === undefined) return;
				const [request] = requests;
				const carried =
					operation === models
						? request.query.limit
						: (request.body as IDataObject)[path.split('.').pop()!];
				expect(Object.is(carried, sent)).toBe(true);
			},
		);
	});
});
