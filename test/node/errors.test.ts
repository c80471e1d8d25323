/* eslint-disable
	@n8n/community-nodes/no-hardcoded-secrets
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
import { EXAMPLE_UUID } from '../../nodes/shared/parameters';
import { NODE_NAME, runNode, type RunResult } from '../harness/engine';
import { useRedirectingServer } from '../harness/recordingServer';
import { TOKEN, useSandbox } from '../harness/sandbox';

describe('Errors', () => {
	const suite = useSandbox();
	afterEach(() => suite.sandbox.setOptions({ faults: null }));

	it("names the credential on 401, keeps the API's message, does not retry and never shows the token", async () => {
		const wrongToken = 'wrong-token-5f2e9a';
		const { error } = await suite.run(
			{ resource: 'equipmentDistance', operation: 'get', date: suite.fixtures.distanceDate },
			{ credentials: { baseUrl: suite.sandbox.url, accessToken: wrongToken } },
		);

		expect(error?.message).toBe(
			'Authorization failed (HTTP 401): the API did not accept the access token [item 0]',
		);
		expect(error?.description).toContain('The API said: Invalid or missing access token');
		expect(error?.description).toContain('Equipment Rental API credential');
		expect(suite.sandbox.requests).toHaveLength(1);
		expect(suite.sandbox.requests[0].headers.authorization).toBe(`Bearer ${wrongToken}`);
		const serialized = JSON.stringify({ ...error, message: error?.message, stack: error?.stack });
		expect(serialized).not.toContain(wrongToken);
		expect(serialized).not.toContain(TOKEN);
	});

	it('sends items that fail to the error output with their input and pairedItem; the others go on', async () => {
		const { fixtures } = suite;
		const { items, errorItems } = await suite.run(
			{
				resource: 'product',
				operation: 'attach',
				productId: '={{ $json.product }}',
				serviceProductId: '={{ $json.service }}',
			},
			{
				onError: 'continueErrorOutput',
				items: [
					{ product: fixtures.equipmentProductId, service: 'not-a-uuid' },
					{ product: fixtures.personProductId, service: fixtures.serviceProductId },
					{ product: fixtures.equipmentProductId, service: fixtures.personProductId },
				],
			},
		);

		expect(items.map((item) => [item.json, item.pairedItem])).toEqual([
			[
				{
					success: true,
					productId: fixtures.personProductId,
					serviceProductId: fixtures.serviceProductId,
				},
				{ item: 1 },
			],
		]);
		expect(errorItems.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
		expect(errorItems[0].json.error).toMatch(
			/^'Service Product' must be a UUID .*\[item 0\]\. Received the text "not-a-uuid"\.$/,
		);
		expect(errorItems[1].json.error).toContain('The API rejected the request (HTTP 422)');
		expect(suite.sandbox.requests).toHaveLength(2);
	});

	describe('with Continue On Fail, a failed item says in sentences what went wrong', () => {
		const attach = {
			resource: 'product',
			operation: 'attach',
			productId: '={{ $json.product }}',
			serviceProductId: '={{ $json.service }}',
		};
		const conflict = () => {
			const { inventoryProductId: product, serviceProductId: service } = suite.fixtures;
			return {
				input: { product, service },
				error: `The API rejected the request (HTTP 409) [item 0]. The API said: Product ${service} is already attached to ${product}. The field at fault is 'Service Product'.`,
			};
		};
		const badUuid = {
			input: { product: EXAMPLE_UUID, service: 'not-a-uuid' },
			error: `'Service Product' must be a UUID such as ${EXAMPLE_UUID} [item 1]. Received the text "not-a-uuid".`,
		};
		beforeAll(async () => {
			// Attached once, so that attaching it again is a conflict.
			const { error } = await suite.run(attach, { items: [conflict().input] });
			expect(error).toBeUndefined();
		});

		it('on the regular output: the error alone, paired with its input', async () => {
			const { items, errorItems } = await suite.run(attach, {
				onError: 'continueRegularOutput',
				items: [conflict().input, badUuid.input],
			});

			expect(items).toEqual([
				{ json: { error: conflict().error }, pairedItem: { item: 0 } },
				{ json: { error: badUuid.error }, pairedItem: { item: 1 } },
			]);
			expect(errorItems).toEqual([]);
		});

		it('on the error output: the input item with the error added', async () => {
			const { items, errorItems } = await suite.run(attach, {
				onError: 'continueErrorOutput',
				items: [conflict().input, badUuid.input],
			});

			expect(items).toEqual([]);
			expect(errorItems).toEqual([
				{ json: { ...conflict().input, error: conflict().error }, pairedItem: { item: 0 } },
				{ json: { ...badUuid.input, error: badUuid.error }, pairedItem: { item: 1 } },
			]);
		});
	});

	it('keeps pairedItem on one-to-many outputs of several input items', async () => {
		const { items } = await suite.run(
			{ resource: 'equipmentModel', operation: 'getAll', limit: '={{ $json.limit }}' },
			{ items: [{ limit: 2 }, { limit: 0 }, { limit: 3 }], onError: 'continueRegularOutput' },
		);

		expect(items.map((item) => (item.pairedItem as { item: number }).item)).toEqual([
			0, 0, 1, 2, 2, 2,
		]);
		expect(items[2].json.error).toContain(
			"'Limit' must be a number written as 1,234.56, of at least 1 [item 1]",
		);
	});

	describe('as n8n records the error that stops the workflow (what the editor shows and an error workflow receives)', () => {
		// The execution's error (what an error workflow's Error Trigger receives as `execution.error`)
		// and the node's own, as n8n records them.
		const nodeError = (result: RunResult) => [
			result.error,
			result.run.data.resultData.runData[NODE_NAME]?.[0]?.error,
		];
		/** A 404 of the item `itemIndex`, as n8n records the API error. */
		const notFoundAt = (itemIndex: number) => ({
			name: 'NodeApiError',
			httpCode: '404',
			message: `Not found (HTTP 404): no record has the ID you gave [item ${itemIndex}]`,
			context: { itemIndex },
		});

		it("reports a field found wrong before sending as the node's own NodeOperationError, not an API error", async () => {
			const result = await suite.run({
				resource: 'quote',
				operation: 'create',
				clientId: 'not-a-uuid',
				contractId: suite.fixtures.contractId,
				amount: 1,
			});

			expect(suite.sandbox.requests).toHaveLength(0);
			for (const error of nodeError(result)) {
				expect(error).toMatchObject({
					name: 'NodeOperationError',
					message: `'Client' must be a UUID such as ${EXAMPLE_UUID} [item 0]`,
					description: 'Received the text "not-a-uuid".',
					context: { itemIndex: 0 },
				});
				// n8n-core's RoutingNode wraps other errors in a NodeApiError with httpCode "none",
				// which the editor shows as "Error code none" above the engine's stack.
				expect(error).not.toHaveProperty('httpCode');
				expect(error?.stack).toMatch(/^NodeOperationError: 'Client' must be a UUID/);
				expect(error?.stack?.split('\n')[1]).toMatch(/ItemParameters\.invalid/);
			}
		});

		it('reports an API refusal as a NodeApiError with its HTTP code, its message ending with the item', async () => {
			const result = await suite.run({
				resource: 'inventory',
				operation: 'delete',
				inventoryId: 'no-such-inventory',
			});

			for (const error of nodeError(result)) {
				expect(error).toMatchObject(notFoundAt(0));
				expect(error?.stack).toMatch(/^NodeApiError: Not found/);
			}
		});

		it('reports the API refusal that stopped a run of several items with its HTTP code and the item', async () => {
			const { clientId } = suite.fixtures;
			const missing = '00000000-0000-4000-8000-000000000000';

			const result = await suite.run(
				{
					resource: 'client',
					operation: 'get',
					clientId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
					requestOptions: { parallelRequests: 1 },
				},
				{ items: [clientId, missing, clientId].map((id) => ({ id })) },
			);

			for (const error of nodeError(result)) {
				expect(error).toMatchObject(notFoundAt(1));
				expect(error?.description).toContain('The run stopped at item 1');
			}
		});

		it("reports a field found wrong in one item of several as the node's own NodeOperationError, with no HTTP code", async () => {
			const { clientId, contractId } = suite.fixtures;

			const result = await suite.run(
				{
					resource: 'quote',
					operation: 'create',
					clientId: '={{ $json.id }}',
					contractId,
					amount: 1,
				},
				{ items: [clientId, 'not-a-uuid', clientId].map((id) => ({ id })) },
			);

			expect(suite.sandbox.requests).toHaveLength(0);
			for (const error of nodeError(result)) {
				expect(error).toMatchObject({
					name: 'NodeOperationError',
					message: `'Client' must be a UUID such as ${EXAMPLE_UUID} [item 1]`,
				});
				expect(error).not.toHaveProperty('httpCode');
			}
		});

		it("reports a Request Option found wrong as the node's own NodeOperationError, with no HTTP code", async () => {
			const result = await suite.run({
				resource: 'inventory',
				operation: 'delete',
				inventoryId: 'no-such-inventory',
				requestOptions: { parallelRequests: 50 },
			});

			expect(suite.sandbox.requests).toHaveLength(0);
			for (const error of nodeError(result)) {
				expect(error).toMatchObject({
					name: 'NodeOperationError',
					message:
						"'Parallel Requests' must be a number written as 1,234.56, from 1 to 20 [item 0]",
				});
				expect(error).not.toHaveProperty('httpCode');
			}
		});
	});

	it('stops the workflow on the first failing item without Continue on Fail', async () => {
		const { error, items } = await suite.run(
			{ resource: 'inventory', operation: 'delete', inventoryId: '={{ $json.id }}' },
			{ items: [{ id: 'no-such-inventory-1' }, { id: '..' }] },
		);

		expect(items).toEqual([]);
		expect(error?.message).toMatch(/Not found|'Inventory ID' must be a non-empty identifier/);
	});

	it('reports a server error and retries a GET a bounded number of times before failing', async () => {
		suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['503'] } });
		const { error } = await suite.run({
			resource: 'equipmentDistance',
			operation: 'get',
			date: '2024-01-01',
		});
		expect(error?.message).toBe(
			'The Equipment Rental API failed to process the request (HTTP 503) [item 0]',
		);
		expect(suite.sandbox.requests).toHaveLength(5);
	});

	it('never retries a write, even on a transient failure', async () => {
		suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['503'] } });
		const { error } = await suite.run({
			resource: 'quote',
			operation: 'create',
			clientId: suite.fixtures.clientId,
			contractId: suite.fixtures.contractId,
			amount: 1,
		});
		expect(error?.message).toBe(
			'The Equipment Rental API failed to process the request (HTTP 503) [item 0]',
		);
		expect(suite.sandbox.requests).toHaveLength(1);
	});

	it('reports an unreadable answer rather than passing it on', async () => {
		suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['malformed'] } });
		const { error } = await suite.run({
			resource: 'product',
			operation: 'updatePriceItem',
			productId: suite.fixtures.equipmentProductId,
			priceId: suite.fixtures.priceId,
			from: 1,
			price: 1,
		});
		expect(error?.message).toContain('The API returned an unreadable response');
	});

	it('explains a dropped connection without the request headers', async () => {
		suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['drop'] } });
		const { error } = await suite.run({
			resource: 'inventory',
			operation: 'delete',
			inventoryId: 'any',
		});
		expect(error?.message).toBe(
			'The connection to the Equipment Rental API was dropped before it answered [item 0]',
		);
		expect(JSON.stringify({ ...error, message: error?.message })).not.toContain(TOKEN);
	});

	describe('when the Base URL redirects', () => {
		const redirecting = useRedirectingServer();

		it.each([
			['a list', { resource: 'equipmentModel', operation: 'getAll', limit: 1 }, 'GET'],
			[
				'a write',
				{ resource: 'inventory', operation: 'delete', inventoryId: 'inventory-1' },
				'DELETE',
			],
		])(
			'refuses to follow it for %s, names the new address and never sends the token there',
			async (_case, parameters, method) => {
				const { error } = await runNode({
					parameters,
					credentials: { baseUrl: redirecting.url, accessToken: TOKEN },
				});

				expect(error?.message).toBe(
					'The API answered with a redirect (HTTP 301) instead of data [item 0]',
				);
				expect(error?.description).toContain(`It points to ${redirecting.target.url}/`);
				expect(error?.description).toContain('Base URL');
				expect(redirecting.redirected).toEqual([expect.stringMatching(new RegExp(`^${method} `))]);
				expect(redirecting.target.seen).toHaveLength(0);
			},
		);
	});
});
