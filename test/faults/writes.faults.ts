/* eslint-disable
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * Writes under injected faults, lost answers among them (the sandbox carries the request out, then
 * closes the connection unanswered): an item may only report success when the sandbox completed its
 * request, the store must agree with what the node reported, and the node never sends a write
 * twice. Then Create or Update by External ID run again and again under those faults, as n8n's
 * Retry On Fail or a re-run execution would, and once more without them: every external ID must end
 * with exactly one record.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { FaultKind, FaultOptions } from '../../sandbox/faults';
import type { Sandbox, SandboxRequest } from '../harness/sandbox';
import { sandboxClient, TOKEN, useSandbox } from '../harness/sandbox';
import type { FindRetryTally, UpsertTally } from './results';
import { emptyRetryOnFailTally, recordResults } from './results';

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

/**
 * The API refused the request as rate-limited (429): it did nothing with it, and the node sends it
 * again after the wait (nodes/shared/requestPace.ts).
 */
const refused = (request: LoggedRequest) => request.fault === '429' || request.rateLimited === true;

/**
 * An item's writes as the node may send them: once, or again only after refusals, each of which
 * left nothing done. Any other write before the last was sent twice.
 */
const sentOnceOrAfterRefusals = (writes: LoggedRequest[]) => writes.slice(0, -1).every(refused);

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
		resentAfterRefusal: 0,
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
			// The read before a PUT (equipment) may have needed retries; the write must have completed,
			// and any sent before it been refused.
			const falseSuccesses = succeeded.filter(
				(input) =>
					writesOf(input).length === 0 ||
					!serverCompleted(writesOf(input).at(-1)!) ||
					!sentOnceOrAfterRefusals(writesOf(input)),
			);
			const retriedWrites = inputs.filter((input) => !sentOnceOrAfterRefusals(writesOf(input)));
			const resentAfterRefusal = inputs.filter(
				(input) => writesOf(input).length > 1 && sentOnceOrAfterRefusals(writesOf(input)),
			);
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
				resentAfterRefusal: totals.resentAfterRefusal + resentAfterRefusal.length,
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

/** What a stopped run's error says it did (nodes/EquipmentRental/engine/runReport.ts), for an error workflow. */
interface RunStory {
	failed: number[];
	mayHaveBeenDone: number[];
	notSent: number[];
	done: Array<{ item: number; outcome: string; id?: string }>;
}

describe('Writes under injected faults with Continue On Fail off: a run stops and says what it did', () => {
	// A store of its own: the writes above have changed the records these inputs name.
	const suite = useSandbox();
	const api = sandboxClient(() => suite.sandbox.url, TOKEN);
	const totals = {
		runs: 0,
		stopped: 0,
		reportedDone: 0,
		notSent: 0,
		lost: 0,
		falseReports: 0,
		notSentButSent: 0,
		sentTwice: 0,
	};
	afterAll(() => recordResults('stopped-writes', { stoppedWrites: totals }));
	afterEach(() => suite.sandbox.setOptions({ faults: null }));

	it.each(operations.map((operation, index) => [operation.name, operation, index] as const))(
		'%s: every write the API did is in the error, and no item it did not send was sent',
		async (_name, operation, index) => {
			const store = suite.sandbox.store as unknown as Store;
			const inputs = await operation.inputs(store, api);
			expect(inputs.filter((input) => operation.applied(store, input))).toEqual([]);
			suite.sandbox.resetStats();
			suite.sandbox.setOptions({
				faults: {
					rate: 0.1,
					kinds: WRITE_FAULTS,
					seed: 71 + index,
					slowMs: 100,
					retryAfterSeconds: 0,
				},
			});

			const { error } = await suite.run(
				{ ...operation.parameters, requestOptions: { timeout: REQUEST_TIMEOUT_MS } },
				{ items: inputs },
			);
			await untilQuiet(suite.sandbox);

			const logged = suite.sandbox.requests as LoggedRequest[];
			const requestsOf = (input: IDataObject) =>
				logged.filter((request) => operation.keyOfRequest(request) === input.key);
			const applied = inputs.flatMap((input, item) =>
				operation.applied(store, input) ? [item] : [],
			);
			totals.runs += 1;
			totals.sentTwice += inputs.filter(
				(input) => !sentOnceOrAfterRefusals(requestsOf(input).filter(isWrite)),
			).length;
			if (!error) {
				// No fault stopped it: every item was written.
				expect(applied).toHaveLength(inputs.length);
				return;
			}
			const story = (error as unknown as { context: { run: RunStory } }).context.run;
			const done = new Set(story.done.map(({ item }) => item));
			// A failed item's write may have been done when its answer was lost or the API failed
			// after it: the error says so, and the user is told to check.
			const mayHaveBeenDone = new Set(story.mayHaveBeenDone);
			const lost = applied.filter((item) => !done.has(item) && !mayHaveBeenDone.has(item));
			const falseReports = [...done].filter((item) => !applied.includes(item));
			const notSentButSent = story.notSent.filter((item) => requestsOf(inputs[item]).length > 0);
			Object.assign(totals, {
				stopped: totals.stopped + 1,
				reportedDone: totals.reportedDone + done.size,
				notSent: totals.notSent + story.notSent.length,
				lost: totals.lost + lost.length,
				falseReports: totals.falseReports + falseReports.length,
				notSentButSent: totals.notSentButSent + notSentButSent.length,
			});

			expect({ lost, falseReports, notSentButSent }).toEqual({
				lost: [],
				falseReports: [],
				notSentButSent: [],
			});
			expect(story.failed.length + story.notSent.length + done.size).toBe(inputs.length);
			// What the user reads counts the records the run wrote by outcome, and the writes it cannot
			// be sure of; their IDs are in the error's context (above).
			const byOutcome = new Map<string, number>();
			for (const { outcome } of story.done)
				byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
			for (const [outcome, records] of byOutcome)
				expect(error.description).toContain(
					`${outcome.charAt(0).toUpperCase()}${outcome.slice(1)} ${records.toLocaleString('en-US')}: item`,
				);
			if (mayHaveBeenDone.size > 0)
				expect(error.description).toContain(`May have been done ${mayHaveBeenDone.size}: item`);
			expect(error.message.length + String(error.description).length).toBeLessThan(4000);
		},
	);

	it('the runs above stopped mid-way, with writes before the stop and items left unsent', () => {
		expect(totals.stopped).toBeGreaterThan(totals.runs / 2);
		expect(totals.reportedDone).toBeGreaterThan(0);
		expect(totals.notSent).toBeGreaterThan(0);
		expect(totals.sentTwice).toBe(0);
	});
});

/** External IDs per kind; the first ROWS_TWICE of them are in each batch twice (a row repeated). */
const UPSERT_EXTERNAL_IDS = 40;
const ROWS_TWICE = 8;
/**
 * Runs of the failed items again under faults, as n8n's Retry On Fail (3 tries by default) or a
 * re-run of the execution would, before a last run of the whole batch without faults.
 */
const RERUNS = 2;
const UPSERT_FAULT_RATE = 0.5;
/** The write faults, with lost answers three times as likely as each other kind. */
const UPSERT_FAULTS: FaultKind[] = [...WRITE_FAULTS, 'lost-answer', 'lost-answer'];
/** The faults the node's own retries of a GET get past (a lost answer loses only a read). */
const PASSING_FAULTS: FaultKind[] = ['500', '503', '429', 'malformed', 'drop', 'lost-answer'];
/** The node's tries of a GET: the first and four retries (shared/retry.ts). */
const GET_TRIES = 5;

/**
 * The kinds Create or Update runs for: at the top (PATCH), under a parent found by its external ID
 * (one more lookup under the faults), and by PUT. Contracts, bookings and products take the same
 * factory's path as clients; the suite's time is what limits the choice (docs/development.md, The fault suite).
 */
const upsertKinds = recordKinds.filter((kind) =>
	['client', 'contactPerson', 'equipment'].includes(kind.resource),
);

interface Row {
	externalId: string;
	row: number;
}

/** Create or Update of `kind` by each item's external ID, setting its `changed` field to its marker. */
const upsertMarking = (kind: RecordKind): INodeParameters => ({
	resource: kind.resource,
	operation: 'upsert',
	externalId: '={{ $json.externalId }}',
	...kind.upsert,
	additionalFields: { [kind.changed]: '={{ $json.marker }}' },
});

describe('Create or Update by External ID under faults, run again until every item is done', () => {
	const suite = useSandbox();
	const api = sandboxClient(() => suite.sandbox.url, TOKEN);
	const upserts: UpsertTally = {
		kinds: 0,
		externalIds: 0,
		runs: 0,
		items: 0,
		created: 0,
		updated: 0,
		failed: 0,
		missing: 0,
		duplicates: 0,
		lostAnswers: 0,
		lostCreates: 0,
		foundAfterLostCreate: 0,
		taken: 0,
		updatedAfterTaken: 0,
		sentTwice: 0,
		falseSuccesses: 0,
	};
	const findRetries: FindRetryTally = {
		items: 0,
		created: 0,
		updated: 0,
		failed: 0,
		retriedFinds: 0,
		duplicates: 0,
	};
	afterAll(() => recordResults('upserts', { upserts, findRetries }));
	afterEach(() => suite.sandbox.setOptions({ faults: null }));

	const store = () => suite.sandbox.store as unknown as Store;
	const recordsWith = (kind: RecordKind, externalId: unknown) =>
		kind.records(store()).filter((record) => record.externalId === externalId);

	/**
	 * Runs Create or Update of `kind` on `rows` under `faults` (none if not given). Each item sends a
	 * marker of its own in the kind's `changed` field, by which its writes are known. Returns the
	 * inputs, what the node output, the failed rows and the requests the sandbox received.
	 */
	async function upsert(kind: RecordKind, rows: Row[], pass: number, faults?: FaultOptions) {
		const inputs = rows.map(({ externalId, row }) => ({
			externalId,
			marker: `${kind.resource}-pass-${pass}-row-${row}`,
			...kind.shared(store().fixtures),
		}));
		suite.sandbox.resetStats();
		if (faults) suite.sandbox.setOptions({ faults });
		const { items, errorItems } = await suite.run(
			{
				...upsertMarking(kind),
				...(faults?.kinds?.includes('hang')
					? { requestOptions: { timeout: REQUEST_TIMEOUT_MS } }
					: {}),
			},
			{ items: inputs, onError: 'continueErrorOutput' },
		);
		await untilQuiet(suite.sandbox);
		suite.sandbox.setOptions({ faults: null });
		const rowOf = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;
		return {
			inputs,
			reported: items.map((item) => ({ input: inputs[rowOf(item)], json: item.json })),
			failed: errorItems.map((item) => rows[rowOf(item)]),
			logged: [...suite.sandbox.requests] as LoggedRequest[],
		};
	}

	/** The item's writes: its create and update, known by its marker. */
	const writesOf = (logged: LoggedRequest[], kind: RecordKind, input: IDataObject) =>
		logged.filter(
			(request) => isWrite(request) && bodyField(request, kind.changed) === input.marker,
		);

	it.each(upsertKinds.map((kind, index) => [kind.name, kind, index] as const))(
		'%s: a first run under faults with lost answers, two re-runs of the failed items, a clean run: one record per external ID',
		async (_name, kind, index) => {
			const externalIds = Array.from({ length: UPSERT_EXTERNAL_IDS }, (_, id) => `ERP-U-${id}`);
			const rows: Row[] = [...externalIds, ...externalIds.slice(0, ROWS_TWICE)].map(
				(externalId, row) => ({ externalId, row }),
			);
			const problems: string[] = [];
			const createdReports = new Map<string, number>();
			let toRun = rows;
			for (let pass = 0; pass <= RERUNS + 1; pass++) {
				const clean = pass === RERUNS + 1;
				const batch = clean ? rows : toRun;
				if (batch.length === 0) continue;
				const where = `run ${pass}${clean ? ' (no faults)' : ''}`;
				const before = new Set(externalIds.filter((id) => recordsWith(kind, id).length > 0));
				const { inputs, reported, failed, logged } = await upsert(
					kind,
					batch,
					pass,
					clean
						? undefined
						: {
								rate: UPSERT_FAULT_RATE,
								kinds: UPSERT_FAULTS,
								seed: 100 + 10 * index + pass,
								slowMs: 100,
								retryAfterSeconds: 0,
							},
				);
				const markersOf = (externalId: unknown) =>
					inputs.filter((input) => input.externalId === externalId).map((input) => input.marker);

				// What the node reported is what the store holds: one record of that external ID, the one
				// output, with a marker of this run; created only when there was none before the run.
				const falseSuccesses = reported.filter(({ input, json }) => {
					const records = recordsWith(kind, input.externalId);
					return (
						records.length !== 1 ||
						records[0].id !== json.id ||
						!markersOf(input.externalId).includes(records[0][kind.changed] as string) ||
						!['created', 'updated'].includes(json.upserted as string) ||
						(json.upserted === 'created' && before.has(input.externalId))
					);
				});
				for (const { input, json } of reported)
					if (json.upserted === 'created')
						createdReports.set(input.externalId, (createdReports.get(input.externalId) ?? 0) + 1);
				// The node sends each item's create and its update once, or again only after refusals.
				const sentTwice = inputs.filter((input) =>
					['POST', 'PATCH', 'PUT'].some(
						(method) =>
							!sentOnceOrAfterRefusals(
								writesOf(logged, kind, input).filter((request) => request.method === method),
							),
					),
				);
				const lostCreates = logged.filter(
					(request) => request.fault === 'lost-answer' && request.method === 'POST',
				);
				const foundAfterLostCreate = reported.filter(
					({ input, json }) =>
						json.upserted === 'created' &&
						lostCreates.some((request) => bodyField(request, kind.changed) === input.marker),
				);
				const duplicates = externalIds.filter((id) => recordsWith(kind, id).length > 1);
				const count = (upserted: string) =>
					reported.filter(({ json }) => json.upserted === upserted).length;
				Object.assign(upserts, {
					runs: upserts.runs + 1,
					items: upserts.items + inputs.length,
					created: upserts.created + count('created'),
					updated: upserts.updated + count('updated'),
					failed: upserts.failed + failed.length,
					duplicates: upserts.duplicates + duplicates.length,
					lostAnswers:
						upserts.lostAnswers +
						logged.filter((request) => request.fault === 'lost-answer').length,
					lostCreates: upserts.lostCreates + lostCreates.length,
					foundAfterLostCreate: upserts.foundAfterLostCreate + foundAfterLostCreate.length,
					sentTwice: upserts.sentTwice + sentTwice.length,
					falseSuccesses: upserts.falseSuccesses + falseSuccesses.length,
				});

				if (reported.length + failed.length !== inputs.length)
					problems.push(
						`${where}: ${inputs.length} items in, ${reported.length + failed.length} out`,
					);
				problems.push(
					...falseSuccesses.map(
						({ input, json }) =>
							`${where}: ${input.marker} reported ${String(json.upserted)} ${String(json.id)}, not what the store holds`,
					),
					...sentTwice.map((input) => `${where}: ${input.marker} sent a write twice`),
					...duplicates.map((id) => `${where}: ${id} has ${recordsWith(kind, id).length} records`),
				);
				if (clean) problems.push(...failed.map((row) => `${where}: row ${row.row} failed`));
				toRun = failed;
			}

			const missing = externalIds.filter((id) => recordsWith(kind, id).length === 0);
			Object.assign(upserts, {
				kinds: upserts.kinds + 1,
				externalIds: upserts.externalIds + externalIds.length,
				missing: upserts.missing + missing.length,
			});
			problems.push(
				...missing.map((id) => `${id} has no record`),
				// Reported as created once at most: by the item whose create made the record.
				...[...createdReports]
					.filter(([, reports]) => reports > 1)
					.map(([id, reports]) => `${id} reported created ${reports} times`),
			);
			expect(problems).toEqual([]);
		},
	);

	it('the runs above lost answers of creates, and found the records they had made', () => {
		expect(upserts.failed).toBeGreaterThan(0);
		expect(upserts.lostCreates).toBeGreaterThan(0);
		expect(upserts.foundAfterLostCreate).toBeGreaterThan(0);
	});

	/**
	 * Runs `run` while another writer creates a client with the external ID of each create the node
	 * sends for `externalIds`, just before the sandbox handles it; returns the other writer's clients.
	 */
	async function withAnotherWriter(externalIds: string[], run: () => Promise<void>) {
		const theirs = new Map<string, IDataObject>();
		const stop = suite.sandbox.onRequest((request) => {
			const externalId = bodyField(request, 'externalId');
			if (request.method !== 'POST' || externalId === undefined) return;
			if (!externalIds.includes(externalId) || theirs.has(externalId)) return;
			const stamp = suite.sandbox.now().toISOString();
			const client = {
				id: randomUUID(),
				name: `Written by another system: ${externalId}`,
				externalId,
				organization: (suite.sandbox.store as IDataObject).organizationId,
				createdAt: stamp,
				updatedAt: stamp,
				contactPersons: [],
			};
			store().clients.push(client);
			theirs.set(externalId, client);
		});
		try {
			await run();
		} finally {
			stop();
		}
		return theirs;
	}

	it('Client: another writer creates the record between the lookup and the create, faults on the reads and updates: each 409 is looked into and that record updated', async () => {
		const [kind] = recordKinds;
		const externalIds = Array.from({ length: 20 }, (_, id) => `ERP-TAKEN-${id}`);
		const rows = externalIds.map((externalId, row) => ({ externalId, row }));
		let outcome!: Awaited<ReturnType<typeof upsert>>;
		const theirs = await withAnotherWriter(externalIds, async () => {
			outcome = await upsert(kind, rows, 0, {
				rate: 0.3,
				kinds: WRITE_FAULTS,
				methods: ['GET', 'PATCH'],
				seed: 11,
				slowMs: 100,
				retryAfterSeconds: 0,
			});
		});
		const { inputs, reported, failed, logged } = outcome;
		const taken = logged.filter((request) => request.method === 'POST' && request.status === 409);
		const updatedAfterTaken = reported.filter(
			({ input, json }) =>
				json.upserted === 'updated' &&
				taken.some((request) => bodyField(request, kind.changed) === input.marker),
		);
		Object.assign(upserts, {
			taken: upserts.taken + taken.length,
			updatedAfterTaken: upserts.updatedAfterTaken + updatedAfterTaken.length,
		});

		expect(reported.length + failed.length).toBe(inputs.length);
		// Every create the node sent met the other writer's record.
		expect(taken).toEqual(logged.filter((request) => request.method === 'POST'));
		// No second record: the other writer's, with the values of the item reported on it.
		expect(externalIds.filter((id) => recordsWith(kind, id).length > 1)).toEqual([]);
		expect(
			reported.filter(
				({ input, json }) =>
					json.upserted !== 'updated' ||
					theirs.get(input.externalId)?.id !== json.id ||
					theirs.get(input.externalId)?.[kind.changed] !== input.marker ||
					writesOf(logged, kind, input).filter((request) => request.method === 'PATCH').length !==
						1,
			),
		).toEqual([]);
		expect(updatedAfterTaken.length).toBeGreaterThan(0);
		expect(failed.length).toBeGreaterThan(0);
	});

	// After a create that may have been done (5xx, dropped connection, lost answer), Create or
	// Update looks again. The record it finds may be another writer's (another n8n worker in queue
	// mode, another system): the item must not report success unless its values are on it.
	it('Client: another writer first, then a create answered 503 or never answered: the item fails or its values are on the record it reports', async () => {
		const [kind] = recordKinds;
		const externalIds = Array.from({ length: 6 }, (_, id) => `ERP-TAKEN-UNANSWERED-${id}`);
		const rows = externalIds.map((externalId, row) => ({ externalId, row }));
		let outcome!: Awaited<ReturnType<typeof upsert>>;
		const theirs = await withAnotherWriter(externalIds, async () => {
			outcome = await upsert(kind, rows, 0, {
				rate: 1,
				kinds: ['503', 'lost-answer'],
				methods: ['POST'],
				seed: 5,
			});
		});
		const { inputs, reported, failed } = outcome;

		expect(reported.length + failed.length).toBe(inputs.length);
		expect(externalIds.filter((id) => recordsWith(kind, id).length !== 1)).toEqual([]);
		expect(
			reported
				.filter(({ input }) => theirs.get(input.externalId)?.[kind.changed] !== input.marker)
				.map(({ input, json }) => ({
					externalId: input.externalId,
					upserted: json.upserted,
					name: json.name,
					[kind.changed]: json[kind.changed],
				})),
		).toEqual([]);
	});

	it("Client: faults on the GETs only, which the node's own retries get past: each item found once, updated or created, never twice", async () => {
		const [kind] = recordKinds;
		const externalIds = Array.from(
			{ length: UPSERT_EXTERNAL_IDS },
			(_, id) => `ERP-FOUND-WITH-RETRIES-${id}`,
		);
		// Half of them are there before.
		const existing = new Set(externalIds.filter((_, id) => id % 2 === 0));
		for (const externalId of existing) {
			const answer = await api('POST', CLIENTS, { body: { name: externalId, externalId } });
			expect(answer.status).toBe(201);
		}
		const rows = externalIds.map((externalId, row) => ({ externalId, row }));
		// Pages of one record: the list's pages outnumber the rows, so each row is looked up.
		suite.sandbox.setOptions({ maxPageSize: 1 });
		const { inputs, reported, failed, logged } = await upsert(kind, rows, 0, {
			rate: UPSERT_FAULT_RATE,
			kinds: PASSING_FAULTS,
			methods: ['GET'],
			seed: 7,
			retryAfterSeconds: 0,
		}).finally(() => suite.sandbox.setOptions({ maxPageSize: undefined }));

		const findsOf = (externalId: string) =>
			logged.filter(
				(request) =>
					request.method === 'GET' &&
					request.path.endsWith(`/external-id/${encodeURIComponent(externalId)}`),
			);
		const duplicates = externalIds.filter((id) => recordsWith(kind, id).length > 1);
		Object.assign(findRetries, {
			items: inputs.length,
			created: reported.filter(({ json }) => json.upserted === 'created').length,
			updated: reported.filter(({ json }) => json.upserted === 'updated').length,
			failed: failed.length,
			retriedFinds: externalIds.filter((id) => findsOf(id).length > 1).length,
			duplicates: duplicates.length,
		});

		expect(reported.length + failed.length).toBe(inputs.length);
		expect(duplicates).toEqual([]);
		// Updated when it was there, created when not, with one write, and the store agrees.
		expect(
			reported.filter(
				({ input, json }) =>
					json.upserted !== (existing.has(input.externalId) ? 'updated' : 'created') ||
					writesOf(logged, kind, input).length !== 1 ||
					recordsWith(kind, input.externalId)[0]?.[kind.changed] !== input.marker,
			),
		).toEqual([]);
		// An item fails only once the node's tries of the find are spent, and writes nothing.
		expect(
			failed.filter(
				(row) =>
					findsOf(row.externalId).length !== GET_TRIES ||
					!findsOf(row.externalId).every((request) => request.fault !== undefined) ||
					writesOf(logged, kind, inputs[row.row]).length > 0,
			),
		).toEqual([]);
		expect(findRetries.retriedFinds).toBeGreaterThan(0);
	});

	it('Client: faults on the GETs only while the run reads the clients whole: each item updated or created once, never twice', async () => {
		const [kind] = recordKinds;
		const externalIds = Array.from(
			{ length: UPSERT_EXTERNAL_IDS },
			(_, id) => `ERP-READ-WHOLE-${id}`,
		);
		const existing = new Set(externalIds.filter((_, id) => id % 2 === 0));
		for (const externalId of existing) {
			const answer = await api('POST', CLIENTS, { body: { name: externalId, externalId } });
			expect(answer.status).toBe(201);
		}
		const rows = externalIds.map((externalId, row) => ({ externalId, row }));
		const { reported, failed, logged } = await upsert(kind, rows, 0, {
			rate: UPSERT_FAULT_RATE,
			kinds: PASSING_FAULTS,
			methods: ['GET'],
			seed: 8,
			retryAfterSeconds: 0,
		});

		const listReads = logged.filter(
			(request) => request.method === 'GET' && request.path === CLIENTS,
		);
		expect(listReads.length).toBeGreaterThan(0);
		expect(externalIds.filter((id) => recordsWith(kind, id).length > 1)).toEqual([]);
		expect(failed).toEqual([]);
		expect(
			reported.filter(
				({ input, json }) =>
					json.upserted !== (existing.has(input.externalId) ? 'updated' : 'created') ||
					writesOf(logged, kind, input).length !== 1 ||
					recordsWith(kind, input.externalId)[0]?.[kind.changed] !== input.marker,
			),
		).toEqual([]);
	});
});

/** Executions of Create or Update with n8n's Retry On Fail under faults, each with its own seed. */
const RETRIED_EXECUTIONS = 6;
const RETRIED_ROWS = 30;
/** n8n's defaults for Retry On Fail (3 tries; a wait of 0 is 1 second in n8n). */
const RETRY_ON_FAIL = { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 };

describe("Create or Update with n8n's Retry On Fail under faults, Continue On Fail off: it says what the execution did", () => {
	const suite = useSandbox();
	const api = sandboxClient(() => suite.sandbox.url, TOKEN);
	const tally = emptyRetryOnFailTally();
	afterAll(() => recordResults('retry-on-fail', { retryOnFail: tally }));
	afterEach(() => suite.sandbox.setOptions({ faults: null }));

	it.each([...Array(RETRIED_EXECUTIONS).keys()])(
		'Client, execution %i: every row it output or counted as written is what its tries did, created when the execution made the record, updated otherwise',
		async (execution) => {
			const [kind] = recordKinds;
			const store = suite.sandbox.store as unknown as Store;
			const externalIds = Array.from(
				{ length: RETRIED_ROWS },
				(_, row) => `ERP-RETRY-${execution}-${row}`,
			);
			// Half the rows change records the API holds; the others are new.
			const before = new Set(externalIds.filter((_, row) => row % 2 === 0));
			for (const externalId of before) {
				const answer = await api('POST', CLIENTS, { body: { name: externalId, externalId } });
				expect(answer.status).toBe(201);
			}
			const inputs = externalIds.map((externalId, row) => ({
				externalId,
				marker: `retry-${execution}-row-${row}`,
			}));
			suite.sandbox.setOptions({
				faults: {
					rate: 0.1,
					kinds: UPSERT_FAULTS.filter((fault) => fault !== 'hang'),
					seed: 300 + execution,
					slowMs: 100,
					retryAfterSeconds: 0,
				},
			});

			const { items, error } = await suite.run(upsertMarking(kind), {
				items: inputs,
				settings: RETRY_ON_FAIL,
			});
			await untilQuiet(suite.sandbox);
			suite.sandbox.setOptions({ faults: null });

			// What the execution says each row came to: its output, or its last try's error.
			const said = error
				? (error as unknown as { context: { run: RunStory } }).context.run.done.map(
						({ item, outcome }) => [item, outcome] as const,
					)
				: items.map(
						(item) =>
							[(item.pairedItem as { item: number }).item, String(item.json.upserted)] as const,
					);
			const misreported = said.filter(([row, outcome]) => {
				const records = kind
					.records(store)
					.filter((record) => record.externalId === externalIds[row]);
				return (
					records.length !== 1 ||
					records[0][kind.changed] !== inputs[row].marker ||
					outcome !== (before.has(externalIds[row]) ? 'updated' : 'created')
				);
			});
			const duplicates = externalIds.filter(
				(externalId) =>
					kind.records(store).filter((record) => record.externalId === externalId).length > 1,
			);
			tally.executions += 1;
			tally[error ? 'stopped' : 'succeeded'] += 1;
			tally.rows += inputs.length;
			for (const [, outcome] of said)
				if (outcome === 'created' || outcome === 'updated') tally[outcome] += 1;
			tally.misreported += misreported.length;
			tally.duplicates += duplicates.length;

			expect({ misreported, duplicates }).toEqual({ misreported: [], duplicates: [] });
			if (!error) expect(said).toHaveLength(inputs.length);
		},
	);

	it('the executions above needed their retries, and most succeeded', () => {
		expect(tally.succeeded).toBeGreaterThan(tally.executions / 2);
		expect(tally.created + tally.updated).toBeGreaterThan(0);
	});
});
