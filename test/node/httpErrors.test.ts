/**
 * What an HTTP error says, wherever n8n shows it: every message names the HTTP status (n8n drops
 * the error code in some places, e.g. a trigger's test event, an AI tool's answer, an error item),
 * and a 404 points to the Base URL where it cannot be the IDs' fault.
 */
import { runNode } from '../harness/engine';
import { answeringServer } from '../harness/recordingServer';
import { ActiveTrigger, runTriggerManually } from '../harness/poll';
import { TOKEN, useSandbox } from '../harness/sandbox';

describe('HTTP errors', () => {
	const suite = useSandbox();
	const models = { resource: 'equipmentModel', operation: 'getAll', returnAll: false, limit: 1 };
	const withBaseUrl = (baseUrl: string) => ({
		credentials: { baseUrl, accessToken: TOKEN },
	});

	it.each([
		[401, /^Authorization failed \(HTTP 401\)/],
		[403, /^Access forbidden \(HTTP 403\)/],
		[404, /^Not found \(HTTP 404\)/],
		[429, /\(HTTP 429\)/],
		[503, /\(HTTP 503\)/],
	])(
		'a %i answer names its status in the message and as the error code',
		async (status, message) => {
			suite.sandbox.setOptions({
				faults: { rate: 1, kinds: [String(status)], retryAfterSeconds: 60 },
			});
			try {
				// A refusal (429, 503 with Retry-After) asking to wait past the Max Rate Limit Wait fails
				// at once.
				const { error } = await suite.run({ ...models, requestOptions: { maxRateLimitWait: 30 } });
				expect(error?.message).toMatch(message);
				expect((error as { httpCode?: string }).httpCode).toBe(String(status));
			} finally {
				suite.sandbox.setOptions({ faults: null });
			}
		},
	);

	describe('a Base URL that is not the API', () => {
		// Requests to addresses the API does not have are these tests' point, not a contract breach.
		afterEach(() => suite.sandbox.resetStats());

		it('a list (no ID in its request) answered 404 says to check the Base URL, not the IDs', async () => {
			const { error } = await suite.run(models, withBaseUrl(`${suite.sandbox.url}/master-data`));

			expect(error?.message).toBe('Not found (HTTP 404): the API has no such address [item 0]');
			expect(error?.description).toContain(
				"Check the Base URL in the node's Equipment Rental API credential",
			);
			expect(error?.description).toContain('it ends in /master-data');
			expect(error?.description).not.toContain('Check the IDs');
		});

		it('an operation with IDs whose path the API does not know says to check the Base URL too', async () => {
			const { error } = await suite.run(
				{ resource: 'inventory', operation: 'delete', inventoryId: suite.fixtures.inventoryId },
				withBaseUrl(`${suite.sandbox.url}/api`),
			);

			expect(error?.message).toBe('Not found (HTTP 404): the API has no such address [item 0]');
			expect(error?.description).toContain('Check the Base URL');
		});

		it('an unknown ID at the right Base URL points to its field, not to the Base URL', async () => {
			const { error } = await suite.run({
				resource: 'inventory',
				operation: 'delete',
				inventoryId: 'no-such-inventory',
			});

			expect(error?.message).toBe('Not found (HTTP 404): no record has the ID you gave [item 0]');
			expect(error?.description).toBe(
				"The API said: No inventory has the id no-such-inventory. The field at fault is 'Inventory ID'. Check 'Inventory ID' in the node.",
			);
		});

		it("the trigger's poll answered 404 says to check the Base URL, with the status", async () => {
			const { error } = await runTriggerManually({
				parameters: { event: 'equipmentModelUpdated' },
				...withBaseUrl(`${suite.sandbox.url}/master-data`),
			});
			expect(error?.message).toBe('Not found (HTTP 404): the API has no such address');
			expect(error?.description).toContain('Check the Base URL');

			await expect(
				ActiveTrigger.activate({
					parameters: { event: 'equipmentModelUpdated' },
					credentials: { baseUrl: suite.sandbox.url, accessToken: 'wrong' },
				}),
			).rejects.toThrow('Authorization failed (HTTP 401)');
		});
	});

	describe('a missing record is told from a wrong address by what the API answered', () => {
		it('Create Quote for an unknown client (no ID in its path) names Client, and not the Base URL', async () => {
			const { error } = await suite.run({
				resource: 'quote',
				operation: 'create',
				clientId: '00000000-0000-4000-8000-000000000000',
				contractId: suite.fixtures.contractId,
				amount: 10,
			});

			expect(error?.message).toBe('Not found (HTTP 404): no record has the ID you gave [item 0]');
			expect(error?.description).toBe(
				"The API said: No client has the id 00000000-0000-4000-8000-000000000000. The field at fault is 'Client'. Check 'Client' in the node.",
			);
		});

		it.each(['client', 'contract', 'product', 'booking'])(
			"%s > Get by External ID names the form's 'External ID', not the API's parameter",
			async (resource) => {
				const { error } = await suite.run({
					resource,
					operation: 'getByExternalId',
					externalId: 'ERP-NOBODY',
				});
				expect(error?.message).toBe('Not found (HTTP 404): no record has the ID you gave [item 0]');
				expect(error?.description).toContain("The field at fault is 'External ID'.");
				expect(error?.description).not.toContain("the API's");
				expect(error?.description).not.toContain('Base URL');
			},
		);

		it.each([
			[
				"a gateway's page that says only its status",
				'<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx/1.25.3</center></body></html>',
				'Not found (HTTP 404): the API has no such address',
				'Check the Base URL',
			],
			[
				"a router's answer",
				'{"statusCode":404,"message":"Cannot DELETE /api/x","error":"Not Found"}',
				'Not found (HTTP 404): the API has no such address',
				'Check the Base URL',
			],
			[
				'an API that answers errors as web pages, about the record',
				'<html><body><h1>404 Not Found</h1><p>No inventory has the id x.</p></body></html>',
				'Not found (HTTP 404): no record has the ID you gave',
				'Check the IDs in the node.',
			],
			[
				'no explanation at all, for a request with IDs: either',
				'',
				'Not found (HTTP 404): no record has the ID you gave',
				'Check the IDs in the node. If they are right, check the Base URL',
			],
		])('%s', async (_case, body, message, hint) => {
			const server = await answeringServer(404, body);
			try {
				const { error } = await runNode({
					parameters: { resource: 'inventory', operation: 'delete', inventoryId: 'x' },
					credentials: { baseUrl: server.url, accessToken: TOKEN },
				});
				expect(error?.message).toBe(`${message} [item 0]`);
				expect(error?.description).toContain(hint);
				if (!hint.includes('Base URL')) expect(error?.description).not.toContain('Base URL');
			} finally {
				server.close();
			}
		});
	});
});
