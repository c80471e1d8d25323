/* eslint-disable
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(README.md, "n8n's n8n-node tool"). */
/**
 * Writes under injected faults, lost answers among them (the sandbox carries the request out, then
 * closes the connection unanswered): an item may only report success when the sandbox completed its
 * request, the store must agree with what the node reported, and the node never sends a write
 * twice.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { FaultKind } from '../../sandbox/faults';
import type { Sandbox, SandboxRequest } from '../harness/sandbox';
import { sandboxClient, TOKEN, useSandbox } from '../harness/sandbox';
import { recordResults } from './results';

const ALL_FAULTS: FaultKind[] = [
	'500',
	'503',
	'429',
	'malformed',
	'drop',
	'slow',
	'hang',
	// 200 with {"success": false}: the write was not carried out although the status says success.
	'soft-failure',
];
/**
 * Every kind above, and answers lost after the write was carried out: the node cannot tell these
 * from a dropped connection, and must neither report success nor send the write again.
 */
const WRITE_FAULTS: FaultKind[] = [...ALL_FAULTS, 'lost-answer'];
/** A hanging request ends at this timeout; a slow one (100 ms) answers well within it. */
const REQUEST_TIMEOUT_MS = 1000;
const ITEMS_PER_OPERATION = 40;
/** The writes of master data send 20 each, and the sandbox holds fewer than 40 releases. */
const MIN_ITEMS_PER_OPERATION = 20;
const RECORD_WRITES_PER_OPERATION = 20;
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** What a failed item says when no answer came: a dropped connection, or a timeout. */
const UNANSWERED = /dropped before it answered|did not answer in time/;

type LoggedRequest = SandboxRequest & { fault?: FaultKind };
type Api = ReturnType<typeof sandboxClient>;

interface Product {
	id: string;
	type: string;
	priceItems: Array<{ id: string; from: number; price: number }>;
}
interface Store {
	fixtures: Record<string, string>;
	quotes: Map<string, IDataObject>;
	products: Map<string, Product>;
	attachments: Map<string, Set<string>>;
	releases: Map<string, IDataObject>;
	inventories: Map<string, IDataObject>;
	clients: Array<IDataObject & { contactPersons: IDataObject[] }>;
	contracts: IDataObject[];
	bookings: Map<string, IDataObject>;
	equipment: IDataObject[];
}

interface WriteOperation {
	name: string;
	parameters: INodeParameters;
	/**
	 * One input item per write, each carrying a `key` that only the requests of its own item hold;
	 * the records the writes change are made first, through the API and without faults.
	 */
	inputs(store: Store, api: Api): IDataObject[] | Promise<IDataObject[]>;
	/** The key of the item a request was sent for (undefined: none of this operation's). */
	keyOfRequest(request: SandboxRequest): string | undefined;
	/** Whether the store holds the change the input item asked for. */
	applied(store: Store, input: IDataObject): boolean;
}

/** The sandbox handled the request in full: no fault but a slow answer, and a success status. */
function serverCompleted(request: LoggedRequest): boolean {
	return (
		request.status !== null &&
		request.status < 300 &&
		(request.fault === undefined || request.fault === 'slow')
	);
}

const isWrite = (request: SandboxRequest) => WRITE_METHODS.has(request.method);

const segment = (request: SandboxRequest, index: number) =>
	decodeURIComponent(request.path.split('/')[index]);

const lastSegment = (request: SandboxRequest) =>
	decodeURIComponent(request.path.slice(request.path.lastIndexOf('/') + 1));

const bodyField = (request: SandboxRequest, name: string) =>
	(request.body as IDataObject | undefined)?.[name] as string | undefined;

/** How long the sandbox's request log must stay unchanged before a run counts as over. */
const QUIET_MS = 150;

/**
 * Waits until the sandbox has taken every request the run sent: on a busy machine a request whose
 * client gave up (the timeout) can still be read, and carried out, after the run has ended. (Its
 * count of requests in flight does not help: a hanging request stays in it.)
 */
async function untilQuiet(sandbox: Sandbox): Promise<void> {
	for (let seen = -1; sandbox.requests.length !== seen;) {
		seen = sandbox.requests.length;
		await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
	}
}

/** A picker's value given by ID, as a workflow saves it. */
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

const START_DATE = '2031-03-03T07:00:00.000Z';
const END_DATE = '2031-03-07T16:00:00.000Z';
const STRUCTURE_ID = '5b0e8d3c-2f1a-4c7e-9d6b-8a4f3e2c1b0d';
const CLIENTS = '/master-data/v1/client-management/clients';

/**
 * A kind of master record the node writes: what the tests need to make such records, write them
 * through the node and find them in the store.
 */
interface RecordKind {
	/** As the node's Resource field names it, e.g. 'Contact Person'. */
	name: string;
	resource: string;
	/** The records of the kind the store holds (contact persons: the fixture client's). */
	records(store: Store): IDataObject[];
	/** Where the API creates them, and a body it takes, unique by `key`. */
	collection(fixtures: Record<string, string>): string;
	body(fixtures: Record<string, string>, key: string): IDataObject;
	/** What the node's parameters read from every input item besides its own fields. */
	shared(fixtures: Record<string, string>): IDataObject;
	/** Create's parameters, which send the item's `key` in the body field `createdKey`. */
	create: INodeParameters;
	createdKey: string;
	/** Create or Update's parameters but the external ID and Additional Fields. */
	upsert: INodeParameters;
	/** What picks the record for Update and Delete, from the item's `id`. */
	picked: INodeParameters;
	/** The field Update sets (to the item's `value`), and Create or Update to its marker. */
	changed: string;
}

const recordKinds: RecordKind[] = [
	{
		name: 'Client',
		resource: 'client',
		records: (store) => store.clients,
		collection: () => CLIENTS,
		body: (_fixtures, key) => ({ name: key }),
		shared: () => ({}),
		create: { name: '={{ $json.key }}' },
		createdKey: 'name',
		upsert: { name: '={{ $json.externalId }}' },
		picked: { clientId: byId('={{ $json.id }}') },
		changed: 'additionalInformation',
	},
	{
		name: 'Contact Person',
		resource: 'contactPerson',
		records: (store) =>
			store.clients.find((client) => client.id === store.fixtures.clientId)!.contactPersons,
		collection: (fixtures) => `${CLIENTS}/${fixtures.clientId}/contact-persons`,
		body: (_fixtures, key) => ({ name: key, isMain: false }),
		shared: (fixtures) => ({
			clientId: fixtures.clientId,
			clientExternalId: fixtures.clientExternalId,
		}),
		create: { clientId: byId('={{ $json.clientId }}'), name: '={{ $json.key }}', isMain: false },
		createdKey: 'name',
		// The client given by its external ID: one more lookup, under the same faults.
		upsert: {
			clientId: { __rl: true, mode: 'externalId', value: '={{ $json.clientExternalId }}' },
			name: '={{ $json.externalId }}',
			isMain: false,
		},
		picked: {
			clientId: byId('={{ $json.clientId }}'),
			contactPersonId: byId('={{ $json.id }}'),
		},
		changed: 'jobTitle',
	},
	{
		name: 'Contract',
		resource: 'contract',
		records: (store) => store.contracts,
		collection: () => '/master-data/v1/contract-management/contracts',
		body: (fixtures, key) => ({
			clientId: fixtures.clientId,
			startDate: START_DATE,
			endDate: END_DATE,
			structureId: STRUCTURE_ID,
			title: key,
		}),
		shared: (fixtures) => ({ clientId: fixtures.clientId }),
		create: {
			clientId: byId('={{ $json.clientId }}'),
			startDate: START_DATE,
			endDate: END_DATE,
			structureId: STRUCTURE_ID,
			additionalFields: { title: '={{ $json.key }}' },
		},
		createdKey: 'title',
		upsert: {
			clientId: byId('={{ $json.clientId }}'),
			startDate: START_DATE,
			endDate: END_DATE,
			structureId: STRUCTURE_ID,
		},
		picked: { contractId: byId('={{ $json.id }}') },
		changed: 'additionalInformation',
	},
	{
		name: 'Booking',
		resource: 'booking',
		records: (store) => [...store.bookings.values()],
		collection: () => '/master-data/v1/booking-management/bookings',
		body: (fixtures) => ({
			contractId: fixtures.contractId,
			productId: fixtures.equipmentProductId,
			entityId: fixtures.equipmentId,
			startDate: START_DATE,
			endDate: END_DATE,
		}),
		shared: (fixtures) => ({
			contractId: fixtures.contractId,
			productId: fixtures.equipmentProductId,
			entityId: fixtures.equipmentId,
		}),
		create: {
			startDate: START_DATE,
			endDate: END_DATE,
			entityId: byId('={{ $json.entityId }}'),
			productId: byId('={{ $json.productId }}'),
			contractId: byId('={{ $json.contractId }}'),
			additionalFields: { externalId: '={{ $json.key }}' },
		},
		createdKey: 'externalId',
		upsert: {
			startDate: START_DATE,
			endDate: END_DATE,
			entityId: byId('={{ $json.entityId }}'),
			productId: byId('={{ $json.productId }}'),
			contractId: byId('={{ $json.contractId }}'),
		},
		picked: { bookingId: '={{ $json.id }}' },
		changed: 'pickUpAddress',
	},
	{
		name: 'Product',
		resource: 'product',
		records: (store) => [...store.products.values()] as unknown as IDataObject[],
		collection: () => '/master-data/v1/product-management/products',
		body: (_fixtures, key) => ({
			title: key,
			type: 'RESOURCE',
			unitType: 'DAYS',
			priceList: [{ from: 1, price: 10 }],
		}),
		shared: () => ({}),
		create: {
			title: '={{ $json.key }}',
			type: 'RESOURCE',
			unitType: 'DAYS',
			priceList: { priceItem: [{ from: 1, price: 10 }] },
		},
		createdKey: 'title',
		upsert: {
			title: '={{ $json.externalId }}',
			type: 'RESOURCE',
			unitType: 'DAYS',
			priceList: { priceItem: [{ from: 1, price: 10 }] },
		},
		picked: { productId: byId('={{ $json.id }}') },
		changed: 'additionalInformation',
	},
	{
		// Its update is a PUT: the node reads the record first (a GET, retried), then sends it.
		name: 'Equipment',
		resource: 'equipment',
		records: (store) => store.equipment,
		collection: () => '/master-data/v1/equipment-management/equipments',
		body: (_fixtures, key) => ({ title: key }),
		shared: () => ({}),
		create: { title: '={{ $json.key }}' },
		createdKey: 'title',
		upsert: { title: '={{ $json.externalId }}' },
		picked: { equipmentId: byId('={{ $json.id }}') },
		changed: 'subtitle',
	},
];

/** Makes `count` records of the kind through the API (no faults), each unique by its key. */
async function makeRecords(
	kind: RecordKind,
	store: Store,
	api: Api,
	prefix: string,
	count = RECORD_WRITES_PER_OPERATION,
): Promise<IDataObject[]> {
	return await Promise.all(
		Array.from({ length: count }, async (_, index) => {
			const answer = await api('POST', kind.collection(store.fixtures), {
				body: kind.body(store.fixtures, `${prefix}-${index}`),
			});
			if (answer.status !== 201) throw new Error(`${kind.name}: ${JSON.stringify(answer.body)}`);
			return answer.body as IDataObject;
		}),
	);
}

const recordOf = (kind: RecordKind, store: Store, id: unknown) =>
	kind.records(store).find((record) => record.id === id);

/** Create, Update and Delete of one kind, each input's key in a request only its item sends. */
function writesOf(kind: RecordKind): WriteOperation[] {
	const resource = { resource: kind.resource };
	return [
		{
			name: `${kind.name} > Create`,
			parameters: { ...resource, operation: 'create', ...kind.create },
			inputs: (store) =>
				Array.from({ length: RECORD_WRITES_PER_OPERATION }, (_, index) => ({
					key: `${kind.resource}-created-under-faults-${index}`,
					...kind.shared(store.fixtures),
				})),
			keyOfRequest: (request) => bodyField(request, kind.createdKey),
			applied: (store, input) =>
				kind.records(store).some((record) => record[kind.createdKey] === input.key),
		},
		{
			// Keyed by the record's ID: a PUT's read (a GET) belongs to its item too.
			name: `${kind.name} > Update`,
			parameters: {
				...resource,
				operation: 'update',
				...kind.picked,
				updateFields: { [kind.changed]: '={{ $json.value }}' },
			},
			inputs: async (store, api) =>
				(await makeRecords(kind, store, api, `${kind.resource}-to-update`)).map(
					(record, index) => ({
						key: record.id,
						id: record.id,
						value: `${kind.resource}-updated-under-faults-${index}`,
						...kind.shared(store.fixtures),
					}),
				),
			keyOfRequest: lastSegment,
			applied: (store, input) => recordOf(kind, store, input.id)?.[kind.changed] === input.value,
		},
		{
			name: `${kind.name} > Delete`,
			parameters: { ...resource, operation: 'delete', ...kind.picked },
			inputs: async (store, api) =>
				(await makeRecords(kind, store, api, `${kind.resource}-to-delete`)).map((record) => ({
					key: record.id,
					id: record.id,
					...kind.shared(store.fixtures),
				})),
			keyOfRequest: lastSegment,
			applied: (store, input) => recordOf(kind, store, input.id) === undefined,
		},
	];
}

const operations: WriteOperation[] = [
	{
		name: 'Quote > Create',
		parameters: {
			resource: 'quote',
			operation: 'create',
			clientId: '={{ $json.clientId }}',
			contractId: '={{ $json.contractId }}',
			amount: '={{ $json.amount }}',
			additionalFields: { externalId: '={{ $json.key }}' },
		},
		inputs: ({ fixtures }) =>
			Array.from({ length: ITEMS_PER_OPERATION }, (_, index) => ({
				key: `quote-under-faults-${index}`,
				clientId: fixtures.clientId,
				contractId: fixtures.contractId,
				amount: 100 + index,
			})),
		keyOfRequest: (request) => (request.body as IDataObject).externalId as string,
		applied: (store, input) =>
			[...store.quotes.values()].some((quote) => quote.externalId === input.key),
	},
	{
		name: 'Product > Update Price Item',
		parameters: {
			resource: 'product',
			operation: 'updatePriceItem',
			productId: '={{ $json.productId }}',
			priceId: '={{ $json.priceId }}',
			from: '={{ $json.from }}',
			price: '={{ $json.price }}',
		},
		inputs: (store) =>
			[...store.products.values()]
				.flatMap((product) => product.priceItems.map((priceItem) => ({ product, priceItem })))
				.slice(0, ITEMS_PER_OPERATION)
				.map(({ product, priceItem }, index) => ({
					key: priceItem.id,
					productId: product.id,
					priceId: priceItem.id,
					from: priceItem.from,
					price: 5000 + index,
				})),
		keyOfRequest: (request) => segment(request, 7),
		applied: (store, input) =>
			store.products
				.get(input.productId as string)!
				.priceItems.find((item) => item.id === input.priceId)!.price === input.price,
	},
	{
		name: 'Product > Attach Service',
		parameters: {
			resource: 'product',
			operation: 'attach',
			productId: '={{ $json.productId }}',
			serviceProductId: '={{ $json.serviceProductId }}',
		},
		inputs: (store) => {
			const products = [...store.products.values()];
			const services = products.filter((product) => product.type === 'SERVICE');
			return products
				.filter((product) => product.type !== 'SERVICE')
				.flatMap((main) =>
					services.map((service) => ({ productId: main.id, serviceProductId: service.id })),
				)
				.slice(0, ITEMS_PER_OPERATION)
				.map((pair) => ({ key: `${pair.productId}+${pair.serviceProductId}`, ...pair }));
		},
		keyOfRequest: (request) =>
			`${segment(request, 5)}+${(request.body as IDataObject).productId as string}`,
		applied: (store, input) =>
			store.attachments.get(input.productId as string)?.has(input.serviceProductId as string) ??
			false,
	},
	{
		name: 'Release > Update',
		parameters: {
			resource: 'release',
			operation: 'update',
			releaseId: '={{ $json.releaseId }}',
			updateFields: { reason: '={{ $json.key }}' },
		},
		inputs: (store) =>
			[...store.releases.keys()]
				.slice(0, ITEMS_PER_OPERATION)
				.map((releaseId, index) => ({ key: `release-under-faults-${index}`, releaseId })),
		keyOfRequest: (request) => (request.body as IDataObject).reason as string,
		applied: (store, input) => store.releases.get(input.releaseId as string)!.reason === input.key,
	},
	{
		name: 'Product > Add Price Item',
		parameters: {
			resource: 'product',
			operation: 'addPriceItem',
			productId: '={{ $json.productId }}',
			from: '={{ $json.from }}',
			price: '={{ $json.price }}',
		},
		inputs: (store) =>
			Array.from({ length: ITEMS_PER_OPERATION }, (_, index) => ({
				key: String(7000 + index),
				productId: store.fixtures.equipmentProductId,
				from: 500 + index,
				price: 7000 + index,
			})),
		keyOfRequest: (request) => String((request.body as IDataObject).price),
		applied: (store, input) =>
			store.products
				.get(input.productId as string)!
				.priceItems.some((item) => item.from === input.from && item.price === input.price),
	},
	{
		name: 'Product > Delete Price Item',
		parameters: {
			resource: 'product',
			operation: 'deletePriceItem',
			productId: '={{ $json.productId }}',
			priceId: '={{ $json.key }}',
		},
		inputs: (store) =>
			[...store.products.values()]
				.flatMap((product) =>
					product.priceItems.map((priceItem) => ({ key: priceItem.id, productId: product.id })),
				)
				.slice(0, ITEMS_PER_OPERATION),
		keyOfRequest: (request) => segment(request, 7),
		applied: (store, input) =>
			!store.products
				.get(input.productId as string)!
				.priceItems.some((item) => item.id === input.key),
	},
	{
		name: 'Product > Detach Service',
		parameters: {
			resource: 'product',
			operation: 'detach',
			productId: '={{ $json.productId }}',
			serviceProductId: '={{ $json.serviceProductId }}',
		},
		// Every pair is attached first, in the store, so that each detach has something to undo.
		inputs: (store) => {
			const products = [...store.products.values()];
			const services = products.filter((product) => product.type === 'SERVICE');
			const pairs = products
				.filter((product) => product.type !== 'SERVICE')
				.flatMap((main) =>
					services.map((service) => ({ productId: main.id, serviceProductId: service.id })),
				)
				.slice(-ITEMS_PER_OPERATION);
			for (const { productId, serviceProductId } of pairs)
				store.attachments.set(
					productId,
					(store.attachments.get(productId) ?? new Set<string>()).add(serviceProductId),
				);
			return pairs.map((pair) => ({ key: `${pair.productId}-${pair.serviceProductId}`, ...pair }));
		},
		keyOfRequest: (request) =>
			`${segment(request, 5)}-${(request.body as IDataObject).productId as string}`,
		applied: (store, input) =>
			!(
				store.attachments.get(input.productId as string)?.has(input.serviceProductId as string) ??
				false
			),
	},
	{
		name: 'Inventory > Delete',
		parameters: { resource: 'inventory', operation: 'delete', inventoryId: '={{ $json.key }}' },
		inputs: (store) =>
			[...store.inventories.keys()].slice(0, ITEMS_PER_OPERATION).map((key) => ({ key })),
		keyOfRequest: (request) => segment(request, 5),
		applied: (store, input) => !store.inventories.has(input.key as string),
	},
	...recordKinds.flatMap(writesOf),
];

describe('Writes under injected faults', () => {
	const suite = useSandbox();
	const api = sandboxClient(() => suite.sandbox.url, TOKEN);
	const totals = {
		sent: 0,
		succeeded: 0,
		failedLoudly: 0,
		falseSuccesses: 0,
		retriedWrites: 0,
		lostAnswers: 0,
		doneUnanswered: 0,
	};
	afterAll(() => recordResults('writes', { writes: totals }));
	afterEach(() => suite.sandbox.setOptions({ faults: null }));

	it.each(operations.map((operation, index) => [operation.name, operation, index] as const))(
		'%s: reports success only for the writes the server completed, and sends each once',
		async (_name, operation, index) => {
			const store = suite.sandbox.store as unknown as Store;
			const inputs = await operation.inputs(store, api);
			expect(inputs.length).toBeGreaterThanOrEqual(MIN_ITEMS_PER_OPERATION);
			// The records made for the writes are not the node's requests.
			suite.sandbox.resetStats();
			suite.sandbox.setOptions({
				faults: {
					rate: 0.5,
					kinds: WRITE_FAULTS,
					seed: 21 + index,
					slowMs: 100,
					retryAfterSeconds: 0,
				},
			});

			const { items, errorItems } = await suite.run(
				{ ...operation.parameters, requestOptions: { timeout: REQUEST_TIMEOUT_MS } },
				{ items: inputs, onError: 'continueErrorOutput' },
			);
			await untilQuiet(suite.sandbox);

			const inputOf = (item: INodeExecutionData) =>
				inputs[(item.pairedItem as { item: number }).item];
			const logged = suite.sandbox.requests as LoggedRequest[];
			const requestsByKey = new Map<string, LoggedRequest[]>();
			for (const request of logged) {
				const key = operation.keyOfRequest(request) ?? `(none of this operation's: ${request.url})`;
				requestsByKey.set(key, [...(requestsByKey.get(key) ?? []), request]);
			}
			const requestsOf = (input: IDataObject) => requestsByKey.get(input.key as string) ?? [];
			const writesOf = (input: IDataObject) => requestsOf(input).filter(isWrite);
			const errorOf = new Map(
				errorItems.map((item) => [inputOf(item).key, String(item.json.error)] as const),
			);
			const succeeded = items.map((item) => inputOf(item));
			const failed = errorItems.map((item) => inputOf(item));
			// The read before a PUT (equipment) may have needed retries; each write must have completed.
			const falseSuccesses = succeeded.filter(
				(input) => writesOf(input).length === 0 || !writesOf(input).every(serverCompleted),
			);
			const retriedWrites = inputs.filter((input) => writesOf(input).length > 1);
			// Failed, yet done by the server: only when no answer reached the node, as it says.
			const doneUnanswered = failed.filter((input) => operation.applied(store, input));
			const lostAnswers = logged.filter(
				(request) => request.fault === 'lost-answer' && isWrite(request),
			);
			Object.assign(totals, {
				sent: totals.sent + inputs.length,
				succeeded: totals.succeeded + succeeded.length,
				failedLoudly: totals.failedLoudly + failed.length,
				falseSuccesses: totals.falseSuccesses + falseSuccesses.length,
				retriedWrites: totals.retriedWrites + retriedWrites.length,
				lostAnswers: totals.lostAnswers + lostAnswers.length,
				doneUnanswered: totals.doneUnanswered + doneUnanswered.length,
			});

			expect(falseSuccesses).toEqual([]);
			expect(retriedWrites).toEqual([]);
			expect(succeeded.length + failed.length).toBe(inputs.length);
			// Every request the sandbox received belongs to an item of this run.
			const keys = new Set(inputs.map((input) => input.key as string));
			expect([...requestsByKey.keys()].filter((key) => !keys.has(key))).toEqual([]);
			// The sandbox applies a write exactly when it carries it out; the store shows what the node
			// reported, but for the writes whose answer never came.
			expect(succeeded.filter((input) => !operation.applied(store, input))).toEqual([]);
			expect(doneUnanswered.filter((input) => !UNANSWERED.test(errorOf.get(input.key)!))).toEqual(
				[],
			);
			// A lost answer is a failure (never a success), and says that no answer came.
			for (const request of lostAnswers) {
				const key = operation.keyOfRequest(request)!;
				expect([key, errorOf.get(key)]).toEqual([key, expect.stringMatching(UNANSWERED)]);
			}
			// An item fails only for a fault: an injected one, or a missing answer.
			const unexplained = failed.filter(
				(input) =>
					!UNANSWERED.test(errorOf.get(input.key)!) &&
					!requestsOf(input).some(
						(request) => request.fault !== undefined && request.fault !== 'slow',
					),
			);
			expect(unexplained).toEqual([]);
			expect(failed.length).toBeGreaterThan(0);
			expect(
				errorItems.every((item) => typeof item.json.error === 'string' && item.json.error !== ''),
			).toBe(true);
		},
	);

	it('the faults above let writes succeed and lost answers of writes the server had done', () => {
		expect(totals.succeeded).toBeGreaterThan(totals.sent / 4);
		expect(totals.lostAnswers).toBeGreaterThan(0);
		expect(totals.doneUnanswered).toBeGreaterThan(0);
	});
});
