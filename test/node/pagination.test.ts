import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { holdRequestsUntil } from '../harness/ordering';
import type { SandboxRequest } from '../harness/sandbox';
import { useSandbox } from '../harness/sandbox';

// The sandbox is plain JavaScript so that it runs without a build step.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { handlers } = require('../../sandbox/handlers');

const MODEL_COUNT = 1000;
const LIST_CHANGED = 'The list changed while it was being read, 3 times in a row';
const SERVER_ERROR = 'The Equipment Rental API failed to process the request (HTTP 500)';

interface Model extends IDataObject {
	id: string;
	name: string;
}

const ids = (items: INodeExecutionData[]) => items.map((item) => item.json.id);
const pageOf = (request: SandboxRequest) => Number(request.query.page);
const oneToN = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

describe('Pagination of list operations (Equipment Model: Get Many)', () => {
	const suite = useSandbox({ models: MODEL_COUNT });
	const models = () => suite.sandbox.store.models as Model[];
	let originalModels: Model[];
	let removeHooks: Array<() => void>;

	beforeEach(() => {
		originalModels = [...models()];
		removeHooks = [];
		suite.sandbox.setOptions({ maxPageSize: 100 });
	});
	afterEach(() => {
		for (const removeHook of removeHooks) removeHook();
		models().splice(0, models().length, ...originalModels);
		suite.sandbox.setOptions({ maxPageSize: undefined, latencyMs: undefined });
	});

	const onRequest = (hook: (request: SandboxRequest) => void | Promise<void>) => {
		removeHooks.push(suite.sandbox.onRequest(hook));
	};
	/**
	 * Holds the pages after the first (which tells how many there are) until `count` requests are in
	 * flight at once, however slowly a busy machine sends them.
	 */
	const holdUntilInFlight = (count: number) =>
		removeHooks.push(
			holdRequestsUntil(
				suite.sandbox,
				(request) => pageOf(request) === 1 || suite.sandbox.maxInFlight >= count,
			),
		);
	const getMany = (parameters: IDataObject, options = {}) =>
		suite.run({ resource: 'equipmentModel', operation: 'getAll', ...parameters }, options);

	/**
	 * The ids of all models in the order the API lists them now, from the sandbox's own list handler.
	 */
	const apiOrder = (): string[] =>
		handlers
			.listEquipmentModels(suite.sandbox.store, { query: { page: 1, limit: models().length } }, {})
			.body.content.map((model: Model) => model.id);

	/** Page numbers and limits that were asked for, by page number. */
	const pagesAsked = () =>
		suite.sandbox.requests
			.map((request) => [pageOf(request), request.query.limit])
			.sort(([left], [right]) => Number(left) - Number(right));

	/**
	 * A new model whose name sorts before every seeded one (digits come before letters in the API's
	 * order).
	 */
	const modelSortingFirst = (): Model => ({
		...models()[0],
		id: randomUUID(),
		name: `0 New model ${randomUUID()}`,
	});
	/** A new model whose name sorts after every seeded one ('~' comes after letters). */
	const modelSortingLast = (): Model => ({
		...models()[0],
		id: randomUUID(),
		name: `~ New model ${randomUUID()}`,
	});

	/** Runs `change` once, when page 2 is first asked for: page 1 has been served by then. */
	const changeOnceAfterPageOne = (change: () => void) => {
		let changed = false;
		onRequest((request) => {
			if (pageOf(request) === 2 && !changed) {
				changed = true;
				change();
			}
		});
	};
	const readsOfPageOne = () =>
		suite.sandbox.requests.filter((request) => pageOf(request) === 1).length;

	const indexOfLastModelInApiOrder = () => {
		const lastId = apiOrder().at(-1);
		return models().findIndex((model) => model.id === lastId);
	};

	describe('order', () => {
		it('outputs the records in the API order although later pages are answered first', async () => {
			const pagesAnswered: number[] = [];
			let answerPagesTwoAndThree = () => {};
			const lastPageAnswered = new Promise<void>((resolve) => (answerPagesTwoAndThree = resolve));
			onRequest(async (request) => {
				const page = pageOf(request);
				if (page === 2 || page === 3) await lastPageAnswered;
				pagesAnswered.push(page);
				if (page === 10) answerPagesTwoAndThree();
			});

			const { items, error } = await getMany({ returnAll: true });

			expect(error).toBeUndefined();
			expect(ids(items)).toEqual(apiOrder());
			expect(pagesAnswered.slice(-2).sort()).toEqual([2, 3]);
		});
	});

	describe('capped pages', () => {
		it.each([
			[100, 10],
			[70, 15],
		])(
			'with pages capped at %i records, outputs every record once in order, from %i pages',
			async (cap, pageCount) => {
				suite.sandbox.setOptions({ maxPageSize: cap });

				const { items, error } = await getMany({ returnAll: true, options: { pageSize: 1000 } });

				expect(error).toBeUndefined();
				expect(ids(items)).toEqual(apiOrder());
				expect(pagesAsked()).toEqual(
					oneToN(pageCount).map((page) => [page, page === 1 ? '1000' : String(cap)]),
				);
			},
		);

		it('asks for the Page Size given under Options', async () => {
			suite.sandbox.setOptions({ maxPageSize: undefined });

			const { items } = await getMany({ returnAll: true, options: { pageSize: 300 } });

			expect(ids(items)).toEqual(apiOrder());
			expect(pagesAsked()).toEqual([
				[1, '300'],
				[2, '300'],
				[3, '300'],
				[4, '300'],
			]);
		});
	});

	describe('records shifting while the list is paged', () => {
		it.each([
			['front', modelSortingFirst],
			['end', modelSortingLast],
		])(
			'reads again a list that grew at its %s, outputting the final records once each',
			async (_end, newModel) => {
				const added = newModel();
				changeOnceAfterPageOne(() => models().push(added));

				const { items, error } = await getMany({ returnAll: true });

				expect(error).toBeUndefined();
				expect(ids(items)).toEqual(apiOrder());
				expect(ids(items)).toContain(added.id);
				expect(new Set(ids(items)).size).toBe(MODEL_COUNT + 1);
				expect(readsOfPageOne()).toBe(2);
			},
		);

		it('reads again a list whose records shifted while its total stayed the same, missing none', async () => {
			changeOnceAfterPageOne(() => {
				models().splice(indexOfLastModelInApiOrder(), 1);
				models().push(modelSortingFirst());
			});

			const { items, error } = await getMany({ returnAll: true });

			expect(error).toBeUndefined();
			expect(ids(items)).toEqual(apiOrder());
			expect(new Set(ids(items)).size).toBe(MODEL_COUNT);
			expect(readsOfPageOne()).toBe(2);
		});

		it('fails loudly, outputting nothing, when the list keeps changing after three reads', async () => {
			onRequest((request) => {
				if (pageOf(request) === 2) models().push(modelSortingFirst());
			});

			const { items, error } = await getMany({ returnAll: true });

			expect(items).toEqual([]);
			expect(error?.message).toContain(LIST_CHANGED);
			expect(readsOfPageOne()).toBe(3);
		});
	});

	describe('Limit', () => {
		it('requests only the pages the Limit needs', async () => {
			const { items } = await getMany({ limit: 250, options: { pageSize: 1000 } });

			expect(ids(items)).toEqual(apiOrder().slice(0, 250));
			expect(pagesAsked()).toEqual([
				[1, '250'],
				[2, '100'],
				[3, '100'],
			]);
		});
	});

	describe('parallel requests', () => {
		it.each([1, 3, 5])(
			'keeps at most %i requests in flight, and uses them all',
			async (parallelRequests) => {
				suite.sandbox.setOptions({ latencyMs: 50 });
				holdUntilInFlight(parallelRequests);

				const { items } = await getMany({ returnAll: true, requestOptions: { parallelRequests } });

				expect(ids(items)).toEqual(apiOrder());
				expect(suite.sandbox.maxInFlight).toBe(parallelRequests);
			},
		);

		it('keeps to the Parallel Requests that a node saved by 0.2.0 sets under Options', async () => {
			suite.sandbox.setOptions({ latencyMs: 50 });
			holdUntilInFlight(2);

			const { items } = await getMany(
				{ returnAll: true, options: { parallelRequests: 2 } },
				{ typeVersion: 1 },
			);

			expect(ids(items)).toEqual(apiOrder());
			expect(suite.sandbox.maxInFlight).toBe(2);
		});

		it('fetches one page after another with Parallel Requests 1', async () => {
			suite.sandbox.setOptions({ latencyMs: 5 });

			await getMany({ returnAll: true, requestOptions: { parallelRequests: 1 } });

			expect(suite.sandbox.requests.map(pageOf)).toEqual(oneToN(10));
			expect(suite.sandbox.maxInFlight).toBe(1);
		});
	});

	describe('a page that keeps failing', () => {
		const failPage = (page: number) =>
			onRequest((request) => {
				if (pageOf(request) === page) throw new Error(`Page ${page} is broken`);
			});

		it('fails the item loudly, outputting no partial list', async () => {
			failPage(4);

			const { items, error } = await getMany({ returnAll: true });

			expect(items).toEqual([]);
			expect(error?.message).toContain(SERVER_ERROR);
			expect(suite.sandbox.requests.filter((request) => pageOf(request) === 4)).toHaveLength(5);
		});

		it('with Continue on Fail, outputs an error item paired with the failed item instead of its records', async () => {
			failPage(3);

			const { items } = await getMany(
				{ limit: '={{ $json.limit }}' },
				{ items: [{ limit: 150 }, { limit: 300 }], onError: 'continueRegularOutput' },
			);

			const firstItemRecords = items.slice(0, 150);
			expect(ids(firstItemRecords)).toEqual(apiOrder().slice(0, 150));
			expect(
				firstItemRecords.every((item) => (item.pairedItem as { item: number }).item === 0),
			).toBe(true);
			expect(items).toHaveLength(151);
			expect(items[150].pairedItem).toEqual({ item: 1 });
			expect(items[150].json.error).toContain(SERVER_ERROR);
		});

		it('with the error output, sends the failed item there and no records of it to the main output', async () => {
			failPage(3);

			const { items, errorItems } = await getMany(
				{ limit: '={{ $json.limit }}' },
				{ items: [{ limit: 150 }, { limit: 300 }], onError: 'continueErrorOutput' },
			);

			expect(ids(items)).toEqual(apiOrder().slice(0, 150));
			expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
			expect(errorItems.map((item) => item.pairedItem)).toEqual([{ item: 1 }]);
			expect(errorItems[0].json.error).toContain(SERVER_ERROR);
		});
	});
});
