/**
 * Return All under injected faults: every run must end with the exact record set of the sandbox or
 * with a loud error, never with a partial list or duplicates; and lists of 100 pages must complete
 * under 10% injected 5xx.
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { FaultKind, FaultOptions } from '../../sandbox/faults';
import type { RunOptions } from '../harness/engine';
import { useSandbox } from '../harness/sandbox';
import type { CompletionShare, ListOutcome } from './results';
import { addTo, emptyTally, listOutcome, recordResults, share } from './results';

const MODEL_COUNT = 1000;
const TRANSIENT_FAULTS: FaultKind[] = ['500', '503', '429', 'malformed', 'drop', 'slow'];
/**
 * Small delays keep the suite fast; Retry-After 0 still goes through the node's Retry-After path.
 */
const QUICK_FAULTS: Partial<FaultOptions> = {
	kinds: TRANSIENT_FAULTS,
	retryAfterSeconds: 0,
	slowMs: 100,
};
/** n8n's defaults for Retry On Fail, as a user switches it on in the node's settings. */
const RETRY_ON_FAIL: RunOptions['settings'] = {
	retryOnFail: true,
	maxTries: 3,
	waitBetweenTries: 1000,
};
/** Runs at the same time: most of a run under faults is spent waiting out backoffs. */
const RUNS_AT_ONCE = 4;

interface Model extends IDataObject {
	id: string;
	name: string;
	brandId: string;
}

const getModels = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'equipmentModel',
	operation: 'getAll',
	returnAll: true,
	...extra,
});

describe('List operations with Return All under injected faults', () => {
	const suite = useSandbox({ models: MODEL_COUNT });
	const lists = emptyTally();
	const completionUnder5xx = {
		nodeRetries: { runs: 0, complete: 0 },
		withRetryOnFail: { runs: 0, complete: 0 },
	};

	const models = () => suite.sandbox.store.models as Model[];
	const priceListIds = () =>
		(suite.sandbox.store.priceLists as Map<string, IDataObject[]>)
			.get(suite.fixtures.customPriceId)!
			.map((entry) => entry.id as string);

	interface Repetition {
		runs: number;
		parameters: INodeParameters;
		/** The ids the sandbox holds, asked once each run has ended. */
		expectedIds: () => string[];
		options?: Partial<RunOptions>;
		/** Runs at the same time; the sandbox's faults fall on their requests in arrival order. */
		concurrency?: number;
		afterEachRun?: () => void;
	}

	/**
	 * Runs the node again and again, judging each run (see listOutcome); `errors` are the failed
	 * runs' messages.
	 */
	async function runRepeatedly(
		repetition: Repetition,
	): Promise<Record<ListOutcome, number> & { errors: string[] }> {
		const {
			runs,
			parameters,
			expectedIds,
			options,
			concurrency = RUNS_AT_ONCE,
			afterEachRun,
		} = repetition;
		const outcomes = {
			complete: 0,
			failedLoudly: 0,
			partial: 0,
			duplicates: 0,
			errors: [] as string[],
		};
		let started = 0;
		const runner = async () => {
			while (started < runs) {
				started++;
				const result = await suite.run(parameters, options);
				const outcome = listOutcome(result, expectedIds());
				afterEachRun?.();
				outcomes[outcome] += 1;
				if (result.error)
					outcomes.errors.push(
						`${result.error.message} (${result.error.description ?? 'no description'})`,
					);
				addTo(lists, outcome);
			}
		};
		await Promise.all(Array.from({ length: concurrency }, runner));
		return outcomes;
	}

	afterEach(() => suite.sandbox.setOptions({ faults: null, maxPageSize: undefined }));
	afterAll(() => recordResults('lists', { lists, completionUnder5xx }));

	const allModelIds = () => models().map((model) => model.id);

	interface Scenario {
		name: string;
		runs: number;
		/** Share of the requests that get a fault. */
		faultRate: number;
		/** The sandbox's silent ceiling of `limit`. */
		maxPageSize: number;
		parameters: INodeParameters;
		expectedIds: () => string[];
		onError?: RunOptions['onError'];
	}

	it.each<Scenario>([
		{
			name: 'all 1000 equipment models in 10 pages, faults on a fifth of the requests',
			runs: 60,
			faultRate: 0.2,
			maxPageSize: 100,
			parameters: getModels(),
			expectedIds: allModelIds,
		},
		{
			name: 'all 1000 equipment models in 10 pages, faults on three requests in five',
			runs: 40,
			faultRate: 0.6,
			maxPageSize: 100,
			parameters: getModels(),
			expectedIds: allModelIds,
		},
		{
			name: 'all 1000 equipment models asked 1000 a page from a server that caps pages at 50',
			runs: 20,
			faultRate: 0.2,
			maxPageSize: 50,
			parameters: getModels({ options: { pageSize: 1000 } }),
			expectedIds: allModelIds,
		},
		{
			name: 'the models of one brand, one page of 8 at a time',
			runs: 40,
			faultRate: 0.3,
			maxPageSize: 100,
			parameters: getModels({
				filters: { brandId: '={{ $json.brandId }}' },
				options: { pageSize: 8, parallelRequests: 1 },
			}),
			expectedIds: () =>
				models()
					.filter((model) => model.brandId === suite.fixtures.brandId)
					.map((model) => model.id),
		},
		{
			name: 'all clients in pages of 5 from a server that caps pages at 4',
			runs: 20,
			faultRate: 0.3,
			maxPageSize: 4,
			parameters: {
				resource: 'client',
				operation: 'getAll',
				returnAll: true,
				options: { pageSize: 5 },
			},
			expectedIds: () =>
				(suite.sandbox.store.clients as IDataObject[]).map((client) => client.id as string),
		},
		{
			name: "a client's contracts, one page of 1 at a time",
			runs: 20,
			faultRate: 0.3,
			maxPageSize: 100,
			parameters: {
				resource: 'contract',
				operation: 'getAll',
				returnAll: true,
				filters: { clientId: '={{ $json.clientId }}' },
				options: { pageSize: 1, parallelRequests: 1 },
			},
			expectedIds: () =>
				(suite.sandbox.store.contracts as IDataObject[])
					.filter((contract) => contract.clientId === suite.fixtures.clientId)
					.map((contract) => contract.id as string),
		},
		{
			name: 'all products in pages of 3',
			runs: 20,
			faultRate: 0.3,
			maxPageSize: 100,
			parameters: {
				resource: 'product',
				operation: 'getAll',
				returnAll: true,
				options: { pageSize: 3 },
			},
			expectedIds: () => [...(suite.sandbox.store.products as Map<string, unknown>).keys()],
		},
		{
			name: 'all equipment asked 100 a page from a server that caps pages at 15',
			runs: 20,
			faultRate: 0.3,
			maxPageSize: 15,
			parameters: { resource: 'equipment', operation: 'getAll', returnAll: true },
			expectedIds: () =>
				(suite.sandbox.store.equipment as IDataObject[]).map((unit) => unit.id as string),
		},
		{
			name: 'a custom price list in pages of 4, with Continue on Fail',
			runs: 40,
			faultRate: 0.3,
			maxPageSize: 100,
			parameters: {
				resource: 'product',
				operation: 'getCustomPriceList',
				customPriceId: '={{ $json.customPriceId }}',
				returnAll: true,
				options: { pageSize: 4 },
			},
			expectedIds: priceListIds,
			onError: 'continueRegularOutput',
		},
	])(
		'$name: $runs runs, each complete or failed loudly',
		async ({ runs, faultRate, maxPageSize, parameters, expectedIds, onError }) => {
			suite.sandbox.setOptions({
				maxPageSize,
				faults: { ...QUICK_FAULTS, rate: faultRate, seed: runs + maxPageSize + faultRate * 10 },
			});
			const items = [
				{
					brandId: suite.fixtures.brandId,
					customPriceId: suite.fixtures.customPriceId,
					clientId: suite.fixtures.clientId,
				},
			];

			const outcomes = await runRepeatedly({
				runs,
				parameters,
				expectedIds,
				options: { items, onError },
			});

			expect(outcomes).toMatchObject({ partial: 0, duplicates: 0 });
			expect(outcomes.complete).toBeGreaterThan(0);
			if (faultRate >= 0.5) expect(outcomes.failedLoudly).toBeGreaterThan(0);
		},
	);

	it('reads the list again when records are added or removed while it is being paged: 30 runs with faults', async () => {
		suite.sandbox.setOptions({
			maxPageSize: 100,
			faults: { ...QUICK_FAULTS, rate: 0.2, seed: 13 },
		});
		let changes = 0;
		let undo: (() => void) | undefined;
		// On the first page 3 of each run, a model that sorts first is added; on every other run an
		// existing model goes as well, which keeps the total the same, so that only the records
		// themselves tell.
		const removeHook = suite.sandbox.onRequest((request) => {
			if (undo || request.query.page !== '3') return;
			const added: Model = {
				...models()[0],
				id: randomUUID(),
				name: `!Added while paging ${changes}`,
			};
			const removed = changes % 2 === 0 ? models().splice(500, 1)[0] : undefined;
			models().push(added);
			changes++;
			undo = () => {
				models().splice(models().indexOf(added), 1);
				if (removed) models().splice(500, 0, removed);
			};
		});
		try {
			const outcomes = await runRepeatedly({
				runs: 30,
				parameters: getModels(),
				expectedIds: allModelIds,
				// One run at a time: each changes the records once, and puts them back after.
				concurrency: 1,
				afterEachRun: () => {
					undo?.();
					undo = undefined;
				},
			});

			expect(outcomes).toMatchObject({ partial: 0, duplicates: 0 });
			expect(outcomes.complete).toBeGreaterThan(0);
			// Only a run that fails before its page 3 changes nothing.
			expect(changes).toBeGreaterThan(25);
		} finally {
			removeHook();
		}
	});

	describe('share of 100-page lists that complete under 10% injected 5xx per request', () => {
		async function measure(runs: number, into: CompletionShare, options: Partial<RunOptions> = {}) {
			suite.sandbox.setOptions({
				maxPageSize: 10,
				faults: { rate: 0.1, kinds: ['500', '503'], seed: runs },
			});
			const outcomes = await runRepeatedly({
				runs,
				parameters: getModels(),
				expectedIds: allModelIds,
				options,
			});
			into.runs += runs;
			into.complete += outcomes.complete;
			expect(outcomes).toMatchObject({ partial: 0, duplicates: 0 });
			// Below the target, the failed runs' errors are what the assertion shows.
			expect(share(into) >= 0.99 || outcomes.errors).toBe(true);
			expect(
				suite.sandbox.requests.filter((request) => request.query.page === '100').length,
			).toBeGreaterThanOrEqual(runs);
		}

		it("is at least 99% with the node's own retries", async () => {
			await measure(100, completionUnder5xx.nodeRetries);
		});

		it("is at least 99% with n8n's Retry On Fail on top", async () => {
			await measure(100, completionUnder5xx.withRetryOnFail, { settings: RETRY_ON_FAIL });
		});
	});

	describe('rate limits', () => {
		it('waits as long as Retry-After says before asking for the page again', async () => {
			const arrivals: number[] = [];
			const removeHook = suite.sandbox.onRequest(() => {
				arrivals.push(Date.now());
				suite.sandbox.setOptions({
					faults: arrivals.length === 1 ? { rate: 1, kinds: ['429'], retryAfterSeconds: 1 } : null,
				});
			});
			try {
				const { items, error } = await suite.run(
					getModels({ filters: { brandId: suite.fixtures.brandId } }),
				);

				expect(error).toBeUndefined();
				expect(items.length).toBeGreaterThan(0);
				expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(1000);
			} finally {
				removeHook();
			}
		});

		it('names the rate limit, says how long the API kept refusing and what to change, once the Max Rate Limit Wait is spent', async () => {
			suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['429'], retryAfterSeconds: 1 } });

			const { error, items } = await suite.run({
				...getModels(),
				requestOptions: { maxRateLimitWait: 2 },
			});

			expect(items).toEqual([]);
			// The first refusal, then one a second later; the next wait would end past 2 seconds.
			expect(suite.sandbox.requests).toHaveLength(2);
			expect(error?.message).toBe(
				'The API kept refusing requests as rate-limited (HTTP 429) for 1 second [item 0]',
			);
			expect(error?.description).toContain("lower 'Parallel Requests' under Request Options");
			expect(error?.description).toContain(
				"The API's last answer: The API's rate limit was reached (HTTP 429); retry after 1 second.",
			);
		});
	});
});
