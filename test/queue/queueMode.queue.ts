/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * The node and the trigger in n8n's queue mode (see cluster.ts): webhooks spread over two workers,
 * a nightly sync's Loop Over Items on a worker reading the clients once, the trigger's changes
 * emitted exactly once across main restarts, the daily report once per day, a worker killed during
 * a trigger's execution, one worker against two. Each case prints its figures at the end of the run.
 */
import * as os from 'node:os';

import { WHOLE_READ_PAGE_SIZE } from '../../nodes/EquipmentRental/writes/wholeReads';
import { RUNNING_STATUSES } from '../e2e/n8n-server';
import { inLoop, type Json, rt, sheetWorkflow, waitFor } from '../e2e/support';
import { MASTER_DATA_KINDS } from '../harness/records';
import { CLIENT_SYNC, clientsOfLastNight, nightlyRows, type SheetRow } from '../harness/syncs';
import { CLIENTS } from '../harness/writes';
import { ADMIN_TOKEN, API_TOKEN, type Cluster, startCluster } from './cluster';

import {
	dailyDistanceReport,
	MASTER_DATA_RECORDERS,
	modelCountQuote,
	modelsChangedSince,
	POLL_INTERVAL_MS,
	recordMasterDataChanges,
	recordModelChanges,
	slowReadOnModelChange,
	startedByWebhook,
} from './workflows';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { recordFigure } = require('./figures');

const MODELS = 2_500;
const CONCURRENT_WEBHOOKS = 40;
const QUOTES_PATH = '/master-data/v1/quote-management/quotes';
const MODELS_PATH = '/master-data/v1/equipment-management/models';
/** Load executions the surviving worker must serve after the other one was killed. */
const SERVED_BY_SURVIVOR = 10;
/** Rounds of one worker against two, taking turns, each this many load executions at once. */
const THROUGHPUT_ROUNDS = 3;
const THROUGHPUT_EXECUTIONS = 24;
/** The long read: 50 pages of 50 models, each answered after 400 ms (over 20 s in all). */
const LONG_READ_PAGE_SIZE = 50;
const LONG_READ_PAGE_DELAY_MS = 400;
/**
 * The longest a dead worker's job waits for Bull's verdict: n8n's job lock
 * (QUEUE_WORKER_LOCK_DURATION, 60 s), then two stalled-job checks (QUEUE_WORKER_STALLED_INTERVAL,
 * 30 s), the first of which only marks the job as a candidate.
 */
const STALLED_JOB_DECIDED_MS = 120_000;
/** What n8n records for an execution whose job Bull failed as stalled. */
const STALLED_JOB_MESSAGE = /failed to be processed too many times and will no longer retry/;

/** The nightly sync in Loop Over Items (issue 43), its sheet's external IDs `<prefix>-<index>`. */
const LOOPED_SYNC = {
	path: 'queue-looped-sync',
	node: 'Sync clients in a loop',
	batchSize: 100,
	prefix: 'QUEUE-LS',
} as const;

const LOAD_PATH = 'queue-load';
const RECOVERY_PATH = 'queue-recover';
let loadWorkflowId: string;

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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the workflow's JSON, read field by field
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
	} catch {
		// Not JSON: the body stays the text.
	}
	return { status: response.status, body: parsed };
}

function sleep(ms: number) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Sends a JSON request to the sandbox with `token`; returns the answer's body. */
async function sendToSandbox(method: string, url: string, token: string, body?: Json) {
	const response = await fetch(`${cluster.sandbox.url}${url}`, {
		method,
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok) throw new Error(`${method} ${url}: HTTP ${response.status}`);
	return (await response.json()) as Json;
}

/** Changes the sandbox's data through its administration path, as another process would. */
function admin(method: string, path: string, body?: Json): Promise<Json> {
	return sendToSandbox(method, `/_sandbox${path}`, ADMIN_TOKEN, body);
}

/** Creates a record through the API, as another client of it would. */
function apiCreate(path: string, body: Json): Promise<Json> {
	return sendToSandbox('POST', path, API_TOKEN, body);
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
		loadWorkflowId = await cluster.createWorkflow(
			modelCountQuote(LOAD_PATH, cluster.sandbox.store.fixtures, cluster.credential),
		);
		await cluster.main.activate(loadWorkflowId);
		const requests = Array.from({ length: CONCURRENT_WEBHOOKS }, (_, index) => `load-${index + 1}`);

		const started = Date.now();
		const answers = await Promise.all(
			requests.map((request) => postWebhook(LOAD_PATH, { request })),
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

		const executions = await executionsOf(loadWorkflowId);
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

describe('a nightly sync in Loop Over Items on a worker', () => {
	it('Loop Over Items of 100 over 1,000 rows: the batches read the clients once, and write only the 1% that differ or are new', async () => {
		const rows = nightlyRows(LOOPED_SYNC.prefix);
		const { changed, added } = clientsOfLastNight(cluster.sandbox.store, rows, { someNew: true });
		const clients = () => cluster.sandbox.store.clients as Json[];
		const idsBefore = new Map(clients().map((client) => [client.externalId, client.id]));
		const pages = Math.ceil(clients().length / WHOLE_READ_PAGE_SIZE);
		const sheet = sheetWorkflow(
			LOOPED_SYNC.path,
			'Queue: a nightly sync in Loop Over Items',
			rows,
			{ name: LOOPED_SYNC.node, parameters: CLIENT_SYNC, credential: cluster.credential },
			{ onError: 'stop' },
		);
		const workflowId = await cluster.createWorkflow(
			startedByWebhook(inLoop(sheet, LOOPED_SYNC.node, LOOPED_SYNC.batchSize), LOOPED_SYNC.path),
		);
		await cluster.main.activate(workflowId);
		const sent = cluster.sandbox.requests.length;

		const started = Date.now();
		const answer = await postWebhook(LOOPED_SYNC.path, {});
		const seconds = (Date.now() - started) / 1000;

		const [summary] = await executionsOf(workflowId);
		const execution = await cluster.main.finishedExecution(String(summary.id));
		expect(execution.status).toBe('success');
		const [worker, ...again] = cluster.workersByExecution().get(String(summary.id)) ?? [];
		expect([worker, again]).toEqual([expect.stringMatching(/^worker-\d$/), []]);
		const batches: Json[] = execution.data.resultData.runData[LOOPED_SYNC.node];
		expect(batches).toHaveLength(rows.length / LOOPED_SYNC.batchSize);
		const upserted = (row: SheetRow) =>
			changed.includes(row) ? 'updated' : added.includes(row) ? 'created' : 'unchanged';
		expect(
			batches.flatMap((batch) =>
				batch.data.main[0].map((item: Json) => [item.json.externalId, item.json.upserted]),
			),
		).toEqual(rows.map((row) => [row.externalId, upserted(row)]));
		// The loop's done output, which the webhook answers with: every row's client.
		expect(answer.status).toBe(200);
		expect(answer.body.map((client: Json) => client.externalId)).toEqual(
			rows.map((row) => row.externalId),
		);

		const requests = cluster.sandbox.requests.slice(sent);
		const reads = requests.filter((request) => request.method === 'GET');
		// Each page once, in whatever order the parallel reads arrived.
		expect(reads.map((request) => `${request.path}?page=${request.query.page}`).sort()).toEqual(
			[...Array(pages).keys()].map((page) => `${CLIENTS}?page=${page + 1}`).sort(),
		);
		const writes = requests.filter((request) => request.method !== 'GET');
		expect(writes.map((request) => `${request.method} ${request.path}`).sort()).toEqual(
			[
				...changed.map((row) => `PATCH ${CLIENTS}/${idsBefore.get(row.externalId)}`),
				...added.map(() => `POST ${CLIENTS}`),
			].sort(),
		);
		// Every row's client once, with the row's values.
		const byExternalId = (a: Json, b: Json) => String(a.externalId).localeCompare(b.externalId);
		const synced = clients().filter((client) =>
			String(client.externalId).startsWith(`${LOOPED_SYNC.prefix}-`),
		);
		expect(
			synced.map(({ externalId, name, city }) => ({ externalId, name, city })).sort(byExternalId),
		).toEqual([...rows].sort(byExternalId));

		recordFigure(
			`Loop Over Items of ${LOOPED_SYNC.batchSize} over ${rows.length} rows (Create or Update, ${changed.length} changed and ${added.length} new) on ${worker}: ` +
				`${batches.length} batches read the clients' ${pages} page(s) once, and sent ${writes.length} writes; ${seconds.toFixed(1)} s`,
		);
	});
});

describe('the trigger in queue mode', () => {
	const RECORDER = 'Queue trigger: record model changes';
	const MASTER_DATA_RECORDER = 'Queue trigger: record client, contract and product changes';
	const DAILY_REPORT = 'Queue trigger: daily distance report';
	let recorderId: string;
	let masterDataRecorderId: string;
	let dailyReportId: string;
	let restarts = 0;
	/**
	 * Every change made in the sandbox, in order, as its recorder's quote names it: "<model
	 * id>@<updatedAt>" for a model, "<event>:<id>@<updatedAt>:<changeType>" for a client, contract or
	 * product (recordMasterDataChanges).
	 */
	const changes: string[] = [];
	/** The master-data changes among them, by event. */
	const masterDataChanges: Record<string, string[]> = Object.fromEntries(
		MASTER_DATA_RECORDERS.map(({ event }) => [event, []]),
	);

	/** Touches an existing model, or every third time inserts a new one, through the admin path. */
	async function changeModels(count: number): Promise<void> {
		for (let index = 0; index < count; index += 1) {
			const n = changes.length;
			const model =
				n % 3 === 2
					? await admin('POST', '/models', { name: `Queue inserted model ${n}` })
					: await admin('POST', `/models/${cluster.sandbox.store.models[n * 7].id}/touch`);
			changes.push(`${model.id}@${model.updatedAt}`);
		}
	}

	/**
	 * Touches a client, a contract and a product through the admin path, as another process would;
	 * every other round the client is a new one, created through the API instead.
	 */
	async function changeMasterData(): Promise<void> {
		const round = masterDataChanges.clientUpdated.length;
		for (const { event, collection, path } of MASTER_DATA_KINDS) {
			let record: Json;
			let changeType = 'updated';
			if (event === 'clientUpdated' && round % 2 === 1) {
				record = await apiCreate(path, { name: `Queue client ${round}`, status: 'ACTIVE' });
				changeType = 'created';
			} else {
				const stored = cluster.sandbox.store[collection] as Json[] | Map<string, Json>;
				const [first] = Array.isArray(stored)
					? stored.slice(round)
					: [...stored.values()].slice(round);
				record = await admin('POST', `/${collection}/${first.id}/touch`);
			}
			const change = `${event}:${record.id}@${record.updatedAt}:${changeType}`;
			masterDataChanges[event].push(change);
			changes.push(change);
		}
	}

	/** The trigger's polls of `path` with a change window (the activation poll of a fresh workflow has none). */
	const pollsOf = (path: string) =>
		cluster.sandbox.requests.filter(
			(request) => request.path === path && request.query.updatedAfter !== undefined,
		);
	const polls = () => pollsOf(MODELS_PATH);
	const TRIGGER_PATHS = [MODELS_PATH, ...MASTER_DATA_KINDS.map(({ path }) => path)];

	/**
	 * Waits until every trigger (the model's and the client's, contract's and product's, all polling at
	 * the same seconds) has had a poll answered since the call: a stop right after it then catches no
	 * poll that could emit a change made meanwhile. (n8n saves a trigger's place without waiting for
	 * it, `void saveStaticData` in 2.8.4's __emit: a main stopped in the instant between a poll's
	 * emit and that save would emit those changes again, a limit of n8n the README names.)
	 */
	async function nextPollsAnswered(): Promise<void> {
		const before = TRIGGER_PATHS.map((path) => pollsOf(path).length);
		await waitFor(
			'the next poll of every trigger',
			async () =>
				TRIGGER_PATHS.every((path, index) =>
					pollsOf(path)
						.slice(before[index])
						.some((poll) => poll.status !== null),
				)
					? true
					: undefined,
			{ timeoutMs: 60_000 },
		);
	}

	async function recordedChanges(): Promise<void> {
		await waitFor(
			`quotes for ${changes.length} changes`,
			async () => {
				const sent = quotesSentByExternalId();
				return changes.every((change) => sent.has(change)) ? true : undefined;
			},
			{ timeoutMs: 120_000 },
		);
	}

	async function restartMain(
		signal: 'SIGTERM' | 'SIGKILL',
		whileStopped?: () => void | Promise<void>,
	): Promise<number> {
		const { stopMs } = await cluster.restartMain(
			signal,
			[RECORDER, MASTER_DATA_RECORDER, DAILY_REPORT],
			whileStopped,
		);
		restarts += 1;
		return stopMs;
	}

	/**
	 * Stops the main while the sandbox holds its poll's request, and lets the request go only once
	 * that main has exited: the poll never ends. A change is made while the poll is in flight.
	 * Returns how long the main took to stop.
	 */
	async function restartMainDuringPoll(signal: 'SIGTERM' | 'SIGKILL'): Promise<number> {
		let arrived!: () => void;
		const pollArrived = new Promise<void>((resolve) => (arrived = resolve));
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		let holding = true;
		const stopHold = cluster.sandbox.onRequest(async (request) => {
			if (!holding || request.path !== MODELS_PATH || request.query.updatedAfter === undefined)
				return;
			holding = false;
			arrived();
			await released;
		});
		try {
			await pollArrived;
			await changeModels(1);
			return await restartMain(signal, release);
		} finally {
			release();
			stopHold();
		}
	}

	beforeAll(async () => {
		recorderId = await cluster.createWorkflow(
			recordModelChanges(RECORDER, cluster.sandbox.store.fixtures, cluster.credential),
		);
		masterDataRecorderId = await cluster.createWorkflow(
			recordMasterDataChanges(
				MASTER_DATA_RECORDER,
				cluster.sandbox.store.fixtures,
				cluster.credential,
			),
		);
		dailyReportId = await cluster.createWorkflow(
			dailyDistanceReport(DAILY_REPORT, cluster.credential),
		);
		await cluster.main.activate(recorderId);
		await cluster.main.activate(masterDataRecorderId);
		await cluster.main.activate(dailyReportId);
	});

	afterAll(async () => {
		for (const workflowId of [recorderId, masterDataRecorderId, dailyReportId])
			if (workflowId) await cluster.main.rest('POST', `/workflows/${workflowId}/deactivate`, {});
	});

	it('emits every model, client, contract and product change exactly once across main restarts between polls and during a poll', async () => {
		const started = Date.now();
		// Changes between polls, with the main running.
		await changeModels(3);
		await changeMasterData();
		await recordedChanges();
		// Restarted right after a poll, with changes waiting.
		await nextPollsAnswered();
		await changeModels(2);
		await changeMasterData();
		await restartMain('SIGTERM');
		await recordedChanges();
		// Killed between polls; changes made while no main runs, when nothing polls: workers never do.
		await nextPollsAnswered();
		await changeModels(2);
		let requestsWithoutMain = -1;
		await restartMain('SIGKILL', async () => {
			const before = cluster.sandbox.requests.length;
			await changeModels(2);
			await changeMasterData();
			await sleep(2 * POLL_INTERVAL_MS);
			requestsWithoutMain = cluster.sandbox.requests.length - before;
		});
		expect(requestsWithoutMain).toBe(0);
		await recordedChanges();
		// Stopped while a poll is in flight: n8n's shutdown, then at once.
		await changeModels(1);
		const gracefulStopMs = await restartMainDuringPoll('SIGTERM');
		await changeModels(1);
		await restartMainDuringPoll('SIGKILL');
		await changeModels(3);
		await changeMasterData();
		await recordedChanges();
		// Late duplicates would show within a few more polls.
		await nextPollsAnswered();
		await nextPollsAnswered();
		await nextPollsAnswered();
		const finishedExecutions = (workflowId: string) =>
			waitFor(
				'every recorder execution to finish',
				async () => {
					const list = await executionsOf(workflowId);
					return list.every((execution) => !RUNNING_STATUSES.includes(execution.status))
						? list
						: undefined;
				},
				{ timeoutMs: 120_000 },
			);
		const executions = await finishedExecutions(recorderId);
		const masterDataExecutions = await finishedExecutions(masterDataRecorderId);

		const sent = quotesSentByExternalId();
		const recorded = [...sent.keys()].filter((key) => key.includes('@'));
		const lost = changes.filter((change) => !sent.has(change));
		const twice = changes.filter((change) => (sent.get(change) ?? 0) > 1);
		const unexpected = recorded.filter((key) => !changes.includes(key));
		const split = splitByWorker(executions.map((execution) => String(execution.id)));
		const masterDataSplit = splitByWorker(
			masterDataExecutions.map((execution) => String(execution.id)),
		);
		expect({ lost, twice, unexpected }).toEqual({ lost: [], twice: [], unexpected: [] });
		expect([...executions, ...masterDataExecutions].map((execution) => execution.status)).toEqual(
			[...executions, ...masterDataExecutions].map(() => 'success'),
		);
		expect(
			Object.keys({ ...split, ...masterDataSplit }).every((worker) => /^worker-\d$/.test(worker)),
		).toBe(true);
		const modelChanges = changes.filter((change) => !/^[a-z]+Updated:/.test(change));

		recordFigure(
			`Trigger (model event, polled every 5 s on the main): ${modelChanges.length} changes, ${modelChanges.length} emitted, ` +
				`${lost.length} lost, ${twice.length} twice, ${unexpected.length} unexpected, across ${restarts} main restarts ` +
				`(2 during a poll, SIGTERM one stopped in ${(gracefulStopMs / 1000).toFixed(1)} s; ${requestsWithoutMain} API requests in ${(2 * POLL_INTERVAL_MS) / 1000} s without a main) and ${polls().length} polls in ${((Date.now() - started) / 1000).toFixed(0)} s; ` +
				`${executions.length} executions, ran by ${JSON.stringify(split)}`,
		);
		for (const { event } of MASTER_DATA_RECORDERS) {
			const made = masterDataChanges[event];
			const created = made.filter((change) => change.endsWith(':created'));
			const emitted = made.filter((change) => sent.has(change));
			recordFigure(
				`Trigger (${event}, polled every 5 s on the main, in the same run): ${made.length} changes (${created.length} new records), ` +
					`${emitted.length} emitted with the right changeType, ${made.length - emitted.length} lost, ` +
					`${made.filter((change) => twice.includes(change)).length} twice, across the same ${restarts} main restarts`,
			);
		}
		recordFigure(
			`Client, contract and product events: ${masterDataExecutions.length} executions, ran by ${JSON.stringify(masterDataSplit)}`,
		);
	});

	it('emits the daily distance report once per day, not once per process', async () => {
		const executions = await executionsOf(dailyReportId);
		const reports = await Promise.all(
			executions.map(async (summary) => {
				const execution = await cluster.main.execution(String(summary.id));
				const items: Json[] = rt.nodeItems(execution, 'Distance Report') ?? [];
				return { status: summary.status, items };
			}),
		);
		const dates = reports.map((report) => String(report.items[0]?.date).slice(0, 10));
		const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

		// A run across midnight (UTC) sees two days, each once.
		expect(new Set(dates).size).toBe(dates.length);
		expect(dates).toContain(yesterday);
		for (const report of reports) {
			const day = String(report.items[0].date).slice(0, 10);
			expect(report.status).toBe('success');
			expect(report.items).toEqual(cluster.sandbox.store.distances.get(day));
		}
		const split = splitByWorker(executions.map((execution) => String(execution.id)));
		recordFigure(
			`Daily distance report (hour 0, polled every 5 s): ${executions.length} execution(s) for ${dates.join(', ')} ` +
				`with ${reports.map((report) => report.items.length).join(', ')} records, across ${restarts + 1} main processes and 2 workers ` +
				`(ran by ${JSON.stringify(split)})`,
		);
	});
});

/**
 * Fires the load workflow `count` times at once; checks every answer; returns executions per
 * minute and which worker ran how many.
 */
async function runLoad(label: string, count: number) {
	const requests = Array.from({ length: count }, (_, index) => `${label}-${index + 1}`);
	const started = Date.now();
	const answers = await Promise.all(requests.map((request) => postWebhook(LOAD_PATH, { request })));
	const ms = Date.now() - started;
	const models = cluster.sandbox.store.models.length;
	expect(
		answers.map((answer) => [answer.status, answer.body.externalId, answer.body.amount]),
	).toEqual(requests.map((request) => [200, request, models]));
	const executions = (await executionsOf(loadWorkflowId)).slice(0, count);
	expect(executions.map((execution) => execution.status)).toEqual(requests.map(() => 'success'));
	return {
		perMinute: (count * 60_000) / ms,
		split: splitByWorker(executions.map((execution) => String(execution.id))),
	};
}

/**
 * Load executions per minute with one worker and with two, in rounds that take turns (so that a
 * change of load on the machine weighs on both), worker-2 stopped for the one-worker rounds.
 */
async function compareOneWorkerWithTwo(): Promise<string> {
	const worker2 = () => cluster.workers.find((worker) => worker.name === 'worker-2')!;
	const perMinute: Record<'one' | 'two', number[]> = { one: [], two: [] };
	for (let round = 1; round <= THROUGHPUT_ROUNDS; round += 1) {
		const both = await runLoad(`two-workers-${round}`, THROUGHPUT_EXECUTIONS);
		expect(Object.keys(both.split).sort()).toEqual(['worker-1', 'worker-2']);
		perMinute.two.push(both.perMinute);
		await cluster.stopWorker(worker2());
		const alone = await runLoad(`one-worker-${round}`, THROUGHPUT_EXECUTIONS);
		expect(Object.keys(alone.split)).toEqual(['worker-1']);
		perMinute.one.push(alone.perMinute);
		await cluster.startWorker('worker-2');
	}
	const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
	const show = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
	return (
		`Throughput (${THROUGHPUT_EXECUTIONS} load executions at once, ${THROUGHPUT_ROUNDS} rounds each, taking turns, on ${os.cpus().length} cores, ` +
		`load average ${os.loadavg()[0].toFixed(1)}): one worker ${show(perMinute.one)} per minute (median ${median(perMinute.one).toFixed(0)}), ` +
		`two workers ${show(perMinute.two)} (median ${median(perMinute.two).toFixed(0)}): x${(median(perMinute.two) / median(perMinute.one)).toFixed(2)}`
	);
}

describe('a worker killed with SIGKILL during a long Return All', () => {
	const SLOW_READ = 'Queue trigger: slow read';
	const MARKER = 'Slow read marker';
	let slowReadId: string;
	const isLongReadPage = (request: { path: string; query: Json }) =>
		request.path === MODELS_PATH && request.query.limit === String(LONG_READ_PAGE_SIZE);
	const longReadPages = () => cluster.sandbox.requests.filter(isLongReadPage);
	let slowDown: () => void;

	beforeAll(async () => {
		slowReadId = await cluster.createWorkflow(
			slowReadOnModelChange(
				SLOW_READ,
				MARKER,
				LONG_READ_PAGE_SIZE,
				cluster.sandbox.store.fixtures,
				cluster.credential,
			),
		);
		await cluster.main.activate(slowReadId);
		slowDown = cluster.sandbox.onRequest(async (request) => {
			if (isLongReadPage(request)) await sleep(LONG_READ_PAGE_DELAY_MS);
		});
	});

	afterAll(() => slowDown?.());

	/**
	 * Inserts a model the slow-read workflow's trigger emits, and kills the worker running that
	 * execution with SIGKILL once its Return All has read 5 pages.
	 */
	async function killWorkerDuringLongRead(name: string) {
		const marker = await admin('POST', '/models', { name });
		const pagesBefore = longReadPages().length;
		await waitFor(
			'the long read to reach page 5',
			async () => (longReadPages().length >= pagesBefore + 5 ? true : undefined),
			{ timeoutMs: 60_000 },
		);
		const [execution] = await executionsOf(slowReadId);
		expect(execution).toMatchObject({ mode: 'trigger', status: 'running' });
		const [victimName] = cluster.workersByExecution().get(String(execution.id)) ?? [];
		const victim = cluster.workers.find((worker) => worker.name === victimName);
		if (!victim) throw new Error(`no worker logged starting execution ${execution.id}`);
		const pagesRead = longReadPages().length - pagesBefore;
		const killedAt = Date.now();
		await cluster.killWorker(victim);
		return { marker, execution, victim, pagesRead, killedAt };
	}

	/** What the test needs of the execution once n8n has recorded it as `status` (by default: ended). */
	async function recordedExecution(id: string, timeoutMs: number, status?: string) {
		const execution = await cluster.main.finishedExecution(id, { status, timeoutMs });
		return {
			status: execution.status,
			message: String(execution.data.resultData.error?.message),
			stoppedAt: Date.parse((execution as Json).stoppedAt),
			seenAt: Date.now(),
		};
	}

	/**
	 * A few polls after Bull's verdict on the dead worker's job (`decidedAt`), the execution has not
	 * run again and the trigger has not emitted its model again.
	 */
	async function expectNotRunAgain(decidedAt: number, markerId: string, killedSoFar: number) {
		await sleep(Math.max(0, decidedAt + 3 * POLL_INTERVAL_MS - Date.now()));
		const sent = quotesSentByExternalId();
		expect([sent.get(`${markerId}:before`), sent.get(`${markerId}:after`)]).toEqual([1, undefined]);
		expect(longReadPages().filter((request) => request.query.page === '1')).toHaveLength(
			killedSoFar,
		);
		expect(await executionsOf(slowReadId)).toHaveLength(killedSoFar);
	}

	it('when the worker stays away: the other worker keeps serving; n8n marks the execution failed once its job lock expires, runs it no more, and the trigger does not emit its items again', async () => {
		const killed = await killWorkerDuringLongRead(`${MARKER} 1`);
		const served = await runLoad('survivor', SERVED_BY_SURVIVOR);
		const survivor = cluster.workers.find((worker) => worker !== killed.victim)!.name;
		expect(served.split).toEqual({ [survivor]: SERVED_BY_SURVIVOR });

		const recorded = await recordedExecution(
			String(killed.execution.id),
			STALLED_JOB_DECIDED_MS + 60_000,
		);
		expect(recorded.status).toBe('error');
		expect(recorded.message).toMatch(STALLED_JOB_MESSAGE);
		// n8n records this error when Bull fails the job: the verdict is in.
		await expectNotRunAgain(recorded.seenAt, killed.marker.id, 1);

		// The way back to the lost items: the models changed since before the lost execution.
		const recoveryId = await cluster.createWorkflow(
			modelsChangedSince(RECOVERY_PATH, cluster.credential),
		);
		await cluster.main.activate(recoveryId);
		const since = new Date(
			Date.parse(killed.execution.startedAt) - 2 * POLL_INTERVAL_MS,
		).toISOString();
		const recovered = await postWebhook(RECOVERY_PATH, { updatedAfter: since, search: MARKER });
		expect(recovered.body).toEqual([killed.marker]);
		await cluster.startWorker(killed.victim.name);

		recordFigure(
			`Worker killed (SIGKILL) during a trigger execution, after ${killed.pagesRead} of ${MODELS / LONG_READ_PAGE_SIZE} pages of its Return All, ` +
				`and not restarted: the other worker served ${SERVED_BY_SURVIVOR} of ${SERVED_BY_SURVIVOR} executions meanwhile; ` +
				`${((recorded.stoppedAt - killed.killedAt) / 1000).toFixed(0)} s after the kill n8n recorded the execution as "${recorded.status}": "${recorded.message}"; ` +
				`not run again, its model not emitted again (quote before the read 1, after it 0); Get Many with Updated After recovered it`,
		);
	});

	it('when the worker comes back at once: n8n marks the execution crashed, then failed once Bull gives up on its job, and runs it no more (one worker against two measured meanwhile)', async () => {
		const killed = await killWorkerDuringLongRead(`${MARKER} 2`);
		await cluster.startWorker(killed.victim.name);
		const crashed = await recordedExecution(String(killed.execution.id), 60_000);
		expect(crashed.status).toBe('crashed');

		// Bull's verdict on the dead worker's job takes one to two minutes: time for the comparison.
		recordFigure(await compareOneWorkerWithTwo());
		const failed = await recordedExecution(
			String(killed.execution.id),
			killed.killedAt + STALLED_JOB_DECIDED_MS + 60_000 - Date.now(),
			'error',
		);
		expect(failed.message).toMatch(STALLED_JOB_MESSAGE);
		await expectNotRunAgain(failed.seenAt, killed.marker.id, 2);

		recordFigure(
			`Worker killed (SIGKILL) during a trigger execution, after ${killed.pagesRead} pages, and restarted at once: ` +
				`within ${((crashed.seenAt - killed.killedAt) / 1000).toFixed(0)} s of the kill the restarted worker recorded the execution as ` +
				`"${crashed.status}" ("${crashed.message}"), found unfinished in its event log; ` +
				`${((failed.seenAt - killed.killedAt) / 1000).toFixed(0)} s after the kill n8n recorded it as "${failed.status}" (the same message as above); ` +
				`not run again (quote before the read 1, after it 0)`,
		);
	});
});

describe('the run', () => {
	it('leaves no process, port or folder behind', async () => {
		await cluster.stop();
		expect(await cluster.leftovers()).toEqual([]);
	});
});
