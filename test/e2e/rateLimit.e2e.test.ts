/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-hardcoded-secrets
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * A sync as users run it, in a real n8n, against an API that limits its clients as real APIs do:
 * 1,000 rows of a sheet through Client > Create or Update with the node's defaults, the sandbox
 * allowing 100 requests per second and 3 in flight and refusing the rest with 429 and Retry-After.
 * Fewer in flight than the node's default 5, so that the limit bites however fast the machine is.
 * Every row must be in, once, with nothing failed.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import {
	type Json,
	onN8n,
	type PreparedFolder,
	rt,
	type Sandbox,
	sheetWorkflow,
	start,
} from './support';

// The sandbox is plain JavaScript so that it runs without a build step.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { writeHandlers } = require('../../sandbox/writes');

const TOKEN = 'e2e-rate-limit-token-71c';
const SYNC_WORKFLOW = 'rateLimitedSync';
const SYNC_NODE = 'Create or update client';
const ROWS = 1000;
const RATE_LIMIT = { requestsPerSecond: 100, maxInFlight: 3, retryAfterSeconds: 1 };

const rows = Array.from({ length: ROWS }, (_, index) => ({
	erpId: `RATE-${index}`,
	name: `Client ${index}`,
	city: `City ${index}`,
}));
/** Half of the rows are in the API before the run (updated), half are not (created). */
const existingRows = rows.filter((_, index) => index % 2 === 0);

let sandbox: Sandbox;
let n8n: PreparedFolder;
let tmp: string;

beforeAll(async () => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-rate-limit-'));
	sandbox = await start({ token: TOKEN });
	for (const row of existingRows)
		writeHandlers.createClient(
			sandbox.store,
			{ body: { externalId: row.erpId, name: 'Old name' } },
			{ clockOffsetMs: 0 },
		);
	n8n = await rt.prepareUserFolder(path.join(tmp, 'user'), {
		sandboxUrl: sandbox.url,
		token: TOKEN,
		examples: false,
		workflows: [
			sheetWorkflow(SYNC_WORKFLOW, 'Rate-limited sync', rows, {
				name: SYNC_NODE,
				parameters: {
					resource: 'client',
					operation: 'upsert',
					externalId: '={{ $json.erpId }}',
					name: '={{ $json.name }}',
					additionalFields: { city: '={{ $json.city }}' },
				},
			}),
		],
	});
}, 600_000);

afterAll(async () => {
	await sandbox?.close();
	if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe(onN8n('a sync against a rate-limited API'), () => {
	it(`${ROWS} rows through Create or Update with the defaults: every row in once, none failed, the refused requests sent again`, async () => {
		sandbox.setOptions({ latencyMs: 20, rateLimit: RATE_LIMIT });
		sandbox.resetStats();

		const result = await n8n.run(SYNC_WORKFLOW);

		sandbox.setOptions({ latencyMs: 0, rateLimit: null });
		expect(result.status).toBe('success');
		const output = result.node(SYNC_NODE) as Json[];
		expect(output).toHaveLength(ROWS);
		expect(output.filter((item) => 'error' in item)).toEqual([]);
		expect(output.map((item) => item.upserted)).toEqual(
			rows.map((_, index) => (index % 2 === 0 ? 'updated' : 'created')),
		);
		const clients = sandbox.store.clients as Json[];
		for (const row of rows) {
			const held = clients.filter((client) => client.externalId === row.erpId);
			expect(held.map(({ name, city }) => ({ name, city }))).toEqual([
				{ name: row.name, city: row.city },
			]);
		}
		const refused = sandbox.requests.filter((request) => request.status === 429);
		const accepted = sandbox.requests.filter((request) => request.status !== 429);
		// The limit applied, and the node kept to its budget of 5 requests in flight.
		expect(refused.length).toBeGreaterThan(0);
		expect(sandbox.maxInFlight).toBeLessThanOrEqual(5);
		// The clients read whole (one page: fewer pages than rows) and one write per row: nothing sent
		// twice once accepted.
		expect(accepted.filter((request) => request.method === 'GET')).toHaveLength(1);
		expect(accepted).toHaveLength(1 + ROWS);
		// eslint-disable-next-line no-console -- the run's figures are this test's report
		console.log(
			`[e2e] n8n ${rt.n8nVersion()}: ${ROWS} rows in ${result.ms} ms, ${refused.length} requests refused (429) of ${sandbox.requests.length}`,
		);
	}, 300_000);
});
