/**
 * Timeouts: a request that never answers ends the run with a clear timeout error within n8n's
 * request timeout option (Request Options > Timeout), for a single GET, a page of a Return All list
 * and a write.
 */
import type { INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../harness/sandbox';

// Every request of a run has it, also those that answer (a Return All's pages before the one that
// hangs): long enough that a busy machine's answers come within it.
const TIMEOUT_MS = 2000;
const TIMED_OUT = 'The Equipment Rental API did not answer in time [item 0]';

describe('Timeouts', () => {
	const suite = useSandbox({ models: 500 });
	afterEach(() => suite.sandbox.setOptions({ faults: null, maxPageSize: undefined }));

	async function timedRun(parameters: INodeParameters, onError?: 'continueRegularOutput') {
		const started = Date.now();
		const result = await suite.run(
			{ ...parameters, requestOptions: { timeout: TIMEOUT_MS } },
			{ onError },
		);
		return { ...result, elapsed: Date.now() - started };
	}

	function expectTimeoutError(
		error: { message?: string; description?: string | null } | undefined,
	) {
		expect(error?.message).toBe(TIMED_OUT);
		expect(error?.description).toContain('Request Options > Timeout');
	}

	it('ends a GET that never answers with a timeout error, without trying again', async () => {
		suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['hang'] } });

		const { error, elapsed } = await timedRun({
			resource: 'equipmentDistance',
			operation: 'get',
			date: suite.fixtures.distanceDate,
		});

		expectTimeoutError(error);
		// A hang the timeout did not end would outlast the test; no upper bound in wall-clock time
		// (shared machines), the timeout's own error says it ended the run.
		expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS);
		expect(suite.sandbox.requests).toHaveLength(1);
	});

	it.each([
		['stopping the workflow', undefined],
		['with Continue on Fail', 'continueRegularOutput' as const],
	])(
		'ends Return All when one page never answers, outputting no record, %s',
		async (_case, onError) => {
			suite.sandbox.setOptions({ maxPageSize: 50 });
			const removeHook = suite.sandbox.onRequest((request) =>
				suite.sandbox.setOptions({
					faults: request.query.page === '3' ? { rate: 1, kinds: ['hang'] } : null,
				}),
			);
			try {
				const { error, items } = await timedRun(
					{ resource: 'equipmentModel', operation: 'getAll', returnAll: true },
					onError,
				);

				expect(items.filter((item) => item.json.id !== undefined)).toEqual([]);
				if (onError)
					expect(items.map((item) => item.json.error)).toEqual([
						`${TIMED_OUT}. Raise the timeout under Request Options > Timeout, or try again later.`,
					]);
				else expectTimeoutError(error);
				expect(suite.sandbox.requests.filter((request) => request.query.page === '3')).toHaveLength(
					1,
				);
			} finally {
				removeHook();
			}
		},
	);

	it('reports a write that never answers as timed out, not as done, and does not send it again', async () => {
		suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['hang'] } });

		const { error, items } = await timedRun({
			resource: 'quote',
			operation: 'create',
			clientId: suite.fixtures.clientId,
			contractId: suite.fixtures.contractId,
			amount: 1,
		});

		expectTimeoutError(error);
		expect(items).toEqual([]);
		expect(suite.sandbox.requests).toHaveLength(1);
	});
});
