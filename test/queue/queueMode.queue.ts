/**
 * The node and the trigger in n8n's queue mode (see cluster.ts): webhooks spread over two workers,
 * the trigger's changes emitted exactly once across main restarts, a worker killed mid-execution,
 * the daily report once per day. Each case prints its figures at the end of the run.
 */
import { type Json } from '../e2e/support';
import { type Cluster, startCluster } from './cluster';
import { modelCountQuote } from './workflows';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { recordFigure } = require('./figures');

const MODELS = 2_500;
const CONCURRENT_WEBHOOKS = 40;
const QUOTES_PATH = '/master-data/v1/quote-management/quotes';

let cluster: Cluster;

beforeAll(async () => {
	cluster = await startCluster({ models: MODELS });
}, 300_000);

afterAll(async () => {
	await cluster?.stop();
}, 120_000);

/** The quotes the sandbox was sent, counted by External ID. */
function quotesSentByExternalId(): Map<string, number> {
	const counts = new Map<string, number>();
	for (const request of cluster.sandbox.requests) {
		if (request.method !== 'POST' || request.path !== QUOTES_PATH) continue;
		const externalId = String((request.body as Json).externalId);
		counts.set(externalId, (counts.get(externalId) ?? 0) + 1);
	}
	return counts;
}

async function postWebhook(path: string, body: Json): Promise<{ status: number; body: any }> {
	const response = await fetch(`${cluster.main.url}/webhook/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {}
	return { status: response.status, body: parsed };
}

async function executionsOf(workflowId: string): Promise<Json[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	return (await cluster.main.rest('GET', `/executions?filter=${filter}&limit=500`)).results;
}

function splitByWorker(executionIds: string[]): Record<string, number> {
	const byExecution = cluster.workersByExecution();
	const split: Record<string, number> = {};
	for (const id of executionIds) {
		const key = (byExecution.get(id) ?? ['no worker']).join('+');
		split[key] = (split[key] ?? 0) + 1;
	}
	return split;
}

describe('load spread over two workers', () => {
	it(`runs ${CONCURRENT_WEBHOOKS} concurrent webhook executions, each reading every model and creating one quote, on both workers`, async () => {
		const workflowId = await cluster.createWorkflow(
			modelCountQuote('queue-load', cluster.sandbox.store.fixtures, cluster.credential),
		);
		await cluster.main.activate(workflowId);
		const requests = Array.from({ length: CONCURRENT_WEBHOOKS }, (_, index) => `load-${index + 1}`);

		const started = Date.now();
		const answers = await Promise.all(
			requests.map((request) => postWebhook('queue-load', { request })),
		);
		const seconds = (Date.now() - started) / 1000;

		const models = cluster.sandbox.store.models.length;
		expect(answers.map((answer) => answer.status)).toEqual(requests.map(() => 200));
		expect(answers.map((answer) => answer.body.externalId)).toEqual(requests);
		expect(answers.map((answer) => [answer.body.amount, answer.body.metadata])).toEqual(
			requests.map(() => [models, { distinctModels: models }]),
		);
		const sent = quotesSentByExternalId();
		expect(requests.map((request) => sent.get(request))).toEqual(requests.map(() => 1));

		const executions = await executionsOf(workflowId);
		expect(executions.map((execution) => execution.status)).toEqual(requests.map(() => 'success'));
		const split = splitByWorker(executions.map((execution) => String(execution.id)));
		expect(Object.keys(split).sort()).toEqual(['worker-1', 'worker-2']);
		expect(split['worker-1'] + split['worker-2']).toBe(CONCURRENT_WEBHOOKS);

		recordFigure(
			`Load spread: ${CONCURRENT_WEBHOOKS} concurrent webhook executions (Return All of ${models} models + Create Quote each): ` +
				`${executions.length} succeeded with ${models} records each, worker-1 ran ${split['worker-1']}, worker-2 ran ${split['worker-2']}, ` +
				`${sent.size} quotes each sent once; ${seconds.toFixed(1)} s`,
		);
	});
});

describe('the run', () => {
	it('leaves no process, port or folder behind', async () => {
		await cluster.stop();
		expect(await cluster.leftovers()).toEqual([]);
	});
});
