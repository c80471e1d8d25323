'use strict';

/**
 * Return All of 10,000 equipment models inside a real n8n (`n8n start` of the pinned version,
 * headless, SQLite, the package installed in its user folder as n8n installs a community package),
 * against the sandbox in a process of its own (20 ms per request, pages capped at 100 records, as in
 * bench/pagination.bench.js). Two workflows, each started through n8n's REST API as the editor's
 * "Execute workflow" button does (POST /rest/workflows/:id/run from its Manual Trigger):
 *   (n) Manual Trigger > Equipment Rental, Equipment Model > Get Many, Return All, defaults;
 *   (h) Manual Trigger > HTTP Request GET of the same list with n8n's own pagination (query `page`
 *       = $pageCount + 1, `limit` 100, complete when a page holds fewer than 100 models, so it asks
 *       for one empty page more than the node) and a Header Auth credential > Split Out of each
 *       page's `content`: one item per model, as (n) puts out;
 *   (f) Manual Trigger > the smallest declarative node that pages as (n) does (page 1, then 5 at a
 *       time through RoutingNode, with the node's credential; bench/smallest-declarative.js,
 *       installed as a community package of its own into the first package's n8n): n8n's engine
 *       alone, the floor of (n).
 * With --package given more than once (each a folder with package.json and a built dist/, e.g. a
 * git worktree of an older commit after `npm run build`), each package gets an n8n of its own (a
 * user folder each, all running for the whole benchmark), and (n) and (h) run in each, so that each
 * version's n/h is measured against the HTTP Request node of the same n8n, and the versions against
 * each other, in one run.
 *
 * All contenders take turns in each round, who goes first rotating from round to round; a warm-up
 * round comes first and is not counted. Time: from the REST call to the execution's stoppedAt. Each
 * run's output (the items of (n)'s node, of (h)'s Split Out) must be the sandbox's models once each
 * in the API's order, and its execution must have ended with success; otherwise the benchmark exits
 * with 1. Each execution is deleted after it is checked, so that n8n's database does not grow with
 * the rounds. Printed: per contender the median time, the fastest and slowest, the requests the
 * sandbox received; per package n/h (medians), n/f (against the floor in the first package's n8n),
 * and each package's (n) against the first's; the floor's f/h. Goal
 * of issue 43 (exit code 3 when the results are right and it is missed, not with --smoke): n/h at
 * most 0.25 for every package.
 *
 * Run with `npm run bench:n8n:list` (node bench/n8n-return-all.bench.js [--models N] [--rounds N]
 * [--package DIR ...], default the package of this repository); it needs n8n 2.8.4 installed (`npm
 * run n8n:install`) and each package built (`npm run build`). With the defaults and two packages it
 * takes about 2 minutes on 2 cores, under a minute of it n8n's starts and imports. --smoke: 250
 * models, 1 round, every check (USAGE below).
 */

const { commandLine, commonUsage, stoppedProcesses, usageError } = require('./command-line');

const USAGE = [
	'Usage: npm run bench:n8n:list -- [options]   (node bench/n8n-return-all.bench.js [options])',
	'Return All of equipment models in a real n8n 2.8.4 (n8n start, SQLite): the node against the HTTP',
	"Request node's pagination, in one n8n per package, and the smallest declarative node paging as the",
	"node does (n8n's floor, in the first package's n8n). Needs n8n 2.8.4 installed (npm run n8n:install)",
	'and each package built (npm run build). Exits with 1 when a result is wrong, with 3 when the',
	'results are right and n/h is over 0.25 (not with --smoke).',
	'  --models N      models in the list (default 10000)',
	'  --rounds N      measured rounds after a warm-up round; medians reported (default 7)',
	'  --package DIR   a package folder with a built dist/, once for each (default this repository)',
	...commonUsage(
		"a small run (250 models, 1 round; n8n's start and seconds): every result and request count checked",
		18,
	),
].join('\n');
const { values: flags } = commandLine(USAGE, {
	models: { type: 'string' },
	rounds: { type: 'string' },
	package: { type: 'string', multiple: true },
});
const SMOKE = flags.smoke === true;

require('./register-typescript');

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const rt = require('../scripts/n8n-runtime');
const { CURRENT_VERSION } = require('../nodes/EquipmentRental/engine/nodeVersions');
const { loadAverage, median, table, verdict } = require('./measuring');
const { MODELS_PATH, PAGE_SIZE, fetchAllModels } = require('./models-list');
const {
	SANDBOX_CREDENTIAL,
	TRIGGER,
	headerAuthCredential,
	manualTrigger,
	outputItems,
	runDuration,
	runFromEditor,
	startN8n,
} = require('./real-n8n');
const {
	SMALLEST_PAGING,
	packageType,
	writeSmallestDeclarativePackage,
} = require('./smallest-declarative');
const { startSandboxProcess } = require('./sync-sandbox');
const { connectTo, pagesByNumber } = require('./upsert-job');

const MODELS = Number(flags.models ?? (SMOKE ? 250 : 10_000));
const ROUNDS = Number(flags.rounds ?? (SMOKE ? 1 : 7));
const PACKAGE_DIRS = (flags.package ?? [rt.PACKAGE_ROOT]).map((dir) => path.resolve(dir));
if (!(Number.isInteger(MODELS) && MODELS > 0 && Number.isInteger(ROUNDS) && ROUNDS > 0))
	usageError(USAGE, '--models and --rounds take whole numbers above 0');
/**
 * The requests of each run: (n) one per page, (h) one empty page more where the last page is full
 * (it stops at a page of fewer than PAGE_SIZE).
 */
const PAGES = Math.ceil(MODELS / PAGE_SIZE);
const EXPECTED_REQUESTS = { n: PAGES, h: Math.floor(MODELS / PAGE_SIZE) + 1, f: PAGES };

const LATENCY_MS = 20;
/** Issue 43: the node's Return All takes at most this share of the HTTP Request node's time. */
const NODE_TO_HTTP_REQUEST = 0.25;
const TOKEN = 'n8n-list-bench-token';
const HEADER_AUTH_CREDENTIAL = headerAuthCredential(TOKEN);
const HTTP_REQUEST_VERSION = 4.2;

// --- the workflows ------------------------------------------------------------------------------

const GET_MANY = 'Get many equipment models';
const HTTP_REQUEST = 'HTTP Request';
const SPLIT_OUT = 'Split Out';
const FLOOR = 'Smallest declarative paging';
const HTTP_REQUEST_WORKFLOW_ID = 'benchListHttpRequest';

/** A workflow as `n8n import:workflow` takes it: the Manual Trigger, then `nodes` in a row. */
function workflow(id, name, nodes) {
	const all = [manualTrigger(), ...nodes];
	return {
		id,
		name,
		active: false,
		nodes: all.map((node, index) => ({ ...node, position: [index * 220 - 400, 0] })),
		connections: Object.fromEntries(
			all
				.slice(0, -1)
				.map((node, index) => [node.name, { main: [[connectTo(all[index + 1].name)]] }]),
		),
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

const nodeWorkflow = workflow('benchListNode', 'Bench: Get Many, Return All', [
	{
		id: 'getMany',
		name: GET_MANY,
		type: rt.NODE_TYPE,
		typeVersion: CURRENT_VERSION,
		credentials: SANDBOX_CREDENTIAL,
		parameters: { resource: 'equipmentModel', operation: 'getAll', returnAll: true },
	},
]);

const floorWorkflow = workflow('benchListFloor', 'Bench: smallest declarative node paging', [
	{
		id: 'floor',
		name: FLOOR,
		type: packageType(SMALLEST_PAGING),
		typeVersion: 1,
		credentials: SANDBOX_CREDENTIAL,
		parameters: { operation: 'getAll' },
	},
]);

const httpRequestWorkflow = (sandboxUrl) =>
	workflow(HTTP_REQUEST_WORKFLOW_ID, 'Bench: HTTP Request with pagination', [
		{
			id: 'httpRequest',
			name: HTTP_REQUEST,
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: HTTP_REQUEST_VERSION,
			credentials: {
				httpHeaderAuth: { id: HEADER_AUTH_CREDENTIAL.id, name: HEADER_AUTH_CREDENTIAL.name },
			},
			parameters: {
				method: 'GET',
				url: `${sandboxUrl}${MODELS_PATH}`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpHeaderAuth',
				sendQuery: true,
				queryParameters: { parameters: [{ name: 'limit', value: String(PAGE_SIZE) }] },
				options: { pagination: pagesByNumber(PAGE_SIZE) },
			},
		},
		{
			id: 'splitOut',
			name: SPLIT_OUT,
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'content', options: {} },
		},
	]);

// --- the packages and the contenders ------------------------------------------------------------

/** A package folder's name in the report: its git commit, else the folder's name. */
function packageLabel(dir) {
	try {
		const commit = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		}).trim();
		return commit;
	} catch {
		return path.basename(dir);
	}
}

/**
 * (n) and (h) in the n8n of each package (`instance`), in the order of PACKAGE_DIRS, then (f) in
 * the first's.
 */
function contenders(instances) {
	const floor = {
		label: `(f) smallest declarative paging, n8n of ${instances[0].label}`,
		kind: 'f',
		instance: instances[0],
		workflowId: floorWorkflow.id,
		output: FLOOR,
	};
	const perPackage = instances.flatMap((instance) => [
		{
			label: `(n) the node ${instance.label}`,
			kind: 'n',
			instance,
			workflowId: nodeWorkflow.id,
			output: GET_MANY,
		},
		{
			label: `(h) HTTP Request, n8n of ${instance.label}`,
			kind: 'h',
			instance,
			workflowId: HTTP_REQUEST_WORKFLOW_ID,
			output: SPLIT_OUT,
		},
	]);
	return [...perPackage, floor];
}

// --- the runs -----------------------------------------------------------------------------------

/** What is wrong with a run's result (empty when right): `expectedIds` once each, in order. */
function wrongResult(run, output, expectedIds) {
	if (run.timedOut) return ['the execution did not end'];
	if (run.execution.status !== 'success')
		return [`the execution's status is ${run.execution.status}`];
	const ids = outputItems(run.execution, [output]).map((item) => item.json.id);
	const wrong = [];
	if (ids.length !== expectedIds.length)
		wrong.push(`${ids.length} output items, not ${expectedIds.length}`);
	if (new Set(ids).size !== ids.length)
		wrong.push(`${ids.length - new Set(ids).size} repeated ids`);
	const firstOff = expectedIds.findIndex((id, index) => ids[index] !== id);
	if (firstOff >= 0) wrong.push(`not the models in the API's order from item ${firstOff} on`);
	return wrong;
}

/** One run of a contender: its time, the requests the sandbox received, what was wrong. */
async function measure(sandbox, contender, expectedIds) {
	await sandbox.ask({ type: 'reset', existing: [] });
	const { rest } = contender.instance;
	const run = await runFromEditor(rest, contender.workflowId);
	const report = await sandbox.ask({ type: 'report' });
	const wrong = wrongResult(run, contender.output, expectedIds);
	const accepted = Object.values(report.accepted).reduce((sum, count) => sum + count, 0);
	const requests = accepted + report.refused;
	if (requests !== EXPECTED_REQUESTS[contender.kind])
		wrong.push(`${requests} requests, not ${EXPECTED_REQUESTS[contender.kind]}`);
	if (!run.timedOut) await rest('POST', '/executions/delete', { ids: [run.execution.id] });
	return { duration: runDuration(run), requests, wrong };
}

/**
 * Every contender's runs: a warm-up round (not counted), then ROUNDS rounds, the contenders taking
 * turns in each, who goes first rotating. Answers per contender { durations, requests, wrong }.
 */
async function runRounds(sandbox, all, expectedIds) {
	const results = all.map(() => ({ durations: [], requests: new Set(), wrong: [] }));
	for (let round = 0; round <= ROUNDS; round++) {
		const first = round % all.length;
		const order = [...all.keys()].map((index) => (index + first) % all.length);
		for (const index of order) {
			const { duration, requests, wrong } = await measure(sandbox, all[index], expectedIds);
			const result = results[index];
			result.requests.add(requests);
			result.wrong.push(...wrong.map((line) => `round ${round}: ${line}`));
			if (round > 0) result.durations.push(duration);
		}
		process.stderr.write(round === 0 ? 'warm-up done; rounds: ' : `${round} `);
	}
	process.stderr.write('\n');
	return results;
}

// --- the report ---------------------------------------------------------------------------------

const ratio = (value) => (Number.isFinite(value) ? value.toFixed(2) : '-');
const milliseconds = (ms) => `${ms.toFixed(0)} ms`;

function report(instances, all, results, loadBefore) {
	const summaries = all.map((contender, index) => {
		const { durations, requests, wrong } = results[index];
		return {
			contender,
			median: median(durations),
			fastest: Math.min(...durations),
			slowest: Math.max(...durations),
			requests: [...requests].join('/'),
			wrong,
		};
	});
	const medianOf = (instance, kind) =>
		summaries.find(({ contender }) => contender.instance === instance && contender.kind === kind)
			.median;
	const baseNode = medianOf(instances[0], 'n');
	const floor = medianOf(instances[0], 'f');
	const perPackage = instances.map((instance) => {
		const [n, h] = [medianOf(instance, 'n'), medianOf(instance, 'h')];
		return {
			line: `  ${instance.label} (${instance.dir}): n/h = ${ratio(n / h)}, n/f = ${ratio(n / floor)}, n against ${instances[0].label}'s = ${ratio(n / baseNode)}`,
			goal: verdict(
				`${instance.label}: n/h at most ${NODE_TO_HTTP_REQUEST}`,
				ratio(n / h),
				n / h <= NODE_TO_HTTP_REQUEST,
			),
		};
	});
	const wrong = summaries.flatMap(({ contender, wrong: lines }) =>
		lines.map((line) => `  ${contender.label}: ${line}`),
	);
	console.log(
		[
			`Return All of ${MODELS} equipment models in n8n ${rt.n8nVersion()} (n8n start, SQLite, the package as a community package, one n8n per package), ${LATENCY_MS} ms per request, pages of ${PAGE_SIZE}; each run started as the editor's Execute workflow does; median of ${ROUNDS} rounds after a warm-up round, the contenders taking turns, who goes first rotating. Time: from the REST call to the execution's stoppedAt.`,
			`Machine: ${os.availableParallelism()} cores, load average (1, 5, 15 min) at the start: ${loadBefore}.`,
			...table(
				[
					['median', (s) => milliseconds(s.median)],
					['fastest', (s) => milliseconds(s.fastest)],
					['slowest', (s) => milliseconds(s.slowest)],
					['requests', (s) => s.requests],
				],
				summaries.map((summary) => [summary.contender.label, summary]),
			),
			'Per package:',
			...perPackage.map(({ line }) => line),
			`The floor, n8n's engine alone: f/h = ${ratio(floor / medianOf(instances[0], 'h'))} in the n8n of ${instances[0].label}.`,
			...(SMOKE
				? ['Goals: not judged (--smoke)']
				: ['Goals:', ...perPackage.map(({ goal }) => goal.line)]),
			...(wrong.length > 0 ? ['WRONG RESULTS:', ...wrong] : []),
			`Load average at the end: ${loadAverage()}.`,
		].join('\n'),
	);
	return { right: wrong.length === 0, goalsMet: perPackage.every(({ goal }) => goal.met) };
}

async function main() {
	const loadBefore = loadAverage();
	const sandbox = await startSandboxProcess({
		token: TOKEN,
		latencyMs: LATENCY_MS,
		models: MODELS,
		maxPageSize: PAGE_SIZE,
	});
	const instances = [];
	const floorPackage = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-paging-floor-'));
	writeSmallestDeclarativePackage(floorPackage);
	try {
		const expectedIds = (await fetchAllModels(sandbox.url, TOKEN)).map((model) => model.id);
		if (expectedIds.length !== MODELS || new Set(expectedIds).size !== MODELS)
			throw new Error(`the sandbox lists ${expectedIds.length} models, not ${MODELS} once each`);
		for (const dir of PACKAGE_DIRS) {
			process.stderr.write(`starting n8n with the package of ${dir}...\n`);
			const n8n = await startN8n({
				sandboxUrl: sandbox.url,
				token: TOKEN,
				workflows: [
					nodeWorkflow,
					httpRequestWorkflow(sandbox.url),
					...(instances.length === 0 ? [floorWorkflow] : []),
				],
				credentials: [HEADER_AUTH_CREDENTIAL],
				packageDir: dir,
				packageDirs: instances.length === 0 ? [floorPackage] : [],
			});
			instances.push({ ...n8n, dir, label: packageLabel(dir) });
		}
		const all = contenders(instances);
		const results = await runRounds(sandbox, all, expectedIds);
		const { right, goalsMet } = report(instances, all, results, loadBefore);
		// 1 when a result is wrong; 3 when the results are right and the goal is missed.
		if (!right) process.exitCode = 1;
		else if (!SMOKE && !goalsMet) process.exitCode = 3;
	} finally {
		for (const n8n of instances) await n8n.stop();
		await sandbox.stop();
		fs.rmSync(floorPackage, { recursive: true, force: true });
		const stopped = await stoppedProcesses([
			{ name: 'sandbox', pid: sandbox.pid },
			...instances.map(({ pid, label }) => ({ name: `n8n of ${label}`, pid, group: true })),
		]);
		console.log(stopped.line);
		if (!stopped.allStopped) process.exitCode = 1;
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
