/**
 * What an HTTP error says, wherever n8n shows it: every message names the HTTP status (n8n drops
 * the error code in some places, e.g. a trigger's test event, an AI tool's answer, an error item),
 * and a 404 points to the Base URL where it cannot be the IDs' fault.
 */
import { ActiveTrigger, runTriggerManually } from './harness/poll';
import { TOKEN, useSandbox } from './harness/sandbox';

describe('HTTP errors', () => {
	const suite = useSandbox();
	const models = { resource: 'equipmentModel', operation: 'getAll', returnAll: false, limit: 1 };

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
				const { error } = await suite.run(models);
				expect(error?.message).toMatch(message);
				expect((error as { httpCode?: string }).httpCode).toBe(String(status));
			} finally {
				suite.sandbox.setOptions({ faults: null });
			}
		},
	);

	describe('a Base URL that is not the API', () => {
		const withBaseUrl = (baseUrl: string) => ({
			credentials: { baseUrl, accessToken: TOKEN },
		});
		// Requests to addresses the API does not have are these tests' point, not a contract breach.
		afterEach(() => suite.sandbox.resetStats());

		it('a list (no ID in its request) answered 404 says to check the Base URL, not the IDs', async () => {
			const { error } = await suite.run(models, withBaseUrl(`${suite.sandbox.url}/master-data`));

			expect(error?.message).toBe('Not found (HTTP 404): the API has no such address');
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

			expect(error?.message).toBe('Not found (HTTP 404): the API has no such address');
			expect(error?.description).toContain('Check the Base URL');
		});

		it('an unknown ID at the right Base URL still points to the IDs', async () => {
			const { error } = await suite.run({
				resource: 'inventory',
				operation: 'delete',
				inventoryId: 'no-such-inventory',
			});

			expect(error?.message).toBe('Not found (HTTP 404): no record has the ID you gave');
			expect(error?.description).toContain('No inventory has the id no-such-inventory');
			expect(error?.description).toContain('Check the IDs in the node');
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
});
