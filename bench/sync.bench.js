'use strict';

/**
 * Create or Update of 5,000 clients by external ID against the sandbox (20 ms per request), in two
 * cases (bench/upsert-job.js, SYNC_CASES): the first load (every row new) and the nightly run
 * (issue 36: the sandbox holds every row but 1%, and 1% of those it holds differ, so 1% of the rows
 * differ, half of them changed and half new). Contenders, in the same process and the same n8n
 * engine (n8n-core's WorkflowExecute, as test/harness/engine.ts runs it), writing nodes set to On
 * Error: Continue so that failed items are counted rather than stopping the run:
 *   (a) the node with defaults: Input > Equipment Rental, Client > Create or Update, no Request
 *       Options set (at most Parallel Requests' default in flight; a 429 pauses the run). It reads
 *       the clients whole where their pages are fewer than the rows, and writes only what differs;
 *   (b) the same job from n8n's own nodes as n8n's docs build it: Input > HTTP Request (GET by
 *       external ID, full response, never error) > IF (status 200) > HTTP Request PATCH / HTTP
 *       Request POST, with defaults: a look-up per row, and a write of every row (upsert-job.js);
 *   (b') the build of (b) with n8n's advice for rate limits: Batching on its three HTTP Request nodes
 *       (the values n8n fills in when it is added) and Retry On Fail on them (n8n's defaults). Its
 *       batches make it slow (5,000 rows: minutes), so it runs only when --only names it;
 *   (c) a plain fetch loop sending (a)'s requests, as many at a time as (a) has requests in flight:
 *       the clients read whole where their pages are fewer than the rows, else a look-up per row;
 *       then a write of each row that differs. It waits a 429's Retry-After and sends again;
 *   (d) in the cases where the sandbox holds rows (the nightly one), n8n's Compare Datasets fed by
 *       the HTTP Request node's pagination: the clients read whole, compared with the rows, the new
 *       ones POSTed and the differing ones PATCHed (upsert-job.js, compareDatasetsBuild);
 *   (e) the smallest declarative node doing one request per row: a POST of each row (those the
 *       sandbox holds under an external ID of their own), four fields from the item. The baseline
 *       of what n8n's own engine costs per item (CPU, the event loop's longest stall) and, in the
 *       nightly case, of its time;
 *   (f) in the nightly case, the routing floor: the smallest declarative node that routes each row
 *       and sends nothing (its pagination function answers the item), the three fields (a) maps
 *       from the item without routing of their own, as (a)'s have none. What n8n's engine alone
 *       costs per row of a run in which 99% of the rows send nothing: printed beside the goal of
 *       (a)'s time at or under (d)'s, with (a)'s distance from it and its own from (d). It must
 *       send no request and leave the sandbox's records as they were.
 * n8n-nodes-base is the one of the n8n install (scripts/n8n-runtime.js), loaded into this engine.
 * Each contender runs against the sandbox without limits and against it with a rate limit of 100
 * requests per second and 8 in flight (Retry-After 1 s, a bucket of one second's worth), which the
 * node's default pace (about 170 per second) reaches, so that its handling of 429s is what is
 * measured there; --sandboxes adds 200 per second, which the pace does not reach. (e) and (f) run
 * without limits only, which is all they need. The columns per contender and sandbox, medians over
 * the rounds: failed items (output items carrying an error), records the sandbox does not hold
 * right, the 429s the sandbox sent, requests and requests per row, the most requests in flight at
 * the sandbox, the event loop's longest stall, the time and the time against the floor (without
 * limits: requests x latency / that contender's most requests in flight; with limits: accepted
 * requests / the rate; none for (f)), CPU time and expressions evaluated per row, and the peak heap
 * growth. Under each table: (a)'s requests by kind (pages of the list, look-ups, writes), and
 * against a rate-limited sandbox how many times its run paused, counted in the sandbox's log (the
 * refusals arriving within one Retry-After of a pause's first are that pause's).
 *
 * Checks, which make the run exit with 1: (a) holds every record right (one client per external ID,
 * with the name and city sent, the existing ones under the IDs they had), says of each row what it
 * did (created, updated, unchanged), the sandbox accepted exactly one write per row to write and
 * none for the others, and none of its items failed, against every sandbox. For the others failures
 * and records not right are counted, and no external ID may be held by two clients. Goals (exit code
 * 3 when the results are right but one is missed): GOALS below, with each verdict printed. The
 * sandbox's clients are reset before every run, and its rate limit set anew (a full token bucket).
 *
 * Run with `npm run bench:sync` (node --expose-gc bench/sync.bench.js [--case first-load,nightly]
 * [--sandboxes unlimited,100/s,200/s] [--records N] [--rounds N] [--only a,b,b',c,d,e,f]
 * [--cpu-prof-dir DIR]; defaults: both cases, without limits and at 100/s, 5,000 rows, 1 round
 * after a warm-up round of WARM_UP_ROWS rows, every contender but (b')). It needs n8n 2.8.4
 * installed (`npm run n8n:install`) for n8n-nodes-base. A default run takes about 7 minutes on 2
 * cores, most of it the first load's floors (5,000 writes at 5 in flight, and at 100 per second);
 * `--case nightly` under 2. --only runs some of the contenders (quote b' in a shell), and the goals
 * of those that ran are judged. --rounds 3 for medians that one slow round cannot move.
 * --cpu-prof-dir DIR profiles each measured run by itself (PROFILE_DIR below), e.g. `node
 * --expose-gc bench/sync.bench.js --case nightly --sandboxes unlimited --only a,e --rounds 3
 * --cpu-prof-dir /tmp/profiles`, then `node bench/cpu-profile.js /tmp/profiles/nightly-*-a-*`.
 * --smoke runs both cases with SMOKE_RECORDS rows, one round, every check but no goal judged.
 * Without a rate limit each contender's requests are checked besides (expectedRequests).
 */

const { commandLine, commonUsage, stoppedProcesses } = require('./command-line');

const USAGE = [
	'Usage: npm run bench:sync -- [options]   (node --expose-gc bench/sync.bench.js [options])',
	"Create or Update of clients by external ID in n8n's engine against the sandbox (20 ms per request):",
	"the node, HTTP Request + IF, with n8n's advice (b'), a fetch loop, Compare Datasets, the smallest",
	'declarative node, the routing floor (nightly). Needs n8n 2.8.4 installed (npm run n8n:install).',
	'Exits with 1 when a result is wrong, with 3 when the results are right and a goal is missed',
	'(not with --smoke).',
	'  --case C,C         first-load, nightly, half (default first-load,nightly)',
	'  --sandboxes S,S    unlimited, 100/s, 200/s (default unlimited,100/s)',
	'  --records N        rows of each case (default 5000)',
	'  --rounds N         measured rounds after a warm-up round; medians reported (default 1)',
	"  --only K,K         contenders a, b, b', c, d, e, f (default all but b'; quote b' in a shell)",
	'  --cpu-prof-dir DIR a V8 CPU profile of each measured run into DIR (for bench/cpu-profile.js)',
	...commonUsage(
		'a small run (120 rows of each case, a warm-up of 10, 1 round; seconds): every result and request count checked, no goal judged',
		21,
	),
].join('\n');
const { values: flags } = commandLine(USAGE, {
	case: { type: 'string' },
	sandboxes: { type: 'string' },
	rounds: { type: 'string' },
	records: { type: 'string' },
	only: { type: 'string' },
	'cpu-prof-dir': { type: 'string' },
});
const SMOKE = flags.smoke === true;
/** The rows of each case with --smoke: enough for the nightly case to hold a changed and a new row. */
const SMOKE_RECORDS = 120;
const SMOKE_WARM_UP_ROWS = 10;

require('../test/harness/environment');
require('./register-typescript');

const assert = require('node:assert/strict');
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { Session } = require('node:inspector/promises');
const Module = require('node:module');
const os = require('node:os');
const path = require('node:path');
const { monitorEventLoopDelay, performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');

const { cacheDir, isInstalled } = require('../scripts/runtime/install');
const { DEFAULT_VERSION } = require('../scripts/runtime/versions');
const {
	collectGarbage,
	heapUsed,
	listOption,
	loadAverage,
	median,
	seconds,
	table,
	verdict,
} = require('./measuring');
const { startSandboxProcess } = require('./sync-sandbox');
const { ROUTING_FLOOR, SMALLEST_CREATE } = require('./smallest-declarative');
const {
	CLIENTS_PATH,
	COMPARE_DATASETS_VERSION,
	HTTP_REQUEST_VERSION,
	IF_VERSION,
	LIST_PAGE_SIZE,
	NODE_UPSERT_PARAMETERS,
	ON_ERROR_CONTINUE,
	SYNC_CASES,
	UPSERTED_BY_STATE,
	compareDatasetsBuild,
	connectTo,
	errorItemCount,
	heldBefore,
	httpRequestBuild,
	recordsNotRight,
	syncJob,
} = require('./upsert-job');

const PROJECT_ROOT = path.join(__dirname, '..');
const N8N_VERSION = DEFAULT_VERSION;
const N8N_MODULES = path.join(cacheDir(N8N_VERSION), 'node_modules');

/**
 * n8n-nodes-base from the n8n install runs on this process's n8n-core and n8n-workflow, as in n8n
 * every node shares one engine: its requires of them resolve to the package's own copies (the same
 * versions; checked below).
 */
function shareEngineWithInstall() {
	const shared = new Set(['n8n-core', 'n8n-workflow']);
	const resolve = Module._resolveFilename;
	Module._resolveFilename = function (request, parent, ...rest) {
		if (shared.has(request.split('/')[0]) && parent?.filename?.startsWith(N8N_MODULES))
			return require.resolve(request, { paths: [PROJECT_ROOT] });
		return resolve.call(this, request, parent, ...rest);
	};
	for (const name of shared) {
		const own = require(`${name}/package.json`).version;
		const installs = require(path.join(N8N_MODULES, name, 'package.json')).version;
		if (own !== installs)
			throw new Error(`n8n ${N8N_VERSION} has ${name} ${installs}, this package ${own}`);
	}
}

if (!isInstalled(N8N_VERSION)) {
	console.error(`n8n ${N8N_VERSION} is not installed: run npm run n8n:install first.`);
	process.exit(2);
}
shareEngineWithInstall();

const { DirectoryLoader, WorkflowExecute } = require('n8n-core');
const { Expression, ICredentialsHelper, Workflow, NodeHelpers } = require('n8n-workflow');

/**
 * How many expressions (parameter values starting with '=') n8n has evaluated in this process: the
 * engine evaluates each item's expressions once per property of the node's description that has
 * the parameter's name, shown or not (see docs/performance.md). Counting costs an increment
 * per evaluation.
 */
let expressionsEvaluated = 0;
const resolveSimpleParameterValue = Expression.prototype.resolveSimpleParameterValue;
Expression.prototype.resolveSimpleParameterValue = function (value, ...rest) {
	if (typeof value === 'string' && value.startsWith('=')) expressionsEvaluated++;
	return resolveSimpleParameterValue.call(this, value, ...rest);
};

const { EquipmentRentalApi } = require('../credentials/EquipmentRentalApi.credentials');
const { CURRENT_VERSION } = require('../nodes/EquipmentRental/engine/nodeVersions');
const { parallelRequestsField } = require('../nodes/shared/requestOptionFields');
const {
	CREDENTIAL_REFERENCE,
	NODE_TYPE,
	executionAdditionalData,
	loadNodeTypes,
} = require('../test/harness/engine');

const nodesBase = (file) => require(path.join(N8N_MODULES, 'n8n-nodes-base', 'dist', file));
const { HttpRequest } = nodesBase('nodes/HttpRequest/HttpRequest.node.js');
const { If } = nodesBase('nodes/If/If.node.js');
const { SplitOut } = nodesBase('nodes/Transform/SplitOut/SplitOut.node.js');
const { CompareDatasets } = nodesBase('nodes/CompareDatasets/CompareDatasets.node.js');
const { HttpHeaderAuth } = nodesBase('credentials/HttpHeaderAuth.credentials.js');

const CONTENDER_KEYS = ['a', 'b', "b'", 'c', 'd', 'e', 'f'];
/** The contenders that run unless --only names others: (b') takes minutes at 5,000 rows. */
const DEFAULT_CONTENDERS = CONTENDER_KEYS.filter((key) => key !== "b'");
const LATENCY_MS = 20;
const TOKEN = 'bench-token';
const PREFIX = 'sync-bench-';

/**
 * The sandboxes the contenders can run against, by the name --sandboxes takes: the same sandbox,
 * its rate limit set per run. At 200 per second the node's default 5 requests in flight (about 170
 * per second at 20 ms) never reach the limit; at 100 per second they do, and the node's handling of
 * 429s (a pause of the run for the Retry-After, the refused write sent again, a slower pace) decides
 * its figures. The token bucket holds one second's worth (the sandbox's default burst).
 */
const SANDBOXES = {
	unlimited: { name: 'no limits', rateLimit: null },
	'200/s': {
		name: 'limited to 200/s',
		rateLimit: { requestsPerSecond: 200, maxInFlight: 8, retryAfterSeconds: 1 },
	},
	'100/s': {
		name: 'limited to 100/s',
		rateLimit: { requestsPerSecond: 100, maxInFlight: 8, retryAfterSeconds: 1 },
	},
};
const UNLIMITED = SANDBOXES.unlimited;

const CASES = listOption(flags, 'case', Object.keys(SYNC_CASES), ['first-load', 'nightly']);
const TARGETS = listOption(flags, 'sandboxes', Object.keys(SANDBOXES), ['unlimited', '100/s']).map(
	(key) => SANDBOXES[key],
);
const ONLY = listOption(flags, 'only', CONTENDER_KEYS, DEFAULT_CONTENDERS);
const RECORDS = Number(flags.records ?? (SMOKE ? SMOKE_RECORDS : 5_000));
const ROUNDS = Number(flags.rounds ?? 1);
if (!(Number.isInteger(RECORDS) && RECORDS > 0 && Number.isInteger(ROUNDS) && ROUNDS > 0)) {
	console.error('--records and --rounds take whole numbers above 0');
	process.exit(2);
}
// The warm-up round runs each case with this many rows, enough for V8 to compile what the runs use.
const WARM_UP_ROWS = Math.min(RECORDS, SMOKE ? SMOKE_WARM_UP_ROWS : 500);

/** The node's budget of requests in flight when Request Options are left unset. */
const PARALLEL_REQUESTS = parallelRequestsField.default;
/**
 * n8n's advice for rate limits (the HTTP Request node's 429 message, its docs): Batching, with the
 * values n8n fills in when the option is added, and the node setting Retry On Fail, with n8n's
 * defaults (WorkflowExecute applies them when a node leaves them out).
 */
const N8N_RATE_LIMIT_ADVICE = {
	batching: { batch: { batchSize: 50, batchInterval: 1000 } },
	settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 },
};
/** How often (c) sends a request the API refuses before the row counts as failed. */
const FETCH_LOOP_MAX_ATTEMPTS = 10;

/**
 * The goals of issues 30, 36 and 43 (a sandbox's goals hold against each sandbox of its kind). The
 * nightly case's requests: at most the list's pages, the writes, and 1% of the rows more; its time
 * within 1.0 x (e)'s and (issue 43) at or under (d)'s in the same round, and without limits or at
 * 100/s "done in seconds": under nightlyLimitedSeconds. A case that writes most rows (the first
 * load): within 1.3 x the latency floor at Parallel Requests' default, and against a limit 1.3 x
 * the rate floor with under 5% of its requests refused.
 */
const GOALS = {
	limitedRefusalShare: 0.05,
	limitedToRateFloor: 1.3,
	unlimitedToLatencyFloor: 1.3,
	stallToDeclarative: 1.5,
	nightlyExtraRequestsPerRow: 0.01,
	nightlyToDeclarativeTime: 1.0,
	nightlyLimitedSeconds: 10,
};

/**
 * With --cpu-prof-dir, each measured run (not the warm-up) is profiled into a file of its own there:
 * V8's sampling profiler, which `node --cpu-prof` uses, started and stopped around the run alone,
 * so that the process's start (the TypeScript sources transpiled on load), the warm-up and the
 * sandbox's resets are not in it. bench/cpu-profile.js sums the files up. Profiling slows a run:
 * its figures are not for comparison with an unprofiled run's.
 */
const PROFILE_DIR = flags['cpu-prof-dir'] && path.resolve(flags['cpu-prof-dir']);
// Finer than the profiler's default (1 ms), so that a run of a few seconds gives enough samples.
const PROFILE_SAMPLING_MICROSECONDS = 250;

// How often the heap is sampled during a run, and the resolution of the event loop's delay.
const HEAP_SAMPLE_EVERY_MS = 5;
const STALL_RESOLUTION_MS = 5;

/** The external ID under which (e) creates a row the sandbox holds: one of its own. */
const FRESH_SUFFIX = '-fresh';

/**
 * What a contender runs for a job (upsert-job.js, syncJob): the job's rows, and (e)'s rows, which
 * the sandbox does not hold, each a create.
 */
const freshRows = (job) =>
	job.records.map((record) =>
		record.exists
			? { ...record, externalId: `${record.externalId}${FRESH_SUFFIX}`, exists: false }
			: record,
	);

const credentialData = (baseUrl) => ({
	equipmentRentalApi: { baseUrl, accessToken: TOKEN },
	httpHeaderAuth: { name: 'Authorization', value: `Bearer ${TOKEN}` },
});
const credentialTypes = {
	equipmentRentalApi: new EquipmentRentalApi(),
	httpHeaderAuth: new HttpHeaderAuth(),
};

/**
 * n8n's credential store for every workflow, applying each credential type's generic
 * `authenticate` as n8n's CredentialsHelper does: every key and value that is an expression is
 * evaluated for every request. Unlike n8n's, it does not read the credential from the database and
 * decrypt it on each getDecrypted.
 */
class BenchCredentialsHelper extends ICredentialsHelper {
	constructor(data) {
		super();
		this.data = data;
	}

	getParentTypes() {
		return [];
	}

	async authenticate(credentials, typeName, requestOptions, workflow, node) {
		const { authenticate } = credentialTypes[typeName];
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		const resolve = (value) =>
			typeof value === 'string' && value.startsWith('=')
				? String(
						workflow.expression.getSimpleParameterValue(
							node,
							value,
							'internal',
							{ $credentials: credentials },
							undefined,
							'',
						),
					)
				: value;
		for (const [part, entries] of Object.entries(authenticate.properties)) {
			requestOptions[part] ??= {};
			for (const [key, value] of Object.entries(entries))
				requestOptions[part][resolve(key)] = resolve(value);
		}
		return requestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async getCredentials() {
		throw new Error('not used');
	}

	async getDecrypted(_additionalData, _nodeCredentials, type) {
		return { ...this.data[type] };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type) {
		return credentialTypes[type].properties;
	}
}

/**
 * A node type that outputs `items`: records as a workflow's input, as a trigger or an earlier node
 * would hand them over (not read from a parameter, which n8n would check value by value first).
 * n8n calls execute with its context as `this`, not the node type: the items are the closure's.
 */
function recordsNodeType(items) {
	return {
		description: {
			displayName: 'Records',
			name: 'benchRecords',
			group: ['input'],
			version: 1,
			description: 'The records to sync',
			defaults: { name: 'Records' },
			inputs: [],
			outputs: ['main'],
			properties: [],
		},
		async execute() {
			return [items.map((json) => ({ json: { ...json } }))];
		},
	};
}

/** A smallest declarative node (smallest-declarative.js) as n8n's loader loads it. */
function loadedDeclarative(node) {
	const loaded = node.create();
	// n8n's loader adds the "Request Options" (batching, proxy, timeout) to every declarative node.
	DirectoryLoader.applyDeclarativeNodeOptionParameters(loaded);
	return loaded;
}

/**
 * The node types of the workflows of `job`: the Equipment Rental node, n8n-nodes-base's, the
 * smallest declarative nodes, and the inputs: the job's rows (`bench.records`) and (e)'s
 * (`bench.freshRecords`, with the client's number besides (a)'s three fields).
 */
function benchNodeTypes(job) {
	const freshItems = freshRows(job).map(({ externalId, name, city, number }) => ({
		externalId,
		name,
		city,
		number,
	}));
	const types = {
		[NODE_TYPE]: loadNodeTypes().getByName(NODE_TYPE),
		'bench.records': recordsNodeType(job.inputItems),
		'bench.freshRecords': recordsNodeType(freshItems),
		'bench.smallestDeclarative': loadedDeclarative(SMALLEST_CREATE),
		'bench.routingFloor': loadedDeclarative(ROUTING_FLOOR),
		'n8n-nodes-base.httpRequest': new HttpRequest(),
		'n8n-nodes-base.if': new If(),
		'n8n-nodes-base.splitOut': new SplitOut(),
		'n8n-nodes-base.compareDatasets': new CompareDatasets(),
	};
	return {
		getByName: (name) => types[name],
		getByNameAndVersion: (name, version) => NodeHelpers.getVersionedNodeType(types[name], version),
		getKnownTypes: () => ({}),
	};
}

/** Each job's node types, made once. */
const nodeTypesByJob = new WeakMap();
function nodeTypesOf(job) {
	if (!nodeTypesByJob.has(job)) nodeTypesByJob.set(job, benchNodeTypes(job));
	return nodeTypesByJob.get(job);
}

const INPUT = 'Input';
const inputNode = (type) => ({
	id: 'input',
	name: INPUT,
	type,
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
});

/** (a) Input > Equipment Rental, Client > Create or Update, of the version a node added now has. */
function nodeWorkflow() {
	return {
		nodes: [
			inputNode('bench.records'),
			{
				id: 'upsert',
				name: 'Create or Update',
				type: NODE_TYPE,
				typeVersion: CURRENT_VERSION,
				position: [200, 0],
				credentials: CREDENTIAL_REFERENCE,
				...ON_ERROR_CONTINUE,
				parameters: NODE_UPSERT_PARAMETERS,
			},
		],
		connections: { [INPUT]: { main: [[connectTo('Create or Update')]] } },
		outputs: ['Create or Update'],
	};
}

const HEADER_AUTH = { id: 'credential-2', name: 'Header Auth account' };

/**
 * Input > a build of n8n's own nodes (upsert-job.js): (b) HTTP Request + IF, with `advice` (b'),
 * or (d) Compare Datasets.
 */
function buildWorkflow(build) {
	return {
		nodes: [inputNode('bench.records'), ...build.nodes],
		connections: { [INPUT]: { main: [build.inputTo] }, ...build.connections },
		outputs: build.outputs,
	};
}

/**
 * Input of the rows of `input` > a smallest declarative node (`node`, loaded as `type`), its fields
 * from the item: (e) Input of (e)'s rows > a POST of each; (f) Input > the routing floor.
 */
function declarativeWorkflow(input, node, type) {
	const { name } = node.description.defaults;
	return {
		nodes: [
			inputNode(input),
			{
				id: 'declarative',
				name,
				type,
				typeVersion: 1,
				position: [200, 0],
				...(node.description.credentials ? { credentials: CREDENTIAL_REFERENCE } : {}),
				...ON_ERROR_CONTINUE,
				parameters: node.parameters,
			},
		],
		connections: { [INPUT]: { main: [[connectTo(name)]] } },
		outputs: [name],
	};
}

/**
 * Runs a workflow of `job` from its Input node in n8n-core's WorkflowExecute: the items of its
 * output nodes, and the error that stopped it, if one did.
 */
async function runWorkflow({ nodes, connections, outputs }, baseUrl, job) {
	const workflow = new Workflow({
		id: 'bench-workflow',
		name: 'sync',
		nodes,
		connections,
		active: false,
		nodeTypes: nodeTypesOf(job),
		settings: { timezone: 'UTC', executionOrder: 'v1' },
	});
	const additionalData = executionAdditionalData(
		credentialData(baseUrl).equipmentRentalApi,
		'manual',
		nodes,
	);
	additionalData.credentialsHelper = new BenchCredentialsHelper(credentialData(baseUrl));
	const run = await new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: workflow.getNode(INPUT),
	});
	const { error, runData } = run.data.resultData;
	return {
		items: outputs.flatMap((name) => runData[name]?.[0]?.data?.main?.[0] ?? []),
		stoppedBy: error,
	};
}

// --- the loop of (c) ----------------------------------------------------------------------------

/**
 * A request of (c) by fetch (undici, keep-alive), sent again after the Retry-After of each 429 (1 s
 * when it has none in seconds), up to FETCH_LOOP_MAX_ATTEMPTS times. Answers { status, body }.
 */
const fetchSend = (baseUrl) => async (method, url, body) => {
	for (let attempt = 1; ; attempt++) {
		const response = await fetch(`${baseUrl}${url}`, {
			method,
			headers: {
				Authorization: `Bearer ${TOKEN}`,
				Accept: 'application/json',
				...(body ? { 'Content-Type': 'application/json' } : {}),
			},
			body: body ? JSON.stringify(body) : undefined,
		});
		const answer = { status: response.status, body: await response.json() };
		if (answer.status !== 429 || attempt === FETCH_LOOP_MAX_ATTEMPTS) return answer;
		await sleep(Number(response.headers.get('retry-after')) * 1000 || 1000);
	}
};

/** Runs `task` for 0 .. count - 1, `parallel` at a time, each taking the next index when free. */
async function forEachInParallel(count, parallel, task) {
	let next = 0;
	const worker = async () => {
		while (next < count) await task(next++);
	};
	await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
}

/**
 * The clients of the sandbox by external ID ({ id, name, city }), read whole as the node does when
 * its pages are fewer than the `rows`: the first page of LIST_PAGE_SIZE tells how many there are,
 * the rest are read PARALLEL_REQUESTS at a time. Undefined when looking each row up is cheaper; an
 * Error when a page fails.
 */
async function clientsReadWhole(send, rows) {
	const page = async (number) => {
		const answer = await send('GET', `${CLIENTS_PATH}?page=${number}&limit=${LIST_PAGE_SIZE}`);
		if (answer.status !== 200) throw new Error(`GET page ${number}: ${answer.status}`);
		return answer.body;
	};
	const first = await page(1);
	const pages = Math.max(1, Math.ceil(first.total / LIST_PAGE_SIZE));
	if (pages >= rows) return undefined;
	const contents = [first.content];
	await forEachInParallel(pages - 1, PARALLEL_REQUESTS, async (index) => {
		contents[index + 1] = (await page(index + 2)).content;
	});
	return new Map(
		contents.flat().map(({ id, externalId, name, city }) => [externalId, { id, name, city }]),
	);
}

/**
 * (c) The node's requests, sent by plain code PARALLEL_REQUESTS at a time: the clients read whole
 * where that is cheaper (clientsReadWhole), else each row looked up by external ID; then a PATCH of
 * what differs of a row found, nothing for a row unchanged, a POST of a row not found. An item per
 * row, as a node's output: { externalId, upserted }, or { error } when an answer was not the
 * expected one.
 */
async function fetchLoop(baseUrl, job) {
	const send = fetchSend(baseUrl);
	const rows = job.records;
	const items = new Array(rows.length);
	let held;
	try {
		held = await clientsReadWhole(send, rows.length);
	} catch (error) {
		return { items: rows.map(() => ({ json: { error: error.message } })) };
	}
	const find = async (externalId) => {
		if (held) return { status: held.has(externalId) ? 200 : 404, body: held.get(externalId) };
		return await send('GET', `${CLIENTS_PATH}/external-id/${encodeURIComponent(externalId)}`);
	};
	const syncRow = async ({ externalId, name, city }) => {
		const found = await find(externalId);
		if (found.status === 200) {
			const changed = Object.fromEntries(
				Object.entries({ name, city }).filter(([field, value]) => found.body[field] !== value),
			);
			if (Object.keys(changed).length === 0) return 'unchanged';
			const updated = await send('PATCH', `${CLIENTS_PATH}/${found.body.id}`, changed);
			return updated.status === 200 ? 'updated' : `PATCH ${updated.status}`;
		}
		if (found.status !== 404) return `GET ${found.status}`;
		const created = await send('POST', CLIENTS_PATH, { externalId, name, city });
		return created.status === 201 ? 'created' : `POST ${created.status}`;
	};
	await forEachInParallel(rows.length, PARALLEL_REQUESTS, async (index) => {
		const outcome = await syncRow(rows[index]);
		items[index] = {
			json: ['updated', 'created', 'unchanged'].includes(outcome)
				? { externalId: rows[index].externalId, upserted: outcome }
				: { error: outcome },
		};
	});
	return { items };
}

// --- the contenders -----------------------------------------------------------------------------

const LABELS = {
	a: '(a) the node, defaults',
	b: '(b) HTTP Request + IF',
	"b'": "(b') (b) with n8n's advice",
	c: `(c) fetch loop, ${PARALLEL_REQUESTS} at a time`,
	d: '(d) Compare Datasets',
	e: '(e) smallest declarative',
	f: '(f) routing floor',
};

/**
 * The requests a contender must send for `job` against the sandbox without limits, when none of
 * its items failed, by how many clients the sandbox holds at the start (`held`); undefined where it
 * is not told. A list read whole by the node's rule (its pages of LIST_PAGE_SIZE fewer than the
 * rows) takes its pages; the HTTP Request node's pagination (d) reads until a page holds fewer
 * than LIST_PAGE_SIZE, so one empty page more when the clients fill their last page.
 */
function expectedRequests(key, job, held) {
	const rows = job.records.length;
	const pages = Math.max(1, Math.ceil(held / LIST_PAGE_SIZE));
	const readWhole = pages < rows;
	switch (key) {
		case 'a':
			return readWhole ? pages + job.writes : undefined;
		case 'b':
		case "b'":
			return 2 * rows;
		case 'c':
			return readWhole ? pages + job.writes : 1 + rows + job.writes;
		case 'd':
			return Math.floor(held / LIST_PAGE_SIZE) + 1 + job.writes;
		case 'e':
			return rows;
		case 'f':
			return 0;
		default:
			return undefined;
	}
}

/**
 * The contenders of `job`: the rows each syncs (`records`, checked at the sandbox unless
 * `mustHold` says what the sandbox must hold after the run), the sandboxes it runs against,
 * whether it runs in this job, how it runs ({ items, stoppedBy? }: its output items, and the error
 * that stopped the workflow) and, for (a), what its output must be.
 */
function contenders(baseUrl, job) {
	const everywhere = Object.values(SANDBOXES);
	const builds = {
		b: () => httpRequestBuild({ baseUrl, inputNode: INPUT, credential: HEADER_AUTH }),
		"b'": () =>
			httpRequestBuild({
				baseUrl,
				inputNode: INPUT,
				credential: HEADER_AUTH,
				...N8N_RATE_LIMIT_ADVICE,
			}),
		d: () => compareDatasetsBuild({ baseUrl, credential: HEADER_AUTH }),
	};
	const build = (key) => ({
		records: job.records,
		sandboxes: everywhere,
		runsIn: true,
		run: async () => await runWorkflow(buildWorkflow(builds[key]()), baseUrl, job),
	});
	return {
		a: {
			records: job.records,
			sandboxes: everywhere,
			runsIn: true,
			run: async () => await runWorkflow(nodeWorkflow(), baseUrl, job),
			mustBeRight: (items) => checkNodeOutput(items, job),
		},
		b: build('b'),
		"b'": build("b'"),
		c: {
			records: job.records,
			sandboxes: everywhere,
			runsIn: true,
			run: async () => await fetchLoop(baseUrl, job),
		},
		// Compare Datasets is for a sync that finds rows held: a first load has nothing to compare.
		d: { ...build('d'), runsIn: job.existingBefore.length > 0 },
		e: {
			records: freshRows(job),
			sandboxes: [UNLIMITED],
			runsIn: true,
			run: async () =>
				await runWorkflow(
					declarativeWorkflow('bench.freshRecords', SMALLEST_CREATE, 'bench.smallestDeclarative'),
					baseUrl,
					job,
				),
		},
		// The floor of a run in which most rows send nothing: it writes nothing.
		f: {
			records: job.records,
			mustHold: heldBefore(job),
			sandboxes: [UNLIMITED],
			runsIn: job.caseName === 'nightly',
			run: async () =>
				await runWorkflow(
					declarativeWorkflow('bench.records', ROUTING_FLOOR, 'bench.routingFloor'),
					baseUrl,
					job,
				),
		},
	};
}

function settingsLines() {
	const { batchSize, batchInterval } = N8N_RATE_LIMIT_ADVICE.batching.batch;
	const { maxTries, waitBetweenTries } = N8N_RATE_LIMIT_ADVICE.settings;
	const limits = TARGETS.filter(({ rateLimit }) => rateLimit).map(
		({ name, rateLimit: { requestsPerSecond, maxInFlight, retryAfterSeconds } }) =>
			`${name}: ${requestsPerSecond} requests per second (burst: one second's worth), ${maxInFlight} in flight, Retry-After ${retryAfterSeconds} s`,
	);
	const described = {
		a: `  (a) Equipment Rental ${CURRENT_VERSION}, Client > Create or Update, Request Options unset (Parallel Requests ${PARALLEL_REQUESTS})`,
		b: `  (b) HTTP Request ${HTTP_REQUEST_VERSION} GET by external ID (full response, never error) > IF ${IF_VERSION} (status 200) > HTTP Request PATCH / POST, options unset: a look-up and a write per row`,
		"b'": `  (b') (b) with Batching (${batchSize} items per ${batchInterval} ms) and Retry On Fail (${maxTries} tries, ${waitBetweenTries} ms apart) on its three HTTP Request nodes`,
		c: `  (c) fetch loop sending (a)'s requests, ${PARALLEL_REQUESTS} at a time (the list read whole where its pages are fewer than the rows, then the writes of what differs), each 429 sent again after its Retry-After (${FETCH_LOOP_MAX_ATTEMPTS} attempts at most)`,
		d: `  (d) where the sandbox holds rows: HTTP Request ${HTTP_REQUEST_VERSION} GET of the list (Execute Once; pagination: page = $pageCount + 1, limit ${LIST_PAGE_SIZE}) > Split Out > Compare Datasets ${COMPARE_DATASETS_VERSION} (by external ID, Fuzzy Compare, A's values and B's id) > HTTP Request POST (In A only) / PATCH (Different)`,
		e: `  (e) the smallest declarative node, a POST of each row (those the sandbox holds under an external ID of their own; 4 fields from the item): the baseline of n8n's cost per item`,
		f: `  (f) in the nightly case, the routing floor: the smallest declarative node routing each row and sending nothing (3 fields from the item, not routed; its pagination function answers the item): n8n's cost per item where a row sends nothing`,
	};
	return [
		`Contenders, in one process and n8n-core's WorkflowExecute (n8n-nodes-base of n8n ${N8N_VERSION}); every writing node On Error: Continue (regular output):`,
		...ONLY.map((key) => described[key]),
		`Sandboxes: ${TARGETS.map(({ name }) => name).join('; ')}${limits.length > 0 ? ` (${limits.join('; ')})` : ''}`,
	];
}

// --- checks -------------------------------------------------------------------------------------

/** The node's output: one item per row, paired with it, saying what it did to the row's record. */
function checkNodeOutput(items, job) {
	assert.equal(items.length, job.records.length, 'one output item per row');
	items.forEach((item, index) => {
		const record = job.records[index];
		assert.equal(item.pairedItem?.item, index, `item ${index} paired with its input`);
		assert.equal(item.json.externalId, record.externalId, `item ${index}`);
		assert.equal(item.json.upserted, UPSERTED_BY_STATE[record.state], `item ${index}`);
	});
}

/**
 * A run's failures: its output items carrying an error, and the records (of those it syncs, or
 * those it must leave held) the sandbox does not hold right (one client with the external ID,
 * with the name and city sent, an existing one under the ID it had). Throws when an external ID is
 * held by two clients.
 */
function failuresOf(contender, items, report, idsBefore) {
	return {
		errorItems: errorItemCount(items),
		wrongRecords: recordsNotRight(
			contender.mustHold ?? contender.records,
			report.clients,
			idsBefore,
		),
	};
}

/** The writes a sync of `job` must send, by method and status as the sandbox counts them. */
function expectedWrites(job) {
	const created = job.newRecords.length;
	const updated = job.writes - created;
	return {
		...(updated > 0 ? { 'PATCH 200': updated } : {}),
		...(created > 0 ? { 'POST 201': created } : {}),
	};
}

/** What (a) must have done: no failure, its output as checkNodeOutput says, the writes it must. */
function checkMustBeRight(contender, items, failures, report, job) {
	assert.deepEqual(failures, { errorItems: 0, wrongRecords: 0 }, 'failed items');
	contender.mustBeRight(items);
	const acceptedWrites = Object.fromEntries(
		Object.entries(report.accepted).filter(([key]) => !key.startsWith('GET ')),
	);
	assert.deepEqual(
		acceptedWrites,
		expectedWrites(job),
		`one accepted write per row to write, not ${JSON.stringify(acceptedWrites)}`,
	);
}

// --- measuring ----------------------------------------------------------------------------------

const cpuMs = (usage) => (usage.user + usage.system) / 1000;

/**
 * How often the machine's listen queues have overflowed since it started (Linux's TcpExt
 * ListenOverflows; undefined elsewhere). The count is the machine's, but on this loopback benchmark
 * the sandbox's queue is the one that overflows.
 */
function listenOverflows() {
	try {
		const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
		const [names, values] = lines.filter((line) => line.startsWith('TcpExt:'));
		const index = names.split(/\s+/).indexOf('ListenOverflows');
		return index > 0 ? Number(values.split(/\s+/)[index]) : undefined;
	} catch {
		return undefined;
	}
}

const eventLoopDelay = monitorEventLoopDelay({ resolution: STALL_RESOLUTION_MS });
eventLoopDelay.enable();

/**
 * Runs `run` while sampling the heap every few ms and once more at the end, when its result is
 * still held: the peak heap growth over the heap after a forced garbage collection. A timer cannot
 * fire while the event loop is stalled, so a peak reached and freed within one stall goes unseen.
 */
async function withPeakHeapGrowth(run) {
	await collectGarbage();
	const before = heapUsed();
	let peak = before;
	const sample = () => {
		peak = Math.max(peak, heapUsed());
	};
	const sampler = setInterval(sample, HEAP_SAMPLE_EVERY_MS);
	try {
		const result = await run();
		sample();
		return { result, heapGrowth: peak - before };
	} finally {
		clearInterval(sampler);
	}
}

/**
 * How many times a run paused for the API's refusals, as the sandbox saw them arrive (`refusedAt`,
 * in order): at a refusal the node pauses every request of the run for the Retry-After, so the
 * requests refused with the first one (those already out) arrive within one Retry-After of it, and
 * the next refusal after it belongs to a pause of its own. Meaningful for (a) only: the others do
 * not pause as a whole.
 */
function pausesOf(refusedAt, retryAfterMs) {
	let pauses = 0;
	let pausedAt = -Infinity;
	for (const at of refusedAt) {
		if (at - pausedAt <= retryAfterMs) continue;
		pauses++;
		pausedAt = at;
	}
	return pauses;
}

let profilerSession;

/** Runs `run`, profiled into PROFILE_DIR/`name`.cpuprofile when --cpu-prof-dir is given. */
async function profiled(name, run) {
	if (!PROFILE_DIR) return await run();
	if (!profilerSession) {
		mkdirSync(PROFILE_DIR, { recursive: true });
		profilerSession = new Session();
		profilerSession.connect();
		await profilerSession.post('Profiler.enable');
		await profilerSession.post('Profiler.setSamplingInterval', {
			interval: PROFILE_SAMPLING_MICROSECONDS,
		});
	}
	await profilerSession.post('Profiler.start');
	try {
		return await run();
	} finally {
		const { profile } = await profilerSession.post('Profiler.stop');
		writeFileSync(path.join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
	}
}

/**
 * One run of a contender on `job` against the sandbox, its rate limit set anew and its clients
 * reset: the figures of the table, the run's failures, and the error that stopped it, if one did.
 * Checks what must hold (an AssertionError says what does not).
 */
async function measure(sandbox, key, contender, { rateLimit }, job, profileName) {
	await sandbox.ask({ type: 'options', rateLimit });
	const { ids, held } = await sandbox.ask({ type: 'reset', existing: job.existingBefore });
	const overflowsBefore = listenOverflows();
	const expressionsBefore = expressionsEvaluated;
	const { result: timed, heapGrowth } = await withPeakHeapGrowth(async () => {
		eventLoopDelay.reset();
		// After a reset the monitor records nothing until its timer has fired once: a stall from the
		// run's start (RoutingNode's loop over the items) would go unseen.
		await sleep(2 * STALL_RESOLUTION_MS);
		const cpuBefore = process.cpuUsage();
		const start = performance.now();
		const output = profileName ? await profiled(profileName, contender.run) : await contender.run();
		const [duration, cpu] = [performance.now() - start, cpuMs(process.cpuUsage(cpuBefore))];
		// The monitor's timer records a stall when it next fires: one lasting to the run's end (a run
		// that never yields to it, as (f)'s) only after the run.
		await sleep(2 * STALL_RESOLUTION_MS);
		return { output, duration, cpu, stallMs: eventLoopDelay.max / 1e6 };
	});
	const { output, duration, cpu, stallMs } = timed;
	const rows = contender.records.length;
	const overflows = listenOverflows() - overflowsBefore;
	const expressions = expressionsEvaluated - expressionsBefore;
	const report = await sandbox.ask({ type: 'report', prefix: PREFIX });
	const failures = failuresOf(contender, output.items, report, ids);
	if (contender.mustBeRight) {
		if (output.stoppedBy) assert.fail(`the workflow stopped: ${output.stoppedBy.message}`);
		checkMustBeRight(contender, output.items, failures, report, job);
	}
	const acceptedOf = (reads) =>
		Object.entries(report.accepted)
			.filter(([key]) => key.startsWith('GET ') === reads)
			.reduce((sum, [, count]) => sum + count, 0);
	const [reads, writes] = [acceptedOf(true), acceptedOf(false)];
	const requests = reads + writes + report.refused;
	const expected = rateLimit ? undefined : expectedRequests(key, job, held);
	if (expected !== undefined && failures.errorItems === 0)
		assert.equal(requests, expected, `${requests} requests, not the ${expected} it must send`);
	const floor = rateLimit
		? ((reads + writes) / rateLimit.requestsPerSecond) * 1000
		: (requests * LATENCY_MS) / report.maxInFlight;
	return {
		figures: {
			...failures,
			refused: report.refused,
			requests,
			requestsPerRow: requests / rows,
			listReads: report.listReads,
			listPages: Math.max(1, Math.ceil(held / LIST_PAGE_SIZE)),
			lookUps: reads - report.listReads,
			writes,
			maxInFlight: report.maxInFlight,
			stallMs,
			duration,
			toFloor: duration / floor,
			cpuPerRow: cpu / rows,
			expressionsPerRow: expressions / rows,
			heapGrowth,
			overflows,
			pauses: rateLimit ? pausesOf(report.refusedAt, rateLimit.retryAfterSeconds * 1000) : 0,
		},
		stoppedBy: output.stoppedBy,
	};
}

/**
 * A warm-up round, then ROUNDS rounds. The warm-up runs each contender once on each case with
 * WARM_UP_ROWS rows against the sandbox without limits, but (b'): it is (b)'s code with waits (most
 * of its time), which the warm-up of (b) compiles. In a round, each case and in it each sandbox in
 * turn: the contenders that run against it take turns, so that a load change on the machine weighs
 * on all of them, and who goes first rotates from round to round. Answers the figures by case,
 * sandbox and contender, one per round.
 */
async function measureRounds(sandbox) {
	const runs = {};
	const wrongResults = [];
	const stops = [];
	const runAll = async (job, target, round) => {
		const warmUp = round === 0;
		const entries = Object.entries(contenders(sandbox.url, job)).filter(
			([key, contender]) =>
				ONLY.includes(key) &&
				contender.runsIn &&
				contender.sandboxes.includes(target) &&
				!(warmUp && key === "b'"),
		);
		const first = round % Math.max(1, entries.length);
		for (const [key, contender] of [...entries.slice(first), ...entries.slice(0, first)]) {
			const where = `${job.title}, ${LABELS[key]}, ${target.name}, ${warmUp ? 'warm-up' : `round ${round}`}`;
			try {
				const profileName = warmUp
					? undefined
					: `${job.caseName}-${target.name.replace(/\W+/g, '-')}-${key.replace("'", 'prime')}-round${round}`;
				const { figures, stoppedBy } = await measure(
					sandbox,
					key,
					contender,
					target,
					job,
					profileName,
				);
				if (stoppedBy) stops.push(`${where}: the workflow stopped: ${stoppedBy.message}`);
				if (!warmUp) {
					const byContender = ((runs[job.caseName] ??= {})[target.name] ??= {});
					(byContender[key] ??= [])[round - 1] = figures;
				}
			} catch (error) {
				if (!(error instanceof assert.AssertionError)) throw error;
				wrongResults.push(`${where}: ${error.message}`);
			}
		}
	};
	for (const caseName of CASES) await runAll(syncJob(caseName, WARM_UP_ROWS, PREFIX), UNLIMITED, 0);
	process.stderr.write('warm-up done; rounds: ');
	const jobs = CASES.map((caseName) => syncJob(caseName, RECORDS, PREFIX));
	for (let round = 1; round <= ROUNDS; round++) {
		for (const job of jobs) for (const target of TARGETS) await runAll(job, target, round);
		process.stderr.write(`${round} `);
	}
	process.stderr.write('\n');
	return { jobs, runs, wrongResults, stops };
}

/**
 * The runs that should have given figures and did not (a contender that runs in a case against a
 * sandbox, in a round): each says which. A run whose result was wrong is one of them.
 */
function unmeasuredRuns(url, jobs, runs) {
	return jobs.flatMap((job) =>
		TARGETS.flatMap((target) =>
			Object.entries(contenders(url, job))
				.filter(
					([key, contender]) =>
						ONLY.includes(key) && contender.runsIn && contender.sandboxes.includes(target),
				)
				.flatMap(([key]) =>
					Array.from({ length: ROUNDS }, (_, index) => index)
						.filter((index) => !runs[job.caseName]?.[target.name]?.[key]?.[index])
						.map((index) => `${job.title}, ${LABELS[key]}, ${target.name}, round ${index + 1}`),
				),
		),
	);
}

/** The median of each figure over a contender's runs (those whose results were not wrong). */
function medians(runs) {
	const done = runs.filter(Boolean);
	return Object.fromEntries(
		Object.keys(done[0]).map((key) => [key, median(done.map((run) => run[key]))]),
	);
}

// --- the report ---------------------------------------------------------------------------------

const count = (value) => (Number.isInteger(value) ? value.toLocaleString('en') : value.toFixed(1));
const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const percent = (share) => `${(share * 100).toFixed(1)}%`;

const COLUMNS = [
	['failed items', (s) => count(s.errorItems)],
	['records not right', (s) => count(s.wrongRecords)],
	['429s', (s) => count(s.refused)],
	['requests', (s) => count(s.requests)],
	['requests/row', (s) => s.requestsPerRow.toFixed(3)],
	['most in flight', (s) => count(s.maxInFlight)],
	['longest stall', (s) => `${s.stallMs.toFixed(0)} ms`],
	['time', (s) => seconds(s.duration)],
	// None for a contender that sends nothing (f).
	['x floor', (s) => (Number.isFinite(s.toFloor) ? s.toFloor.toFixed(2) : '-')],
	['CPU/row', (s) => `${s.cpuPerRow.toFixed(2)} ms`],
	['expressions/row', (s) => s.expressionsPerRow.toFixed(1)],
	['peak heap', (s) => megabytes(s.heapGrowth)],
];

const floorOf = ({ rateLimit }) =>
	rateLimit
		? `floor: requests the limit let in / ${rateLimit.requestsPerSecond} per second`
		: `floor: requests x ${LATENCY_MS} ms / that contender's most requests in flight`;

/** What (a)'s requests were, by kind (medians), under a sandbox's table. */
function requestLines(nodeSummary) {
	if (!nodeSummary) return [];
	const { requests, listReads, listPages, lookUps, writes, refused } = nodeSummary;
	return [
		`  (a)'s ${count(requests)} requests: pages of the list ${count(listReads)} (it has ${count(listPages)} of ${count(LIST_PAGE_SIZE)}), look-ups by external ID ${count(lookUps)}, writes ${count(writes)}, refused ${count(refused)}`,
	];
}

/** How often (a)'s run paused against a rate-limited sandbox: the median, and each round's count. */
function pauseLines({ rateLimit }, nodeRuns) {
	if (!rateLimit || !nodeRuns) return [];
	const pauses = nodeRuns.filter(Boolean).map((run) => run.pauses);
	return [
		`  (a) paused its run ${count(median(pauses))} times (rounds: ${pauses.join(', ')}; from the sandbox's log: the refusals arriving within ${rateLimit.retryAfterSeconds} s of a pause's first are that pause's)`,
	];
}

/**
 * The median over the rounds of contender `key`'s `figure` against `other`'s in the same round
 * (the machine is shared: a round's load weighs on both); undefined when either did not run.
 */
function roundRatio(byContender, key, other, figure) {
	const [keyRuns, otherRuns] = [byContender?.[key], byContender?.[other]];
	if (!keyRuns || !otherRuns) return undefined;
	const ratios = keyRuns
		.map((run, round) => run && otherRuns[round] && run[figure] / otherRuns[round][figure])
		.filter((ratio) => ratio !== undefined && Number.isFinite(ratio));
	return ratios.length > 0 ? median(ratios) : undefined;
}

/** The goals against a rate-limited sandbox of (a)'s figures there (`summary`). */
function limitedVerdicts(job, { name, rateLimit }, summary) {
	const { errorItems, wrongRecords, refused, requests, duration, toFloor } = summary;
	const failed = errorItems + wrongRecords;
	const verdicts = [verdict(`${name}, (a): 0 failed rows`, count(failed), failed === 0)];
	if (job.caseName === 'nightly')
		return [
			...verdicts,
			verdict(
				`${name}, (a): done in seconds (under ${GOALS.nightlyLimitedSeconds} s)`,
				seconds(duration),
				duration < GOALS.nightlyLimitedSeconds * 1000,
			),
		];
	return [
		...verdicts,
		verdict(
			`${name}, (a): 429s under ${percent(GOALS.limitedRefusalShare)} of its requests`,
			percent(refused / requests),
			refused / requests < GOALS.limitedRefusalShare,
		),
		verdict(
			`${name}, (a): time within ${GOALS.limitedToRateFloor} x the rate floor of ${rateLimit.requestsPerSecond}/s`,
			`${toFloor.toFixed(2)} x`,
			toFloor <= GOALS.limitedToRateFloor,
		),
	];
}

/**
 * What the routing floor (f) says of the goal of (a)'s time at or under (d)'s: its figures, (a)'s
 * distance from it, and its own from (d), each the median of the rounds' ratios; whether any
 * declarative node that routes each row can reach (d)'s time. None when (f) did not run.
 */
function routingFloorLines(floor, runs) {
	if (!floor) return [];
	const times = (value) => (value === undefined ? '-' : `${value.toFixed(2)} x`);
	const floorToCompare = roundRatio(runs, 'f', 'd', 'duration');
	return [
		`beside it, ${LABELS.f}: ${seconds(floor.duration)}, ${floor.cpuPerRow.toFixed(2)} ms CPU per row, ${floor.expressionsPerRow.toFixed(1)} expressions per row`,
		`(a)/(f): ${times(roundRatio(runs, 'a', 'f', 'duration'))} the floor's time, ${times(roundRatio(runs, 'a', 'f', 'cpuPerRow'))} its CPU per row; (f)/(d): ${times(floorToCompare)} (d)'s time, ${times(roundRatio(runs, 'f', 'd', 'cpuPerRow'))} its CPU per row`,
		...(floorToCompare === undefined
			? []
			: [
					floorToCompare > 1
						? "out of reach of any declarative node that routes each row: n8n's routing alone takes longer than (d)"
						: "within reach of a declarative node: n8n's routing alone takes no longer than (d)",
				]),
	];
}

/** The goals without limits of (a)'s figures (`a`) and the others' (`summaries`, `runs`). */
function unlimitedVerdicts(job, summaries, runs) {
	const name = UNLIMITED.name;
	const { a, b } = summaries;
	const verdicts = [];
	const byRatio = (other, figure, goal, description, besides = []) => {
		const ratio = roundRatio(runs, 'a', other, figure);
		if (ratio !== undefined)
			verdicts.push({
				...verdict(`${name}: ${description}`, `${ratio.toFixed(2)} x`, ratio <= goal),
				besides,
			});
	};
	if (a) {
		verdicts.push(
			verdict(
				`${name}, (a): most in flight <= ${PARALLEL_REQUESTS} (the budget)`,
				count(a.maxInFlight),
				a.maxInFlight <= PARALLEL_REQUESTS,
			),
		);
		if (job.caseName === 'nightly') {
			const allowed = a.listPages + job.writes + GOALS.nightlyExtraRequestsPerRow * RECORDS;
			verdicts.push(
				verdict(
					`${name}, (a): requests at most the list's ${count(a.listPages)} pages + ${count(job.writes)} writes + ${percent(GOALS.nightlyExtraRequestsPerRow)} of the rows (${count(allowed)})`,
					count(a.requests),
					a.requests <= allowed,
				),
			);
		} else {
			const budgetFloor = (a.requests * LATENCY_MS) / PARALLEL_REQUESTS;
			verdicts.push(
				verdict(
					`${name}, (a): time within ${GOALS.unlimitedToLatencyFloor} x requests x ${LATENCY_MS} ms / ${PARALLEL_REQUESTS} (${seconds(budgetFloor)})`,
					`${(a.duration / budgetFloor).toFixed(2)} x`,
					a.duration / budgetFloor <= GOALS.unlimitedToLatencyFloor,
				),
			);
		}
	}
	byRatio(
		'e',
		'stallMs',
		GOALS.stallToDeclarative,
		`(a)'s longest stall within ${GOALS.stallToDeclarative} x (e)'s (median of the rounds' ratios)`,
	);
	if (job.caseName === 'nightly') {
		byRatio(
			'e',
			'duration',
			GOALS.nightlyToDeclarativeTime,
			`(a)'s time within ${GOALS.nightlyToDeclarativeTime.toFixed(1)} x (e)'s, one request per row (median of the rounds' ratios)`,
		);
		byRatio(
			'e',
			'cpuPerRow',
			1,
			`(a)'s CPU per row at or under (e)'s (median of the rounds' ratios)`,
		);
		byRatio(
			'd',
			'duration',
			1,
			"(a)'s time at or under (d)'s, the Compare Datasets build's (median of the rounds' ratios)",
			routingFloorLines(summaries.f, runs),
		);
	} else if (a && b) {
		verdicts.push(
			verdict(
				`${name}: (a)'s CPU per row at or under (b)'s`,
				`${a.cpuPerRow.toFixed(2)} ms against ${b.cpuPerRow.toFixed(2)} ms`,
				a.cpuPerRow <= b.cpuPerRow,
			),
		);
	}
	if (a && b)
		verdicts.push(
			verdict(
				`${name}: (a)'s peak heap at or under (b)'s`,
				`${megabytes(a.heapGrowth)} against ${megabytes(b.heapGrowth)}`,
				a.heapGrowth <= b.heapGrowth,
			),
		);
	return verdicts;
}

/**
 * The goals of issues 30, 36 and 43 for `job` whose contenders ran, with their verdicts. CPU and
 * memory are compared without limits, where (b) does the whole job: against the limit it fails
 * most items at once, which costs little.
 */
function goalVerdicts(job, runs, summaries) {
	return [
		...TARGETS.filter(({ rateLimit, name }) => rateLimit && summaries[name]?.a).flatMap((target) =>
			limitedVerdicts(job, target, summaries[target.name].a),
		),
		...(summaries[UNLIMITED.name]
			? unlimitedVerdicts(job, summaries[UNLIMITED.name], runs[UNLIMITED.name])
			: []),
	];
}

/** The report of one case: what it is, a table per sandbox, and its goals' verdicts. */
function caseReport(job, runs = {}) {
	const summaries = Object.fromEntries(
		Object.entries(runs).map(([name, byContender]) => [
			name,
			// In the order of CONTENDER_KEYS, whichever went first in a round.
			Object.fromEntries(
				CONTENDER_KEYS.filter((key) => byContender[key]?.some(Boolean)).map((key) => [
					key,
					medians(byContender[key]),
				]),
			),
		]),
	);
	const changed = job.writes - job.newRecords.length;
	const goals = goalVerdicts(job, runs, summaries);
	return {
		goals,
		lines: [
			'',
			`${job.title.toUpperCase()}: Create or Update of ${count(RECORDS)} clients by external ID: ${count(job.existingBefore.length - changed)} held as the rows are, ${count(changed)} held with other values, ${count(job.newRecords.length)} new (${count(job.writes)} rows to write), ${LATENCY_MS} ms per request, ${ROUNDS === 1 ? 'one round' : `medians of ${ROUNDS} rounds`} after a warm-up of ${count(WARM_UP_ROWS)} rows.`,
			...TARGETS.filter(({ name }) => summaries[name]).flatMap((target) => [
				`${target.name} (${floorOf(target)}):`,
				...table(
					COLUMNS,
					Object.entries(summaries[target.name]).map(([key, summary]) => [LABELS[key], summary]),
				),
				...requestLines(summaries[target.name].a),
				...pauseLines(target, runs[target.name].a),
			]),
			...(SMOKE
				? [`Goals, ${job.title}: not judged (--smoke)`]
				: goals.length > 0
					? [
							`Goals, ${job.title}:`,
							...goals.flatMap(({ line, besides = [] }) => [
								line,
								...besides.map((beside) => `    ${beside}`),
							]),
						]
					: []),
		],
	};
}

async function main() {
	const loadBefore = loadAverage();
	const sandbox = await startSandboxProcess({ token: TOKEN, latencyMs: LATENCY_MS });
	let outcome;
	try {
		outcome = await measureRounds(sandbox);
	} finally {
		await sandbox.stop();
	}
	const stopped = await stoppedProcesses([{ name: 'sandbox', pid: sandbox.pid }]);
	const { jobs, runs, wrongResults, stops } = outcome;
	const unmeasured = unmeasuredRuns(sandbox.url, jobs, runs);
	const reports = jobs.map((job) => caseReport(job, runs[job.caseName]));
	const goals = reports.flatMap((report) => report.goals);
	const overflows = Object.values(runs)
		.flatMap((bySandbox) => Object.values(bySandbox))
		.flatMap((byContender) => Object.values(byContender).flat())
		.reduce((sum, run) => sum + (run?.overflows || 0), 0);
	console.log(
		[
			`Create or Update of clients by external ID: ${CASES.map((name) => SYNC_CASES[name].title).join(', ')}; ${count(RECORDS)} rows; ${LATENCY_MS} ms per request.`,
			`Machine: ${os.availableParallelism()} cores, load average (1, 5, 15 min) ${loadBefore} at the start.`,
			...settingsLines(),
			...reports.flatMap((report) => report.lines),
			'',
			...(overflows > 0 ? [`The sandbox's listen queue overflowed ${overflows} times.`] : []),
			...(stops.length > 0 ? ['Workflows that stopped:', ...stops.map((stop) => `  ${stop}`)] : []),
			...(wrongResults.length > 0
				? ['WRONG RESULTS:', ...wrongResults.map((wrong) => `  ${wrong}`)]
				: []),
			...(unmeasured.length > 0
				? ['NOT MEASURED:', ...unmeasured.map((missing) => `  ${missing}`)]
				: []),
			`Load average at the end: ${loadAverage()}; peak memory (RSS) of this process ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
			stopped.line,
		].join('\n'),
	);
	// 1 when a result is wrong (or the run failed, below); 3 when the results are right and a goal is
	// missed.
	if (wrongResults.length > 0 || unmeasured.length > 0 || !stopped.allStopped) process.exitCode = 1;
	else if (!SMOKE && goals.some(({ met }) => !met)) process.exitCode = 3;
}

main()
	.catch((error) => {
		console.error(error);
		process.exitCode = 1;
	})
	// n8n-core's SSH client manager keeps a one-minute interval timer: the process would not end by
	// itself.
	.finally(() => process.exit());
