/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-hardcoded-secrets
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * Secrets: every operation, in success and in every kind of failure, leaves no trace of the access
 * token in its output items, error messages and descriptions, the whole run data, or anything
 * logged.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { INode, INodeParameters } from 'n8n-workflow';
import { LoggerProxy } from 'n8n-workflow';

import { toItemError } from '../../nodes/shared/errors';

import type { FaultKind } from '../../sandbox/faults';
import type { RunOptions, RunResult } from '../harness/engine';
import { ActiveTrigger } from '../harness/poll';
import { TOKEN, useSandbox } from '../harness/sandbox';

const WRONG_TOKEN = 'wrong-token-7d41c9e2';
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
// Runs answer within n8n's default timeout; only the 'hang' case waits for one, so it is made short
// there.
const HANG_TIMEOUT_MS = 300;

/**
 * Every string reachable from `value`, including the properties errors hide (message, stack, cause,
 * ...).
 */
function allTextIn(value: unknown, seen = new WeakSet<object>()): string[] {
	if (typeof value === 'string') return [value];
	if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
		return [String(value)];
	if (typeof value !== 'object' || value === null || seen.has(value)) return [];
	seen.add(value);
	if (value instanceof Map) return allTextIn([...value.entries()], seen);
	if (value instanceof Set) return allTextIn([...value.values()], seen);
	return Object.getOwnPropertyNames(value).flatMap((key) => {
		const descriptor = Object.getOwnPropertyDescriptor(value, key);
		return [
			key,
			...allTextIn(descriptor && 'value' in descriptor ? descriptor.value : undefined, seen),
		];
	});
}

function tokensIn(texts: string[]): string[] {
	return texts.filter((text) => text.includes(TOKEN) || text.includes(WRONG_TOKEN));
}

describe('Secrets', () => {
	const suite = useSandbox();
	const logged: unknown[] = [];

	beforeAll(() => {
		const record =
			(level: string) =>
			(...args: unknown[]) =>
				logged.push(level, ...args);
		// n8n's own logger, at its most talkative, with every scope, writing here; it also serves
		// LoggerProxy.
		process.env.N8N_LOG_LEVEL = 'debug';
		const n8nLogger = Container.get(Logger) as unknown as {
			level: string;
			setInternalLogger(logger: unknown): void;
		};
		const capture = { log: record('n8n'), child: () => capture };
		n8nLogger.setInternalLogger(capture);
		expect(n8nLogger.level).toBe('debug');
		for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const)
			jest.spyOn(console, level).mockImplementation(record(level));
		for (const stream of [process.stdout, process.stderr]) {
			const write = stream.write.bind(stream);
			jest.spyOn(stream, 'write').mockImplementation((chunk: unknown, ...rest: unknown[]) => {
				logged.push(String(chunk));
				return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
			});
		}
	});
	afterAll(() => jest.restoreAllMocks());

	/**
	 * Each operation with working parameters, and with parameters that the API answers 404 or that
	 * fail validation.
	 */
	function operations(): Array<{
		name: string;
		valid: INodeParameters;
		notFound?: INodeParameters;
		invalid: INodeParameters;
	}> {
		const f = suite.fixtures;
		return [
			{
				name: 'Equipment Distance > Get',
				valid: { resource: 'equipmentDistance', operation: 'get', date: f.distanceDate },
				invalid: { resource: 'equipmentDistance', operation: 'get', date: '2024-02-30' },
			},
			{
				name: 'Equipment Model > Get Many',
				valid: {
					resource: 'equipmentModel',
					operation: 'getAll',
					returnAll: true,
					options: { pageSize: 500 },
				},
				invalid: { resource: 'equipmentModel', operation: 'getAll', filters: { brandId: 'ACME' } },
			},
			{
				name: 'Inventory > Delete',
				valid: { resource: 'inventory', operation: 'delete', inventoryId: f.inventoryId },
				notFound: { resource: 'inventory', operation: 'delete', inventoryId: 'no-such-inventory' },
				invalid: { resource: 'inventory', operation: 'delete', inventoryId: '..' },
			},
			{
				name: 'Product > Attach Service',
				valid: {
					resource: 'product',
					operation: 'attach',
					productId: f.equipmentProductId,
					serviceProductId: f.serviceProductId,
				},
				notFound: {
					resource: 'product',
					operation: 'attach',
					productId: UNKNOWN_UUID,
					serviceProductId: f.serviceProductId,
				},
				invalid: {
					resource: 'product',
					operation: 'attach',
					productId: f.equipmentProductId,
					serviceProductId: 'service-1',
				},
			},
			{
				name: 'Product > Get Custom Price List',
				valid: {
					resource: 'product',
					operation: 'getCustomPriceList',
					customPriceId: f.customPriceId,
					returnAll: true,
				},
				notFound: {
					resource: 'product',
					operation: 'getCustomPriceList',
					customPriceId: 'no-such-list',
					returnAll: true,
				},
				invalid: {
					resource: 'product',
					operation: 'getCustomPriceList',
					customPriceId: f.customPriceId,
					limit: 0,
				},
			},
			{
				name: 'Product > Update Price Item',
				valid: {
					resource: 'product',
					operation: 'updatePriceItem',
					productId: f.equipmentProductId,
					priceId: f.priceId,
					from: 1,
					price: 9,
				},
				notFound: {
					resource: 'product',
					operation: 'updatePriceItem',
					productId: UNKNOWN_UUID,
					priceId: f.priceId,
					from: 1,
					price: 9,
				},
				invalid: {
					resource: 'product',
					operation: 'updatePriceItem',
					productId: f.equipmentProductId,
					priceId: f.priceId,
					from: 0,
					price: 9,
				},
			},
			{
				name: 'Quote > Create',
				valid: {
					resource: 'quote',
					operation: 'create',
					clientId: f.clientId,
					contractId: f.contractId,
					amount: 10,
				},
				invalid: {
					resource: 'quote',
					operation: 'create',
					clientId: f.clientId,
					contractId: f.contractId,
					amount: 100_000_000.01,
				},
			},
			{
				name: 'Release > Update',
				valid: {
					resource: 'release',
					operation: 'update',
					releaseId: f.releaseId,
					updateFields: { reason: 'checked' },
				},
				notFound: {
					resource: 'release',
					operation: 'update',
					releaseId: UNKNOWN_UUID,
					updateFields: { reason: 'checked' },
				},
				invalid: {
					resource: 'release',
					operation: 'update',
					releaseId: f.releaseId,
					updateFields: {},
				},
			},
		];
	}

	/**
	 * Runs every operation with the given parameters, all at once, both stopping on the error and
	 * with Continue on Fail (error output) unless told otherwise, and returns the runs with the
	 * number that failed.
	 */
	async function runEverywhere(
		pick: (operation: ReturnType<typeof operations>[number]) => INodeParameters | undefined,
		{
			accessToken = TOKEN,
			onErrorModes = [undefined, 'continueErrorOutput'] as Array<RunOptions['onError']>,
			requestOptions = {} as INodeParameters,
			baseUrl = suite.sandbox.url,
		} = {},
	): Promise<{ results: RunResult[]; failures: number }> {
		const runs = operations()
			.map(pick)
			.filter((parameters): parameters is INodeParameters => parameters !== undefined)
			.flatMap((parameters) =>
				onErrorModes.map((onError) =>
					suite.run(
						{ ...parameters, requestOptions },
						{ onError, credentials: { baseUrl, accessToken } },
					),
				),
			);
		const results = await Promise.all(runs);
		const failures = results.filter(
			(result) => result.error !== undefined || result.errorItems.length > 0,
		).length;
		return { results, failures };
	}

	function expectNoToken(results: RunResult[]) {
		const everything = results.flatMap((result) => [
			...allTextIn(result.items),
			...allTextIn(result.errorItems),
			...allTextIn(result.error),
			...allTextIn(result.run),
		]);
		expect(everything.length).toBeGreaterThan(0);
		expect(tokensIn(everything)).toEqual([]);
		expect(tokensIn(allTextIn(logged))).toEqual([]);
	}

	afterEach(() => suite.sandbox.setOptions({ faults: null }));

	it('in success', async () => {
		// Once each: a second delete or attach of the same records would fail.
		const { results, failures } = await runEverywhere((operation) => operation.valid, {
			onErrorModes: [undefined],
		});

		expect(failures).toBe(0);
		expectNoToken(results);
	});

	it('when an input fails validation', async () => {
		const { results, failures } = await runEverywhere((operation) => operation.invalid);

		expect(failures).toBe(results.length);
		expect(suite.sandbox.requests).toHaveLength(0);
		expectNoToken(results);
	});

	it('when the API does not accept the token (401)', async () => {
		const { results, failures } = await runEverywhere((operation) => operation.valid, {
			accessToken: WRONG_TOKEN,
		});

		expect(failures).toBe(results.length);
		expect(
			suite.sandbox.requests.every(
				(request) => request.headers.authorization === `Bearer ${WRONG_TOKEN}`,
			),
		).toBe(true);
		expectNoToken(results);
	});

	it('when a record is not found (404)', async () => {
		const { results, failures } = await runEverywhere((operation) => operation.notFound);

		expect(failures).toBe(results.length);
		expectNoToken(results);
	});

	it.each<[string, FaultKind]>([
		['the server fails (500)', '500'],
		['the connection is dropped', 'drop'],
		['the answer is cut off', 'malformed'],
		['the API does not answer before the timeout', 'hang'],
	])('when %s', async (_case, kind) => {
		suite.sandbox.setOptions({ faults: { rate: 1, kinds: [kind] } });

		const requestOptions = kind === 'hang' ? { timeout: HANG_TIMEOUT_MS } : {};
		const { results, failures } = await runEverywhere((operation) => operation.valid, {
			requestOptions,
		});

		expect(failures).toBe(results.length);
		expectNoToken(results);
	});

	describe('when the API quotes the token in its error answer', () => {
		const echo = createServer((request, response) => {
			const token = String(request.headers.authorization).replace(/^Bearer /, '');
			response.writeHead(401, {
				'Content-Type': 'application/json',
				'WWW-Authenticate': `Bearer error="invalid_token", token="${token}"`,
			});
			response.end(
				JSON.stringify({
					statusCode: 401,
					error: `Unauthorized: ${token}`,
					message: `The token ${token} has expired`,
					field: token,
				}),
			);
		});
		beforeAll(
			async () => await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve)),
		);
		afterAll(() => {
			echo.closeAllConnections();
			echo.close();
		});

		it('keeps its explanation with the token taken out', async () => {
			const baseUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
			const { results, failures } = await runEverywhere((operation) => operation.valid, {
				baseUrl,
			});

			expect(failures).toBe(results.length);
			for (const { error, errorItems } of results) {
				expect(error?.description ?? errorItems[0]?.json.error).toContain(
					'The API said: The token [redacted] has expired',
				);
			}
			expectNoToken(results);
		});

		it('keeps it out of a trigger activation that fails', async () => {
			const baseUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
			const parameters = { event: 'equipmentModelUpdated', filters: {} };
			const activation = ActiveTrigger.activate({
				parameters,
				credentials: { baseUrl, accessToken: TOKEN },
			});

			const error = await activation.then(
				() => undefined,
				(reason: unknown) => reason,
			);
			expect((error as Error | undefined)?.message).toBe(
				'Authorization failed (HTTP 401): the API did not accept the access token',
			);
			expect(allTextIn(error).join(' ')).toContain('[redacted]');
			expect(tokensIn(allTextIn(error))).toEqual([]);
		});
	});

	// n8n 2.8 wraps transport failures in errors that keep no request; an HTTP client's own error
	// keeps its request (headers included) in `config` and `request`, and is what reaches the node
	// when the engine passes it on as is.
	it.each([
		[
			'a dropped connection',
			'ECONNRESET',
			'The connection to the Equipment Rental API was dropped before it answered',
		],
		['a timeout', 'ECONNABORTED', 'The Equipment Rental API did not answer in time'],
		['an unexpected failure', undefined, 'request failed'],
	])(
		"rebuilds the HTTP client's error for %s without the request it carries",
		(_case, code, message) => {
			const node = { name: 'Equipment Rental' } as INode;
			const request = { headers: { Authorization: `Bearer ${TOKEN}` } };
			const clientError = Object.assign(new Error('request failed'), {
				code,
				config: request,
				request,
				cause: { config: request },
			});

			const itemError = toItemError({ getNode: () => node, getItemIndex: () => 3 }, clientError);

			expect(tokensIn(allTextIn(itemError))).toEqual([]);
			expect(itemError.message).toBe(`${message} [item 3]`);
		},
	);

	it('finds a token hidden in the cause of an error, and in anything logged, so that the checks above can fail', () => {
		const hidden = {
			cause: Object.assign(new Error('x'), {
				config: { headers: { Authorization: `Bearer ${TOKEN}` } },
			}),
		};
		expect(tokensIn(allTextIn(hidden))).toHaveLength(1);

		const before = logged.length;
		LoggerProxy.debug(`request failed with ${WRONG_TOKEN}`);
		Container.get(Logger).scoped('ssh-client').error(`request failed with ${WRONG_TOKEN}`);
		// eslint-disable-next-line no-console -- what the console printed is what this check reads
		console.warn(`request failed with ${WRONG_TOKEN}`);
		expect(tokensIn(allTextIn(logged.splice(before)))).toHaveLength(3);
	});
});
