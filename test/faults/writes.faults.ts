/**
 * Writes under injected faults: an item may only report success when the sandbox completed its
 * request, the store must agree with what the node reported, and no write is ever sent twice.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { FaultKind } from '../../sandbox/faults';
import type { SandboxRequest } from '../harness/sandbox';
import { useSandbox } from '../harness/sandbox';
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
/** A hanging request ends at this timeout; a slow one (100 ms) answers well within it. */
const REQUEST_TIMEOUT_MS = 1000;
const ITEMS_PER_OPERATION = 40;
/** The sandbox holds fewer releases than that. */
const MIN_ITEMS_PER_OPERATION = 30;

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
}

interface WriteOperation {
	name: string;
	parameters: INodeParameters;
	/** One input item per write, each carrying a `key` that only its own request holds. */
	inputs(store: Store): IDataObject[];
	keyOfRequest(request: SandboxRequest): string;
	/** Whether the store holds the change the input item asked for. */
	applied(store: Store, input: IDataObject): boolean;
}

/** The sandbox handled the request in full: no fault but a slow answer, and a success status. */
function serverCompleted(request: SandboxRequest & { fault?: FaultKind }): boolean {
	return (
		request.status !== null &&
		request.status < 300 &&
		(request.fault === undefined || request.fault === 'slow')
	);
}

const segment = (request: SandboxRequest, index: number) =>
	decodeURIComponent(request.path.split('/')[index]);

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
];

describe('Writes under injected faults', () => {
	const suite = useSandbox();
	const totals = { sent: 0, succeeded: 0, failedLoudly: 0, falseSuccesses: 0, retriedWrites: 0 };
	afterAll(() => recordResults('writes', { writes: totals }));
	afterEach(() => suite.sandbox.setOptions({ faults: null }));

	it.each(operations.map((operation, index) => [operation.name, operation, index] as const))(
		'%s: reports success only for the writes the server completed, and sends each once',
		async (_name, operation, index) => {
			const store = suite.sandbox.store as unknown as Store;
			const inputs = operation.inputs(store);
			expect(inputs.length).toBeGreaterThanOrEqual(MIN_ITEMS_PER_OPERATION);
			suite.sandbox.setOptions({
				faults: {
					rate: 0.5,
					kinds: ALL_FAULTS,
					seed: 21 + index,
					slowMs: 100,
					retryAfterSeconds: 0,
				},
			});

			const { items, errorItems } = await suite.run(
				{ ...operation.parameters, requestOptions: { timeout: REQUEST_TIMEOUT_MS } },
				{ items: inputs, onError: 'continueErrorOutput' },
			);

			const inputOf = (item: INodeExecutionData) =>
				inputs[(item.pairedItem as { item: number }).item];
			const requestsByKey = new Map<string, SandboxRequest[]>();
			for (const request of suite.sandbox.requests) {
				const key = operation.keyOfRequest(request);
				requestsByKey.set(key, [...(requestsByKey.get(key) ?? []), request]);
			}
			const succeeded = items.map((item) => inputOf(item));
			const failed = errorItems.map((item) => inputOf(item));
			const falseSuccesses = succeeded.filter(
				(input) => !requestsByKey.get(input.key as string)?.every(serverCompleted),
			);
			const retriedWrites = [...requestsByKey.values()].filter((requests) => requests.length > 1);
			Object.assign(totals, {
				sent: totals.sent + inputs.length,
				succeeded: totals.succeeded + succeeded.length,
				failedLoudly: totals.failedLoudly + failed.length,
				falseSuccesses: totals.falseSuccesses + falseSuccesses.length,
				retriedWrites: totals.retriedWrites + retriedWrites.length,
			});

			expect(falseSuccesses).toEqual([]);
			expect(retriedWrites).toEqual([]);
			expect(succeeded.length + failed.length).toBe(inputs.length);
			expect(requestsByKey.size).toBe(inputs.length);
			// The sandbox applies a write exactly when it completes it; the store shows what the node
			// reported.
			expect(succeeded.filter((input) => !operation.applied(store, input))).toEqual([]);
			expect(failed.filter((input) => operation.applied(store, input))).toEqual([]);
			expect(
				failed.every((input) => !requestsByKey.get(input.key as string)!.some(serverCompleted)),
			).toBe(true);
			expect(succeeded.length).toBeGreaterThan(0);
			expect(failed.length).toBeGreaterThan(0);
			expect(
				errorItems.every((item) => typeof item.json.error === 'string' && item.json.error !== ''),
			).toBe(true);
		},
	);
});
