'use strict';

/**
 * Is n8n still answering while it syncs tens of thousands of rows, how long does the sync take and
 * how much memory does n8n need? A real n8n (`n8n start` of the pinned version, headless, SQLite,
 * this package installed in its user folder as n8n installs a community package, as the e2e suite
 * does; with --queue, queue mode: PostgreSQL, Redis, a main handing every execution to one `n8n
 * worker`) runs Create or Update of clients by external ID against the sandbox (in a process of its
 * own, 20 ms per request, no rate limit), in the cases of bench/upsert-job.js: the nightly run (1%
 * of the rows differ, half changed and half new; by default at 50,000 rows) and the first load
 * (every row new). Each workflow is started through n8n's REST API as the editor's "Execute
 * workflow" button does (POST /rest/workflows/:id/run from its Manual Trigger), one after the other;
 * with --trigger webhook as a production execution instead, as a nightly Schedule Trigger's run is:
 * the workflow starts from a Webhook trigger (active, answering when the run has ended), and
 * --save sets its "Save successful production executions" (all, n8n's default, or none):
 *   (a) Manual Trigger > Code (the rows as items: externalId, name, city) > Equipment Rental,
 *       Client > Create or Update, Request Options unset, the fields from $json;
 *   (a') the node in Loop Over Items (Split in Batches 3) of each --loops size around the
 *       Equipment Rental node of (a) (the README's large-sync recipe); the loop's "done" output ends
 *       the run;
 *   (b) the same rows through n8n's own nodes as n8n's docs build it: HTTP Request GET by external
 *       ID (full response, never error) > IF (status 200) > HTTP Request PATCH / POST, Header Auth
 *       credential (upsert-job.js, httpRequestBuild): a look-up and a write per row. With
 *       --http-rows N below the case's rows it runs N rows and its time and requests are scaled to
 *       the case's (said in its label);
 *   (d) in the cases where the sandbox holds rows (nightly), the careful user's build from n8n's own
 *       nodes: HTTP Request reading the whole list with its pagination > Split Out > Compare
 *       Datasets against the rows > HTTP Request POST of the new, PATCH of the differing
 *       (upsert-job.js, compareDatasetsBuild);
 *   (e) once per run, the declarative floor: --floor-rows new rows (default 5,000) through the
 *       smallest declarative node (bench/smallest-declarative.js, installed as a community package
 *       of its own), a POST of each: what n8n's own engine costs per item, and how long it holds
 *       n8n's event loop before the first request;
 *   (f) in the nightly case, the routing floor: the rows through the smallest declarative node that
 *       routes each and sends nothing (the same package): what n8n's engine alone costs a run in
 *       which most rows send nothing. It must leave the sandbox's records as they were.
 * Writing nodes are set to On Error: Continue, so that a failure is counted as an item rather than
 * ending the run. Each workflow runs once with 10 rows first (a warm-up, not measured), so that the
 * first run does not carry n8n's first-use costs. While each runs, this process probes n8n (the main
 * in queue mode) every 100 ms: GET /healthz/readiness (200 while n8n's database answers its ping,
 * 503 otherwise), then GET /healthz, each waiting for its answer (5 s at most) before the next; and
 * samples every 250 ms the resident memory of n8n's process trees (n8n and its task runner; in
 * queue mode the main's and the worker's, added). Per case and contender: the execution's status,
 * its time (from the REST call to the execution's stoppedAt; with --trigger webhook, from the call
 * to n8n's answer, which comes after the save), that time against (b)'s and (d)'s,
 * failed items (output items carrying an error), records the sandbox does not hold right, the
 * requests the sandbox received and per row, n8n's peak RSS, the probes (readiness answered other
 * than 200, /healthz other than 200, the longest answer of either (n8n's event loop answers both: the
 * probe in flight while it is held waits) and when it was sent, the median latency against that of n8n idle, probed for 5 s before the first run; each
 * probe not answered 200 or slower than 1 s is listed below the table), the "Database
 * connection timed out" warnings in n8n's log, and what n8n's save of the ended execution does on
 * its event loop: flatted's stringify of the run data (n8n's ExecutionRepository runs it in one go
 * before writing), done again here on the data n8n saved, its time and its size (not when n8n saved
 * none). A run's probes are those started from its REST call until the poll (GET
 * /rest/executions/:id, every 250 ms) that finds it ended, or until n8n answers the webhook call.
 *
 * Checks, which make the run exit with 1: every contender's execution ended with success, with one
 * output item per record and no failed item, the sandbox holds every record once with the
 * values sent (the existing ones under the IDs they had), and n8n sent nothing after reporting the
 * execution ended (a run's requests are counted until the sandbox is quiet, QUIET_MS, and the
 * next run starts only then). The sandbox's clients are reset before each run. Goals of issues 36
 * and 43 (exit code 3 when the results are right but one is missed;
 * each verdict is printed, the floor's figures beside those about the event loop): n8n's readiness
 * answered 200 throughout every run; nightly, (a) at most a third of (b)'s time and at most (d)'s;
 * first load, (a) at most (b)'s time; (a') at most 1.1 x (a)'s requests; no /healthz over 1 s in
 * (a') (the recipe), in (a) up to 5,000 rows, and in queue mode in every run of the node.
 *
 * Run with `npm run bench:n8n` (node bench/n8n-responsiveness.bench.js [--case nightly,first-load]
 * [--records N] [--loops N,N] [--http-rows N] [--floor-rows N] [--only a,a',b,d,e,f] [--queue]
 * [--trigger editor|webhook] [--save all|none] [--parallel-requests N]); it
 * needs n8n 2.8.4 installed (`npm run n8n:install`) and the package built (`npm run build`). The
 * default run (nightly, 50,000 rows, every contender) takes about 25 minutes on 2 cores, most of it
 * (b)'s 100,000 requests. --smoke: SMOKE_RECORDS rows in both cases, Loop Over Items of
 * SMOKE_LOOP_BATCH_SIZE, the floor of SMOKE_RECORDS rows, no warm-up, 1 s of idle probes, every
 * check but no goal judged (USAGE below).
 */

const {
	commandLine,
	commonUsage,
	isRunning,
	stoppedProcesses,
	usageError,
} = require('./command-line');

const USAGE = [
	'Usage: npm run bench:n8n -- [options]   (node bench/n8n-responsiveness.bench.js [options])',
	'Create or Update of clients in a real n8n 2.8.4 (n8n start, SQLite; or queue mode), probing',
	'whether n8n keeps answering and sampling its memory: the node, the node in Loop Over Items, HTTP',
	"Request + IF, the Compare Datasets build, and the smallest declarative node as n8n's floor. Needs",
	'n8n 2.8.4 installed (npm run n8n:install) and the package built (npm run build). Exits with 1',
	'when a result is wrong, with 3 when the results are right and a goal is missed (not with --smoke).',
	'  --case C,C        nightly, first-load, half (default nightly; with --smoke both first)',
	'  --records N       rows of each case (default 50000)',
	"  --loops N,N       batch sizes of (a') Loop Over Items (default 100,1000)",
	"  --http-rows N     rows (b) runs at most, its time and requests scaled to the case's (default 5000)",
	'  --floor-rows N    rows of (e), the smallest declarative node (default 5000)',
	"  --only K,K        contenders a, a', b, d, e, f (default all; quote a' in a shell)",
	"  --parallel-requests N  (a)'s and (a')'s Request Options > Parallel Requests (default: the node's, 5)",
	'  --queue           n8n in queue mode: PostgreSQL, Redis, a main and one worker running the runs',
	"  --trigger T       how each run starts: editor (default; the editor's Execute workflow, a manual",
	"                    run) or webhook (a production run, as a Schedule Trigger's: the active",
	"                    workflow's Webhook trigger, answered once n8n has ended and saved the run)",
	"  --save S          Save successful production executions of the workflows: all (n8n's default)",
	'                    or none (with --trigger webhook: n8n applies it to production runs only)',
	...commonUsage(
		"a small run (20 rows of each case, Loop Over Items of 10, a floor of 20 rows, no warm-up; n8n's start and seconds): every result checked, no goal judged",
		20,
	),
].join('\n');
const { values: flags } = commandLine(USAGE, {
	case: { type: 'string' },
	records: { type: 'string' },
	loops: { type: 'string' },
	'http-rows': { type: 'string' },
	'floor-rows': { type: 'string' },
	only: { type: 'string' },
	'parallel-requests': { type: 'string' },
	queue: { type: 'boolean' },
	trigger: { type: 'string' },
	save: { type: 'string' },
});
const SMOKE = flags.smoke === true;
const SMOKE_RECORDS = 20;
const SMOKE_LOOP_BATCH_SIZE = 10;
const QUEUE = flags.queue === true;

require('./register-typescript');

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');

const rt = require('../scripts/n8n-runtime');
const { CURRENT_VERSION } = require('../nodes/EquipmentRental/engine/nodeVersions');
const { listOption, loadAverage, seconds, table, verdict } = require('./measuring');
const {
	LIVENESS,
	PROBE_EVERY_MS,
	PROBE_TIMEOUT_MS,
	READINESS,
	SLOW_PROBE_MS,
} = require('./n8n-probes');
const { probeSummary, startWatching } = require('./n8n-probes');
const {
	SANDBOX_CREDENTIAL,
	activate,
	flattedSave,
	headerAuthCredential,
	POLL_EVERY_MS,
	manualTrigger,
	outputItems,
	runDuration,
	runFromEditor,
	runFromWebhook,
	savedExecution,
	startN8n,
	webhookTrigger,
} = require('./real-n8n');
const {
	ROUTING_FLOOR,
	SMALLEST_CREATE,
	packageType,
	writeSmallestDeclarativePackage,
} = require('./smallest-declarative');
const { startSandboxProcess } = require('./sync-sandbox');
const {
	NODE_UPSERT_PARAMETERS,
	ON_ERROR_CONTINUE,
	compareDatasetsBuild,
	connectTo,
	errorItemCount,
	heldBefore,
	httpRequestBuild,
	SYNC_CASES,
	recordsNotRight,
	syncJob,
} = require('./upsert-job');

const CONTENDER_KEYS = ['a', "a'", 'b', 'd', 'e', 'f'];
const CASES = listOption(
	flags,
	'case',
	Object.keys(SYNC_CASES),
	SMOKE ? ['nightly', 'first-load'] : ['nightly'],
);
const ONLY = listOption(flags, 'only', CONTENDER_KEYS, CONTENDER_KEYS);
const [STARTED_BY] = listOption(flags, 'trigger', ['editor', 'webhook'], ['editor']);
const BY_WEBHOOK = STARTED_BY === 'webhook';
const [SAVE_SUCCESSFUL] = listOption(flags, 'save', ['all', 'none'], ['all']);
if (SAVE_SUCCESSFUL === 'none' && !BY_WEBHOOK)
	usageError(USAGE, '--save none needs --trigger webhook: n8n applies it to production runs only');

/** A whole number above 0 from option `name`, or `otherwise` when it is not given. */
function countOption(name, otherwise) {
	const value = Number(flags[name] ?? otherwise);
	if (!(Number.isInteger(value) && value > 0))
		usageError(USAGE, `--${name} takes a whole number above 0`);
	return value;
}
const RECORDS = countOption('records', SMOKE ? SMOKE_RECORDS : 50_000);
// (b) sends two requests per row, all rows at once: 50,000 rows would be 100,000 requests and more
// connections than the sandbox's listen queue takes. By default it runs at most this many rows and
// its time and requests are scaled to the case's: a lower bound of its cost, since (b)'s time per
// row does not fall with more rows.
const HTTP_ROWS_AT_MOST = 5_000;
const HTTP_ROWS = Math.min(RECORDS, countOption('http-rows', HTTP_ROWS_AT_MOST));
const FLOOR_ROWS = countOption('floor-rows', SMOKE ? SMOKE_RECORDS : 5_000);
const PARALLEL_REQUESTS =
	flags['parallel-requests'] === undefined ? undefined : countOption('parallel-requests');
const LOOP_BATCH_SIZES = (
	flags.loops?.split(',') ?? (SMOKE ? [SMOKE_LOOP_BATCH_SIZE] : [100, 1_000])
)
	.map(Number)
	.map((size) =>
		Number.isInteger(size) && size > 0
			? size
			: usageError(USAGE, '--loops takes whole numbers above 0'),
	);

const LATENCY_MS = 20;
const TOKEN = 'n8n-bench-token';
const PREFIX = 'n8n-bench-';
// Each workflow runs once with this many rows before the measured runs, so that none of them pays
// for what n8n does on a first use (loading a node's code, starting the task runner); not with
// --smoke, whose figures do not count.
const WARM_UP_ROWS = 10;
const WARMS_UP = !SMOKE;

// n8n idle, probed as during a run: the probes' latency when n8n has nothing else to do.
const IDLE_PROBING_MS = SMOKE ? 1_000 : 5_000;
/** What n8n logs when its database does not answer its ping in time: readiness then answers 503. */
const DB_PING_TIMEOUT = 'Database connection timed out';
/** Issues 36 and 43: in the nightly case the node takes at most this share of (b)'s time. */
const NIGHTLY_TO_HTTP_BUILD = 1 / 3;
/** Issue 43: a loop's batches read the list once, so their requests are at most this x (a)'s. */
const LOOP_REQUESTS_TO_SINGLE_RUN = 1.1;
/** Issue 43: up to this many rows, one run of the node keeps every /healthz under SLOW_PROBE_MS. */
const ONE_RUN_RESPONSIVE_UP_TO = 5_000;

const HEADER_AUTH_CREDENTIAL = headerAuthCredential(TOKEN);

// --- the workflows ------------------------------------------------------------------------------

const ROWS = 'Rows';
const UPSERT = 'Create or Update client';
const LOOP = 'Loop Over Items';
const FLOOR_NODE = 'Create Client';

/**
 * The trigger (Manual Trigger, or with --trigger webhook a Webhook trigger at `webhookPath`) > Code
 * putting out `rows`, as the start of every contender's workflow.
 */
function rowsStart(rows, webhookPath) {
	const trigger = BY_WEBHOOK ? webhookTrigger(webhookPath) : manualTrigger();
	return {
		nodes: [
			trigger,
			{
				id: 'rows',
				name: ROWS,
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [-200, 0],
				parameters: { jsCode: `return ${JSON.stringify(rows)}.map((json) => ({ json }));` },
			},
		],
		connections: { [trigger.name]: { main: [[connectTo(ROWS)]] } },
	};
}

const upsertNode = {
	id: 'upsert',
	name: UPSERT,
	type: rt.NODE_TYPE,
	typeVersion: CURRENT_VERSION,
	position: [200, 0],
	credentials: SANDBOX_CREDENTIAL,
	...ON_ERROR_CONTINUE,
	parameters:
		PARALLEL_REQUESTS === undefined
			? NODE_UPSERT_PARAMETERS
			: { ...NODE_UPSERT_PARAMETERS, requestOptions: { parallelRequests: PARALLEL_REQUESTS } },
};

/**
 * A workflow as `n8n import:workflow` takes it: the start with `rows`, then `nodes` after the Code
 * node; its Webhook trigger's path is its ID.
 */
function workflow(id, name, rows, { nodes, connections }) {
	const start = rowsStart(rows, id);
	return {
		id,
		name,
		active: false,
		nodes: [...start.nodes, ...nodes],
		connections: { ...start.connections, ...connections },
		settings: { executionOrder: 'v1', saveDataSuccessExecution: SAVE_SUCCESSFUL },
		pinData: {},
	};
}

/**
 * Runs a workflow as --trigger says: from the editor (polled until it ended), or by its webhook
 * (n8n answers once it has ended and saved the run). Answers runFromEditor's result, or
 * runFromWebhook's with the execution as far as it is known before the run's data is read:
 * its status.
 */
async function startRun({ rest, url }, { id }) {
	if (!BY_WEBHOOK) return await runFromEditor(rest, id);
	const run = await runFromWebhook(url, id);
	return { ...run, execution: { status: run.ok ? 'success' : 'error' }, pollFailures: 0 };
}

/**
 * A run started by its webhook, with the execution n8n saved (status, times, data), or marked
 * `notSaved` when n8n kept none; a run from the editor as it is (its data came with its end).
 */
async function withSavedExecution({ rest }, { id }, run) {
	if (!BY_WEBHOOK) return run;
	const execution = await savedExecution(rest, id);
	return execution ? { ...run, execution } : { ...run, notSaved: true };
}

/** A workflow ID's ending for a case: `first-load` becomes `FirstLoad`. */
const idEnding = (caseName) =>
	caseName.replace(/(^|-)(\w)/g, (_match, _dash, letter) => letter.toUpperCase());

/** (a') the node of (a) in Loop Over Items of `batchSize`. */
function loopContender(batchSize) {
	return {
		key: "a'",
		label: `(a') (a) in Loop Over Items of ${batchSize.toLocaleString('en')}`,
		id: `benchLoopUpsert${batchSize}`,
		name: `Bench: Loop Over Items of ${batchSize} > Create or Update`,
		nodes: [
			{
				id: 'loop',
				name: LOOP,
				type: 'n8n-nodes-base.splitInBatches',
				typeVersion: 3,
				position: [0, 0],
				parameters: { batchSize, options: {} },
			},
			{ ...upsertNode, position: [200, 100] },
		],
		connections: {
			[ROWS]: { main: [[connectTo(LOOP)]] },
			// Output 0 ("done") leads nowhere: the run ends when the last batch is through.
			[LOOP]: { main: [[], [connectTo(UPSERT)]] },
			[UPSERT]: { main: [[connectTo(LOOP)]] },
		},
		outputs: [UPSERT],
	};
}

/** A build of n8n's own nodes (upsert-job.js) as a contender's nodes after the rows. */
function fromBuild(build) {
	return {
		nodes: build.nodes,
		connections: { [ROWS]: { main: [build.inputTo] }, ...build.connections },
		outputs: build.outputs,
	};
}

/**
 * The contenders of `job` (upsert-job.js, syncJob; `httpJob`: the same case with (b)'s rows): the
 * workflow each runs, the same with WARM_UP_ROWS rows, the nodes whose output items are its
 * results (every run of them: (a') runs the node once per batch), and the factor its time and
 * requests are scaled by to speak of the case's rows.
 */
function caseContenders(sandboxUrl, job, httpJob) {
	const http = {
		baseUrl: sandboxUrl,
		inputNode: ROWS,
		credential: { id: HEADER_AUTH_CREDENTIAL.id, name: HEADER_AUTH_CREDENTIAL.name },
	};
	const scaled = httpJob.records.length < job.records.length;
	const all = [
		{
			key: 'a',
			label:
				PARALLEL_REQUESTS === undefined
					? '(a) the node, defaults'
					: `(a) the node, Parallel Requests ${PARALLEL_REQUESTS}`,
			id: 'benchNodeUpsert',
			name: 'Bench: Create or Update',
			nodes: [upsertNode],
			connections: { [ROWS]: { main: [[connectTo(UPSERT)]] } },
			outputs: [UPSERT],
		},
		...LOOP_BATCH_SIZES.map(loopContender),
		{
			key: 'b',
			label: scaled
				? `(b) HTTP Request + IF, ${httpJob.records.length.toLocaleString('en')} rows scaled`
				: '(b) HTTP Request + IF',
			id: 'benchHttpBuild',
			name: 'Bench: HTTP Request + IF',
			job: httpJob,
			...fromBuild(httpRequestBuild(http)),
		},
		...(job.existingBefore.length > 0
			? [
					{
						key: 'd',
						label: '(d) HTTP Request pagination + Compare Datasets',
						id: 'benchCompareBuild',
						name: 'Bench: Compare Datasets',
						// Its writing nodes get only the rows that differ: the others end at Compare Datasets.
						outputsPerRow: false,
						...fromBuild(compareDatasetsBuild(http)),
					},
				]
			: []),
		...(job.caseName === 'nightly' ? [routingFloorContender()] : []),
	];
	return all
		.filter(({ key }) => ONLY.includes(key))
		.map((contender) => measured({ job, ...contender }, job));
}

/** A smallest declarative node (smallest-declarative.js) as the package gives it, named `name`. */
function smallestDeclarativeNode(node, name) {
	return {
		id: node.description.name,
		name,
		type: packageType(node),
		typeVersion: 1,
		position: [200, 0],
		...(node.description.credentials ? { credentials: SANDBOX_CREDENTIAL } : {}),
		...ON_ERROR_CONTINUE,
		parameters: node.parameters,
	};
}

/** (e) the smallest declarative node creating each of `job`'s rows: n8n's engine's floor. */
function floorContender(job) {
	return measured(
		{
			key: 'e',
			label: `(e) smallest declarative node, ${job.records.length.toLocaleString('en')} new rows`,
			id: 'benchFloor',
			name: 'Bench: smallest declarative node',
			job,
			nodes: [smallestDeclarativeNode(SMALLEST_CREATE, FLOOR_NODE)],
			connections: { [ROWS]: { main: [[connectTo(FLOOR_NODE)]] } },
			outputs: [FLOOR_NODE],
		},
		job,
	);
}

/** (f) the routing floor: the case's rows routed by a declarative node that sends nothing. */
function routingFloorContender() {
	const name = 'Route Client';
	return {
		key: 'f',
		label: '(f) routing floor',
		id: 'benchRoutingFloor',
		name: 'Bench: routing floor',
		writesNothing: true,
		nodes: [smallestDeclarativeNode(ROUTING_FLOOR, name)],
		connections: { [ROWS]: { main: [[connectTo(name)]] } },
		outputs: [name],
	};
}

/**
 * A contender with its workflows (the measured one and its warm-up), named for the case of
 * `caseJob`, its rows those of its own job, and the factor that scales its figures to the case's
 * rows.
 */
function measured({ id: idStart, name: nameStart, nodes, connections, ...contender }, caseJob) {
	const { job } = contender;
	const [id, name] = [`${idStart}${idEnding(job.caseName)}`, `${nameStart}, ${job.title}`];
	const rows = job.records.map(({ externalId, name: clientName, city, number }) =>
		contender.key === 'e'
			? { externalId, name: clientName, city, number }
			: { externalId, name: clientName, city },
	);
	const after = { nodes, connections };
	return {
		...contender,
		caseJob,
		scale: caseJob.records.length / job.records.length,
		workflow: workflow(id, name, rows, after),
		warmUp: workflow(`${id}WarmUp`, `${name} (warm-up)`, rows.slice(0, WARM_UP_ROWS), after),
	};
}

// --- the runs -----------------------------------------------------------------------------------

/** How often n8n's log has said DB_PING_TIMEOUT since `offset` (bytes). */
function dbPingTimeoutsSince(logFile, offset) {
	return (
		fs.readFileSync(logFile).subarray(offset).toString('utf8').split(DB_PING_TIMEOUT).length - 1
	);
}

// A run n8n reports ended may still be sending: in queue mode n8n 2.8.4 fails a job whose worker
// held its event loop past Bull's lock (maxStalledCount 0) while the worker goes on running it, and
// a run whose polls were given up on goes on in n8n. Its requests were counted as the next
// contender's (the 1,300 and 1,334 requests once reported of the loop of 100): a run's count ends,
// and the next run starts, once the sandbox has heard nothing for this long; after a run that
// failed, for as long as n8n may take to prepare its items before its first request (about 1 ms
// each, twice that on a loaded machine), silent all the while. Not airtight: at load 12 a
// failed 50,000-row run was still silent after 100 s.
const QUIET_MS = SMOKE ? 2_000 : 10_000;
const QUIET_POLL_MS = 1_000;
const quietAfterFailureMs = (rows) => Math.max(QUIET_MS, 2 * rows);

/** The requests the sandbox has received since its reset. */
async function requestsReceived(sandbox) {
	const { accepted, refused } = await sandbox.ask({ type: 'report' });
	return Object.values(accepted).reduce((sum, count) => sum + count, 0) + refused;
}

/** Waits until the sandbox has received no request for QUIET_MS; the requests received by then. */
async function untilQuiet(sandbox) {
	let received = await requestsReceived(sandbox);
	for (let quietSince = performance.now(); performance.now() - quietSince < QUIET_MS;) {
		await sleep(QUIET_POLL_MS);
		const now = await requestsReceived(sandbox);
		if (now !== received) [received, quietSince] = [now, performance.now()];
	}
	return received;
}

/**
 * One contender's run on a reset sandbox, watched: its figures (time and requests scaled by the
 * contender's factor), and what was wrong with its result (empty when right).
 */
async function measure(n8n, contender) {
	const { url, logFile, n8nProcesses, sandbox } = n8n;
	const { job } = contender;
	const { ids } = await sandbox.ask({ type: 'reset', existing: job.existingBefore });
	const logOffset = fs.statSync(logFile).size;
	const runStartedAt = performance.now();
	const watching = startWatching(url, n8nProcesses);
	let run;
	try {
		run = await startRun(n8n, contender.workflow);
	} catch (error) {
		await watching.stop();
		throw error;
	}
	const { probes, peakRss } = await watching.stop(run.endPolledAt);
	// Read after the probes: n8n sending a big run's data is the bench's doing, not the run's.
	run = await withSavedExecution(n8n, contender.workflow, run);
	const hasData = !(run.timedOut || run.dataUnreadable || run.notSaved);
	const saved = hasData ? flattedSave(run.execution.data) : { ms: NaN, bytes: NaN };
	const atEnd = await requestsReceived(sandbox);
	const quietMs =
		run.execution?.status === 'success' ? QUIET_MS : quietAfterFailureMs(job.records.length);
	const afterEnd = (await untilQuiet(sandbox, quietMs)) - atEnd;
	const report = await sandbox.ask({ type: 'report', prefix: PREFIX });
	const wrong = [];
	let notRight;
	try {
		notRight = recordsNotRight(
			contender.writesNothing ? heldBefore(job) : job.records,
			report.clients,
			ids,
		);
	} catch (error) {
		wrong.push(error.message);
	}
	const status = run.timedOut ? 'did not end' : run.execution.status;
	const items = hasData ? outputItems(run.execution, contender.outputs) : [];
	const errorItems = hasData || run.timedOut ? errorItemCount(items) : NaN;
	const [expectedItems, eachOf] =
		contender.outputsPerRow === false ? [job.writes, 'row to write'] : [job.records.length, 'row'];
	const error = run.execution?.data?.resultData?.error;
	if (status !== 'success')
		wrong.push(
			`the execution's status is ${status}${error ? `: ${error.message}${error.node ? ` (in ${error.node.name})` : ''}` : ''}`,
		);
	else if (hasData && items.length !== expectedItems)
		wrong.push(`${items.length} output items, not one per ${eachOf}`);
	if (afterEnd > 0)
		wrong.push(
			`n8n sent ${count(afterEnd)} requests after reporting the execution ended (counted in its requests): the run went on`,
		);
	if (errorItems > 0) wrong.push(`${errorItems} failed items`);
	if (notRight > 0) wrong.push(`${notRight} records not right in the sandbox`);
	const accepted = Object.values(report.accepted).reduce((sum, count) => sum + count, 0);
	return {
		figures: {
			status,
			duration: runDuration(run) * contender.scale,
			errorItems,
			notRight: notRight ?? NaN,
			requests: (accepted + report.refused) * contender.scale,
			requestsPerRow: (accepted + report.refused) / job.records.length,
			rows: job.records.length,
			maxInFlight: report.maxInFlight,
			peakRss,
			dbPingTimeouts: dbPingTimeoutsSince(logFile, logOffset),
			pollFailures: run.pollFailures,
			dataUnreadable: run.dataUnreadable === true,
			notSaved: run.notSaved === true,
			savedMs: saved.ms,
			savedBytes: saved.bytes,
			...probeSummary(probes, runStartedAt),
		},
		wrong,
	};
}

/** Whether n8n answers its liveness probe. */
async function isAnswering(url) {
	try {
		return (await fetch(`${url}${LIVENESS}`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })).ok;
	} catch {
		return false;
	}
}

// Enough of n8n's log to tell why a run failed (an out-of-memory crash, a database error).
const LOG_LINES_ON_FAILURE = 15;

/** What is said of a contender whose run failed: the error, and the end of n8n's log. */
function failureLine(contender, error, logFile) {
	const logEnd = fs
		.readFileSync(logFile, 'utf8')
		.trimEnd()
		.split('\n')
		.slice(-LOG_LINES_ON_FAILURE);
	return [
		`  ${contender.caseJob.title}, ${contender.label}: the run failed: ${error.message}${error.cause ? ` (${error.cause.code ?? error.cause.message})` : ''}; n8n's log ends:`,
		...logEnd.map((line) => `    ${line}`),
	].join('\n');
}

// --- the report ---------------------------------------------------------------------------------

const milliseconds = (ms) => `${ms.toFixed(0)} ms`;
const count = (value) => (Number.isNaN(value) ? '-' : Math.round(value).toLocaleString('en'));
const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ratio = (value, baseline) => (baseline ? (value / baseline).toFixed(2) : '-');

function columns(baselines) {
	return [
		['status', (s) => s.status],
		['time', (s) => (Number.isNaN(s.duration) ? '-' : seconds(s.duration))],
		['x (b)', (s) => ratio(s.duration, baselines.b)],
		['x (d)', (s) => ratio(s.duration, baselines.d)],
		['failed items', (s) => count(s.errorItems)],
		['records not right', (s) => count(s.notRight)],
		['requests', (s) => count(s.requests)],
		['requests/row', (s) => s.requestsPerRow.toFixed(3)],
		['most in flight', (s) => count(s.maxInFlight)],
		['peak RSS', (s) => (s.peakRss.total ? megabytes(s.peakRss.total) : '-')],
		['probes', (s) => count(s.probeRounds)],
		['readiness not 200', (s) => count(s.readinessNotOk)],
		['/healthz not 200', (s) => count(s.livenessNotOk)],
		['longest /healthz', (s) => milliseconds(s.longestProbeMs)],
		['sent at', (s) => seconds(s.longestProbeSince)],
		['x idle (median)', (s) => (s.medianProbeMs / baselines.idleMedianProbeMs).toFixed(1)],
		['DB ping timeouts', (s) => count(s.dbPingTimeouts)],
		['run data', (s) => (Number.isNaN(s.savedBytes) ? '-' : megabytes(s.savedBytes))],
		['its stringify', (s) => (Number.isNaN(s.savedMs) ? '-' : milliseconds(s.savedMs))],
	];
}

function settingsLines(loadBefore) {
	const where = QUEUE
		? 'queue mode: PostgreSQL, Redis, a main (probed) and one worker running every execution (OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS), the package in each user folder'
		: 'n8n start, SQLite, the package as a community package';
	return [
		`Create or Update of ${count(RECORDS)} clients by external ID in n8n ${rt.n8nVersion()} (${where}), ${LATENCY_MS} ms per request, no rate limit; each run started ${BY_WEBHOOK ? `as a production execution, by a POST to the active workflow's Webhook trigger (Respond: When Last Node Finishes), Save successful production executions: ${SAVE_SUCCESSFUL}` : "as the editor's Execute workflow does (POST /rest/workflows/:id/run)"}, one after the other, the sandbox's clients reset before each.`,
		`Machine: ${os.availableParallelism()} cores, load average (1, 5, 15 min) at the start: ${loadBefore}.`,
		`Contenders, ${BY_WEBHOOK ? 'Webhook' : 'Manual Trigger'} > Code (the rows) > ...; writing nodes On Error: Continue (regular output); ${WARMS_UP ? `each warmed up by a run of ${WARM_UP_ROWS} rows` : 'not warmed up (--smoke)'}.${HTTP_ROWS < RECORDS ? ` (b) runs ${count(HTTP_ROWS)} rows: its time and requests x ${(RECORDS / HTTP_ROWS).toFixed(1)}.` : ''}`,
		`Probes: every ${PROBE_EVERY_MS} ms GET ${READINESS}, then GET ${LIVENESS}, each waiting for its answer (${PROBE_TIMEOUT_MS / 1000} s at most; longest /healthz: of either), from the ${BY_WEBHOOK ? "webhook call until n8n's answer" : `REST call until n8n reports the execution ended (polled every ${POLL_EVERY_MS} ms)`}. Peak RSS: n8n's process trees (with the task runner${QUEUE ? '; main and worker added' : ''}), sampled every 250 ms. Time: from the ${BY_WEBHOOK ? "call to n8n's answer (after its save)" : "REST call to the execution's stoppedAt"}.`,
		"Run data: the execution's data as n8n saved it, made again here by flatted's stringify (n8n's save runs it in one go on its event loop): its size and that stringify's time in this process ('-': n8n saved none).",
	];
}

/**
 * How long n8n's engine alone holds n8n's event loop per item, from the floor's run (its longest
 * /healthz beyond n8n idle's median over its rows), and from how many rows that passes
 * SLOW_PROBE_MS; undefined without a floor.
 */
function floorHold(floor, idle) {
	if (!floor) return undefined;
	const perItemMs = Math.max(0, floor.longestProbeMs - idle.medianProbeMs) / floor.rows;
	return { perItemMs, passesAt: perItemMs > 0 ? Math.ceil(SLOW_PROBE_MS / perItemMs) : Infinity };
}

/** A run's hold per item as above, against the floor's, as a goal's verdict states it. */
function besideFloor(figures, idle, hold) {
	const perItemMs = Math.max(0, figures.longestProbeMs - idle.medianProbeMs) / figures.rows;
	const distance =
		hold?.perItemMs > 0 ? `, ${(perItemMs / hold.perItemMs).toFixed(2)} x the floor's` : '';
	return `${perItemMs.toFixed(3)} ms per row${distance}`;
}

/** Issues 36's and 43's goals for the results of one case. */
function goalVerdicts(job, results, idle, hold) {
	const of = (key) => results.find(({ contender }) => contender.key === key)?.figures;
	const [node, build, compare, routingFloor] = ['a', 'b', 'd', 'f'].map(of);
	const verdicts = results.map(({ contender, figures }) =>
		verdict(
			`${contender.label}: n8n's readiness answered 200 throughout`,
			`${count(figures.readinessNotOk)} probes not 200`,
			figures.readinessNotOk === 0,
		),
	);
	if (job.caseName === 'nightly' && node && build)
		verdicts.push(
			verdict(
				`(a)'s time at most ${NIGHTLY_TO_HTTP_BUILD.toFixed(2)} x (b)'s`,
				`${ratio(node.duration, build.duration)} x`,
				node.duration <= NIGHTLY_TO_HTTP_BUILD * build.duration,
			),
		);
	if (node && compare)
		verdicts.push(
			verdict(
				"(a)'s time at most (d)'s",
				`${ratio(node.duration, compare.duration)} x${routingFloor ? ` (beside it, (f) the routing floor: ${seconds(routingFloor.duration)}; (a)/(f) ${ratio(node.duration, routingFloor.duration)} x, (f)/(d) ${ratio(routingFloor.duration, compare.duration)} x)` : ''}`,
				node.duration <= compare.duration,
			),
		);
	if (job.caseName === 'first-load' && node && build)
		verdicts.push(
			verdict(
				"(a)'s time at most (b)'s",
				`${ratio(node.duration, build.duration)} x`,
				node.duration <= build.duration,
			),
		);
	const loops = results.filter(({ contender }) => contender.key === "a'");
	// Against a single run that failed, a loop's requests say nothing.
	for (const { contender, figures } of node?.status === 'success' ? loops : [])
		verdicts.push(
			verdict(
				`${contender.label}: requests at most ${LOOP_REQUESTS_TO_SINGLE_RUN} x (a)'s`,
				`${ratio(figures.requests, node.requests)} x`,
				figures.requests <= LOOP_REQUESTS_TO_SINGLE_RUN * node.requests,
			),
		);
	const mustAnswer = [
		...loops,
		...results.filter(
			({ contender }) => contender.key === 'a' && (QUEUE || RECORDS <= ONE_RUN_RESPONSIVE_UP_TO),
		),
	];
	for (const { contender, figures } of mustAnswer)
		verdicts.push(
			verdict(
				`${contender.label}: no /healthz${QUEUE ? ' of the main' : ''} (either) over ${seconds(SLOW_PROBE_MS)}`,
				`longest ${milliseconds(figures.longestProbeMs)} (${besideFloor(figures, idle, hold)})`,
				figures.longestProbeMs < SLOW_PROBE_MS,
			),
		);
	return verdicts;
}

/** The table of `results` (one case's, or the floor's), and the probes not answered well. */
function resultLines(results, idle) {
	const baseline = (key) =>
		results.find(({ contender }) => contender.key === key)?.figures.duration;
	const baselines = { b: baseline('b'), d: baseline('d'), idleMedianProbeMs: idle.medianProbeMs };
	const notOkProbes = results.flatMap(({ contender, figures }) =>
		figures.notOkOrSlow.map((line) => `  ${contender.label}: ${line}`),
	);
	return [
		...table(
			columns(baselines),
			results.map(({ contender, figures }) => [contender.label, figures]),
		),
		...(QUEUE
			? results.map(
					({ contender, figures: { peakRss } }) =>
						`  ${contender.label}: peak RSS ${Object.entries(peakRss)
							.filter(([name]) => name !== 'total')
							.map(([name, bytes]) => `${name} ${megabytes(bytes)}`)
							.join(', ')}`,
				)
			: []),
		...(notOkProbes.length > 0
			? [`Probes not answered 200 or slower than ${seconds(SLOW_PROBE_MS)}:`, ...notOkProbes]
			: []),
		...results
			.filter(({ figures }) => figures.dataUnreadable)
			.map(
				({ contender }) =>
					`${contender.label}: n8n reset the connection when asked for the ended run's data (GET /rest/executions/:id), as the editor asks for it: its output items are not counted, the sandbox's records are checked.`,
			),
		...results
			.filter(({ figures }) => figures.notSaved)
			.map(
				({ contender }) =>
					`${contender.label}: n8n saved no execution (Save successful production executions: none): its output items are not counted, the sandbox's records are checked.`,
			),
		...results
			.filter(({ figures }) => figures.pollFailures > 0)
			.map(
				({ contender, figures }) =>
					`${contender.label}: ${figures.pollFailures} polls of the execution refused (503) or not answered.`,
			),
	];
}

/** The report of one case: what it is, its table, its goals. */
function caseReport(job, results, idle, hold) {
	const changed = job.writes - job.newRecords.length;
	const goals = goalVerdicts(job, results, idle, hold);
	return {
		goals,
		lines: [
			'',
			`${job.title.toUpperCase()}: ${count(job.existingBefore.length - changed)} rows held as they are, ${count(changed)} held with other values, ${count(job.newRecords.length)} new (${count(job.writes)} rows to write).`,
			...resultLines(results, idle),
			...(SMOKE
				? [`Goals, ${job.title}: not judged (--smoke)`]
				: [`Goals, ${job.title}:`, ...goals.map(({ line }) => line)]),
		],
	};
}

/** The floor's report: its table, and what n8n's engine alone holds per item. */
function floorReport(results, idle, hold) {
	if (results.length === 0) return [];
	return [
		'',
		`DECLARATIVE FLOOR: n8n's engine alone, the smallest declarative node creating ${count(results[0].figures.rows)} new clients (a POST of each).`,
		...resultLines(results, idle),
		`  n8n's engine alone holds the event loop about ${hold.perItemMs.toFixed(3)} ms per item (the longest /healthz beyond idle's median, over the rows): a single run passes ${seconds(SLOW_PROBE_MS)} from about ${count(hold.passesAt)} rows.`,
	];
}

async function main() {
	const loadBefore = loadAverage();
	const sandbox = await startSandboxProcess({ token: TOKEN, latencyMs: LATENCY_MS });
	const floorPackage = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-floor-'));
	writeSmallestDeclarativePackage(floorPackage);
	const jobs = CASES.map((caseName) => syncJob(caseName, RECORDS, PREFIX));
	const floor = ONLY.includes('e')
		? [floorContender(syncJob('first-load', FLOOR_ROWS, PREFIX))]
		: [];
	const all = [
		...jobs.flatMap((job) =>
			caseContenders(sandbox.url, job, syncJob(job.caseName, HTTP_ROWS, PREFIX)),
		),
		...floor,
	];
	let n8n;
	const results = [];
	const failures = [];
	let idle;
	let stopped;
	try {
		n8n = await startN8n({
			sandboxUrl: sandbox.url,
			token: TOKEN,
			workflows: all.flatMap(({ workflow, warmUp }) =>
				WARMS_UP ? [warmUp, workflow] : [workflow],
			),
			credentials: [HEADER_AUTH_CREDENTIAL],
			packageDirs: [floorPackage],
			queue: QUEUE,
		});
		if (BY_WEBHOOK)
			for (const { workflow, warmUp } of all)
				for (const { id } of WARMS_UP ? [warmUp, workflow] : [workflow])
					await activate(n8n.rest, id);
		for (const { label, warmUp } of WARMS_UP ? all : []) {
			const { execution } = await startRun(n8n, warmUp);
			if (execution?.status !== 'success')
				throw new Error(`${label}: the warm-up run ended ${execution?.status ?? 'not at all'}`);
		}
		const idleWatching = startWatching(n8n.url);
		const idleSince = performance.now();
		await sleep(IDLE_PROBING_MS);
		idle = probeSummary((await idleWatching.stop()).probes, idleSince);
		for (const contender of all) {
			process.stderr.write(`${contender.caseJob.title}, ${contender.label}... `);
			try {
				const result = await measure({ ...n8n, sandbox }, contender);
				results.push({ contender, ...result });
				process.stderr.write(`${result.figures.status}\n`);
			} catch (error) {
				process.stderr.write('failed\n');
				failures.push(failureLine(contender, error, n8n.logFile));
				// Its execution may go on in n8n: the next run starts when it has ended.
				await untilQuiet(sandbox, quietAfterFailureMs(contender.job.records.length));
				// Once n8n is gone, the other contenders cannot run: they are reported not measured.
				if (!isRunning(n8n.pid, { group: true }) || !(await isAnswering(n8n.url))) break;
			}
		}
	} finally {
		await n8n?.stop();
		await sandbox.stop();
		fs.rmSync(floorPackage, { recursive: true, force: true });
		stopped = await stoppedProcesses([
			{ name: 'sandbox', pid: sandbox.pid },
			...(n8n?.processes ?? []),
		]);
		console.log(stopped.line);
	}
	const floorResults = results.filter(({ contender }) => contender.key === 'e');
	const hold = floorHold(floorResults[0]?.figures, idle);
	const reports = jobs.map((job) =>
		caseReport(
			job,
			results.filter(({ contender }) => contender.caseJob === job),
			idle,
			hold,
		),
	);
	const wrong = [
		...failures,
		...results.flatMap(({ contender, wrong: what }) =>
			what.map((line) => `  ${contender.caseJob.title}, ${contender.label}: ${line}`),
		),
	];
	for (const contender of all)
		if (!results.some((result) => result.contender === contender))
			wrong.push(`  ${contender.caseJob.title}, ${contender.label}: not measured`);
	console.log(
		[
			...settingsLines(loadBefore),
			`n8n idle (${IDLE_PROBING_MS / 1000} s before the runs): ${idle.probeRounds} probe rounds, median ${milliseconds(idle.medianProbeMs)}, longest ${milliseconds(idle.longestProbeMs)}, ${idle.notOkOrSlow.length} not answered 200 or slower than ${seconds(SLOW_PROBE_MS)}.`,
			...reports.flatMap((report) => report.lines),
			...floorReport(floorResults, idle, hold),
			'',
			...(wrong.length > 0 ? ['WRONG RESULTS:', ...wrong] : []),
			`Load average at the end: ${loadAverage()}.`,
		].join('\n'),
	);
	// 1 when a result is wrong (or the run failed, below); 3 when the results are right and a goal is
	// missed.
	if (wrong.length > 0 || !stopped.allStopped) process.exitCode = 1;
	else if (!SMOKE && reports.some(({ goals }) => goals.some(({ met }) => !met)))
		process.exitCode = 3;
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
