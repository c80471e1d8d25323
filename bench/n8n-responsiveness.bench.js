'use strict';

/**
 * Is n8n still answering while it syncs 5,000 rows, and how long does the sync take? A real n8n
 * (`n8n start` of the pinned version, headless, SQLite, this package installed in its user folder as
 * n8n installs a community package, as the e2e suite does) runs Create or Update of 5,000 clients by
 * external ID against the sandbox (in a process of its own, 20 ms per request, no rate limit), in
 * the cases of bench/upsert-job.js: the first load (every row new) and the nightly run (1% of the
 * rows differ, half changed and half new). Each workflow is started through n8n's REST API as the
 * editor's "Execute workflow" button does (POST /rest/workflows/:id/run from its Manual Trigger),
 * one after the other:
 *   (a) Manual Trigger > Code (the 5,000 rows as items: externalId, name, city) > Equipment Rental,
 *       Client > Create or Update, Request Options unset, the fields from $json;
 *   (b) the same rows through n8n's own nodes as n8n's docs build it: HTTP Request GET by external
 *       ID (full response, never error) > IF (status 200) > HTTP Request PATCH / POST, Header Auth
 *       credential, as bench/sync.bench.js's (b) builds it (upsert-job.js): a look-up and a write
 *       per row;
 *   (a') the node in "the large-sync recipe": Loop Over Items (Split in Batches 3) in batches of
 *       500 around the Equipment Rental node of (a); the loop's "done" output ends the run.
 * Writing nodes are set to On Error: Continue, so that a failure is counted as an item rather than
 * ending the run. Each workflow runs once with 10 rows first (a warm-up, not measured), so that the
 * first run does not carry n8n's first-use costs. While each runs, this process probes n8n every
 * 100 ms: GET /healthz/readiness (200 while n8n's database answers its ping, 503 otherwise), then
 * GET /healthz, each waiting for its answer (5 s at most) before the next. Per case and contender:
 * the execution's status, its time (from the REST call to the execution's stoppedAt), that time
 * against (b)'s, failed items (output items carrying an error), records the sandbox does not hold
 * right, the requests the sandbox received and per row, the probes (readiness answered other than
 * 200, /healthz other than 200, the longest latency of all of them and when it was sent, the median
 * latency and the median against that of n8n idle, probed for 5 s before the first run; each probe
 * not answered 200 or slower than 1 s is listed below the table), and the "Database connection
 * timed out" warnings in n8n's log. A run's probes are those started from its REST call until the
 * poll (GET /rest/executions/:id, every 250 ms) that finds it ended: the poll that answers with the
 * run's data is not part of the run.
 *
 * Checks, which make the run exit with 1: every contender's execution ended with success, with one
 * output item per record and no failed item, and the sandbox holds every record once with the
 * values sent (the existing ones under the IDs they had). The sandbox's clients are reset before
 * each run. Goals of issue 36 (exit code 3 when the results are right but one is missed; each
 * verdict is printed): n8n's readiness answered 200 throughout every run, and in the nightly case
 * (a) took at most a third of (b)'s time.
 *
 * Run with `npm run bench:n8n` (node bench/n8n-responsiveness.bench.js [--case first-load,nightly]
 * [--records N] [--only a,b,a']); it needs n8n 2.8.4 installed (`npm run n8n:install`) and the
 * package built (`npm run build`). It takes about 4 to 5 minutes on 2 cores, a minute of it n8n's
 * start and imports; `--case nightly` about 3. --smoke: SMOKE_RECORDS rows in both cases, Loop Over
 * Items of SMOKE_LOOP_BATCH_SIZE, no warm-up, 1 s of idle probes, every check but no goal judged
 * (USAGE below).
 */

const { commandLine, commonUsage, stoppedProcesses, usageError } = require('./command-line');

const USAGE = [
	'Usage: npm run bench:n8n -- [options]   (node bench/n8n-responsiveness.bench.js [options])',
	'Create or Update of clients in a real n8n 2.8.4 (n8n start, SQLite), probing whether n8n keeps',
	'answering: the node, HTTP Request + IF, the node in Loop Over Items. Needs n8n 2.8.4 installed',
	'(npm run n8n:install) and the package built (npm run build). Exits with 1 when a result is wrong,',
	'with 3 when the results are right and a goal is missed (not with --smoke).',
	'  --case C,C    first-load, nightly, half (default first-load,nightly)',
	'  --records N   rows of each case (default 5000)',
	"  --only K,K    contenders a, b, a' (default all; quote a' in a shell)",
	...commonUsage(
		"a small run (20 rows of each case, Loop Over Items of 10, no warm-up; n8n's start and seconds): every result checked, no goal judged",
		16,
	),
].join('\n');
const { values: flags } = commandLine(USAGE, {
	case: { type: 'string' },
	records: { type: 'string' },
	only: { type: 'string' },
});
const SMOKE = flags.smoke === true;
const SMOKE_RECORDS = 20;
const SMOKE_LOOP_BATCH_SIZE = 10;

require('./register-typescript');

const fs = require('node:fs');
const os = require('node:os');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');

const rt = require('../scripts/n8n-runtime');
const { CURRENT_VERSION } = require('../nodes/EquipmentRental/engine/nodeVersions');
const { listOption, loadAverage, median, seconds, table, verdict } = require('./measuring');
const {
	SANDBOX_CREDENTIAL,
	TRIGGER,
	headerAuthCredential,
	POLL_EVERY_MS,
	manualTrigger,
	outputItems,
	runDuration,
	runFromEditor,
	startN8n,
} = require('./real-n8n');
const { startSandboxProcess } = require('./sync-sandbox');
const {
	NODE_UPSERT_PARAMETERS,
	ON_ERROR_CONTINUE,
	connectTo,
	errorItemCount,
	httpRequestBuild,
	SYNC_CASES,
	recordsNotRight,
	syncJob,
} = require('./upsert-job');

const CONTENDER_KEYS = ['a', 'b', "a'"];
const CASES = listOption(flags, 'case', Object.keys(SYNC_CASES), ['first-load', 'nightly']);
const RECORDS = Number(flags.records ?? (SMOKE ? SMOKE_RECORDS : 5_000));
const ONLY = listOption(flags, 'only', CONTENDER_KEYS, CONTENDER_KEYS);
if (!(Number.isInteger(RECORDS) && RECORDS > 0))
	usageError(USAGE, '--records takes a whole number above 0');

const LATENCY_MS = 20;
const TOKEN = 'n8n-bench-token';
const PREFIX = 'n8n-bench-';
const LOOP_BATCH_SIZE = SMOKE ? SMOKE_LOOP_BATCH_SIZE : 500;
// Each workflow runs once with this many rows before the measured runs, so that none of them pays
// for what n8n does on a first use (loading a node's code, starting the task runner); not with
// --smoke, whose figures do not count.
const WARM_UP_ROWS = 10;
const WARMS_UP = !SMOKE;

const PROBE_EVERY_MS = 100;
const PROBE_TIMEOUT_MS = 5_000;
const PROBE_PATHS = ['/healthz/readiness', '/healthz'];
// A probe this slow is listed with its moment: a user of the editor notices a wait this long.
const SLOW_PROBE_MS = 1_000;
const [READINESS, LIVENESS] = PROBE_PATHS;
// n8n idle, probed as during a run: the probes' latency when n8n has nothing else to do.
const IDLE_PROBING_MS = SMOKE ? 1_000 : 5_000;
/** What n8n logs when its database does not answer its ping in time: readiness then answers 503. */
const DB_PING_TIMEOUT = 'Database connection timed out';
/** Issue 36: in the nightly case the node takes at most this share of (b)'s time. */
const NIGHTLY_TO_HTTP_BUILD = 1 / 3;

const HEADER_AUTH_CREDENTIAL = headerAuthCredential(TOKEN);

// --- the workflows ------------------------------------------------------------------------------

const ROWS = 'Rows';
const UPSERT = 'Create or Update client';
const LOOP = 'Loop Over Items';

/** Manual Trigger > Code putting out `rows`, as the start of every contender's workflow. */
function rowsStart(rows) {
	return {
		nodes: [
			manualTrigger(),
			{
				id: 'rows',
				name: ROWS,
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [-200, 0],
				parameters: { jsCode: `return ${JSON.stringify(rows)}.map((json) => ({ json }));` },
			},
		],
		connections: { [TRIGGER]: { main: [[connectTo(ROWS)]] } },
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
	parameters: NODE_UPSERT_PARAMETERS,
};

/**
 * A workflow as `n8n import:workflow` takes it: the start with `rows`, then `nodes` after the Code
 * node.
 */
function workflow(id, name, rows, { nodes, connections }) {
	const start = rowsStart(rows);
	return {
		id,
		name,
		active: false,
		nodes: [...start.nodes, ...nodes],
		connections: { ...start.connections, ...connections },
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/** A workflow ID's ending for a case: `first-load` becomes `FirstLoad`. */
const idEnding = (caseName) =>
	caseName.replace(/(^|-)(\w)/g, (_match, _dash, letter) => letter.toUpperCase());

/**
 * The contenders of `job` (upsert-job.js, syncJob): the workflow each runs, the same with
 * WARM_UP_ROWS rows, and the nodes whose output items are its results (every run of them: (a')
 * runs the node once per batch).
 */
function contenders(sandboxUrl, job) {
	const build = httpRequestBuild({
		baseUrl: sandboxUrl,
		inputNode: ROWS,
		credential: { id: HEADER_AUTH_CREDENTIAL.id, name: HEADER_AUTH_CREDENTIAL.name },
	});
	const all = {
		a: {
			label: '(a) the node, defaults',
			id: 'benchNodeUpsert',
			name: 'Bench: Create or Update',
			nodes: [upsertNode],
			connections: { [ROWS]: { main: [[connectTo(UPSERT)]] } },
			outputs: [UPSERT],
		},
		b: {
			label: '(b) HTTP Request + IF',
			id: 'benchHttpBuild',
			name: 'Bench: HTTP Request + IF',
			nodes: build.nodes,
			connections: { [ROWS]: { main: [build.inputTo] }, ...build.connections },
			outputs: build.outputs,
		},
		"a'": {
			label: `(a') (a) in Loop Over Items of ${LOOP_BATCH_SIZE}`,
			id: 'benchLoopUpsert',
			name: 'Bench: Loop Over Items > Create or Update',
			nodes: [
				{
					id: 'loop',
					name: LOOP,
					type: 'n8n-nodes-base.splitInBatches',
					typeVersion: 3,
					position: [0, 0],
					parameters: { batchSize: LOOP_BATCH_SIZE, options: {} },
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
		},
	};
	return ONLY.map((key) => {
		const { id: idStart, name: nameStart, nodes, connections, ...contender } = all[key];
		const [id, name] = [`${idStart}${idEnding(job.caseName)}`, `${nameStart}, ${job.title}`];
		const after = { nodes, connections };
		return {
			key,
			job,
			...contender,
			workflow: workflow(id, name, job.inputItems, after),
			warmUp: workflow(
				`${id}WarmUp`,
				`${name} (warm-up)`,
				job.inputItems.slice(0, WARM_UP_ROWS),
				after,
			),
		};
	});
}

// --- probing ------------------------------------------------------------------------------------

/** One GET of n8n's `route`: its status ('timeout' or the error's code when none came), latency. */
async function probe(url, route) {
	const startedAt = performance.now();
	let status;
	try {
		const response = await fetch(`${url}${route}`, {
			signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
		});
		await response.arrayBuffer();
		status = response.status;
	} catch (error) {
		status = error.name === 'TimeoutError' ? 'timeout' : (error.cause?.code ?? error.name);
	}
	return { route, status, startedAt, latencyMs: performance.now() - startedAt };
}

/**
 * Probes n8n from now on: every PROBE_EVERY_MS each of PROBE_PATHS in turn, a probe waiting for the
 * previous one's answer. stop(until) ends the probing and answers the probes started before
 * `until` (performance.now()).
 */
function startProbing(url) {
	const probes = [];
	let stopping = false;
	const probing = (async () => {
		while (!stopping) {
			const tickAt = performance.now();
			for (const route of PROBE_PATHS) probes.push(await probe(url, route));
			await sleep(Math.max(0, PROBE_EVERY_MS - (performance.now() - tickAt)));
		}
	})();
	return {
		async stop(until = performance.now()) {
			stopping = true;
			await probing;
			return probes.filter((done) => done.startedAt < until);
		},
	};
}

/** What the probes of a run, or of n8n idle, say: counts, latencies, each one not 200 or slow. */
function probeSummary(probes, since) {
	const latencies = probes.map((done) => done.latencyMs);
	const notOk = probes.filter((done) => done.status !== 200);
	const notOkOrSlow = probes.filter(
		(done) => done.status !== 200 || done.latencyMs >= SLOW_PROBE_MS,
	);
	const longest = probes.reduce((slowest, done) =>
		done.latencyMs > slowest.latencyMs ? done : slowest,
	);
	return {
		probeRounds: probes.filter((done) => done.route === READINESS).length,
		readinessNotOk: notOk.filter((done) => done.route === READINESS).length,
		livenessNotOk: notOk.filter((done) => done.route === LIVENESS).length,
		longestProbeMs: longest.latencyMs,
		longestProbeSince: longest.startedAt - since,
		medianProbeMs: median(latencies),
		notOkOrSlow: notOkOrSlow.map(
			(done) =>
				`${done.route} ${done.status} after ${done.latencyMs.toFixed(0)} ms, ${seconds(done.startedAt - since)} into the run`,
		),
	};
}

/** How often n8n's log has said DB_PING_TIMEOUT since `offset` (bytes). */
function dbPingTimeoutsSince(logFile, offset) {
	return (
		fs.readFileSync(logFile).subarray(offset).toString('utf8').split(DB_PING_TIMEOUT).length - 1
	);
}

// --- the runs -----------------------------------------------------------------------------------

/**
 * One contender's run on a reset sandbox, probed: its figures, and what was wrong with its result
 * (empty when right).
 */
async function measure({ rest, url, logFile, sandbox }, contender) {
	const { job } = contender;
	const { ids } = await sandbox.ask({ type: 'reset', existing: job.existingBefore });
	const logOffset = fs.statSync(logFile).size;
	const probing = startProbing(url);
	const runStartedAt = performance.now();
	let run;
	try {
		run = await runFromEditor(rest, contender.workflow.id);
	} catch (error) {
		await probing.stop();
		throw error;
	}
	const probes = await probing.stop(run.endPolledAt);
	const report = await sandbox.ask({ type: 'report', prefix: PREFIX });
	const wrong = [];
	let notRight;
	try {
		notRight = recordsNotRight(job.records, report.clients, ids);
	} catch (error) {
		wrong.push(error.message);
	}
	const status = run.timedOut ? 'did not end' : run.execution.status;
	const items = run.timedOut ? [] : outputItems(run.execution, contender.outputs);
	const errorItems = errorItemCount(items);
	if (status !== 'success') wrong.push(`the execution's status is ${status}`);
	else if (items.length !== RECORDS) wrong.push(`${items.length} output items, not one per record`);
	if (errorItems > 0) wrong.push(`${errorItems} failed items`);
	if (notRight > 0) wrong.push(`${notRight} records not right in the sandbox`);
	const accepted = Object.values(report.accepted).reduce((sum, count) => sum + count, 0);
	return {
		figures: {
			status,
			duration: runDuration(run),
			errorItems,
			notRight: notRight ?? NaN,
			requests: accepted + report.refused,
			maxInFlight: report.maxInFlight,
			dbPingTimeouts: dbPingTimeoutsSince(logFile, logOffset),
			pollFailures: run.pollFailures,
			...probeSummary(probes, runStartedAt),
		},
		wrong,
	};
}

// --- the report ---------------------------------------------------------------------------------

const milliseconds = (ms) => `${ms.toFixed(0)} ms`;
const count = (value) => (Number.isNaN(value) ? '-' : value.toLocaleString('en'));

function columns(baselines) {
	return [
		['status', (s) => s.status],
		['time', (s) => (Number.isNaN(s.duration) ? '-' : seconds(s.duration))],
		['x (b)', (s) => (baselines.duration ? (s.duration / baselines.duration).toFixed(2) : '-')],
		['failed items', (s) => count(s.errorItems)],
		['records not right', (s) => count(s.notRight)],
		['requests', (s) => count(s.requests)],
		['requests/row', (s) => (s.requests / RECORDS).toFixed(3)],
		['most in flight', (s) => count(s.maxInFlight)],
		['probes', (s) => count(s.probeRounds)],
		['readiness not 200', (s) => count(s.readinessNotOk)],
		['/healthz not 200', (s) => count(s.livenessNotOk)],
		['longest probe', (s) => milliseconds(s.longestProbeMs)],
		['sent at', (s) => seconds(s.longestProbeSince)],
		['median probe', (s) => milliseconds(s.medianProbeMs)],
		['x idle', (s) => (s.medianProbeMs / baselines.idleMedianProbeMs).toFixed(1)],
		['DB ping timeouts', (s) => count(s.dbPingTimeouts)],
	];
}

function settingsLines(loadBefore) {
	return [
		`Create or Update of ${count(RECORDS)} clients by external ID in n8n ${rt.n8nVersion()} (n8n start, SQLite, the package as a community package), ${LATENCY_MS} ms per request, no rate limit; each run started as the editor's Execute workflow does (POST /rest/workflows/:id/run), one after the other, the sandbox's clients reset before each.`,
		`Machine: ${os.availableParallelism()} cores, load average (1, 5, 15 min) at the start: ${loadBefore}.`,
		`Contenders, Manual Trigger > Code (the rows) > ...; writing nodes On Error: Continue (regular output); ${WARMS_UP ? `each warmed up by a run of ${WARM_UP_ROWS} rows` : 'not warmed up (--smoke)'}.`,
		`Probes: every ${PROBE_EVERY_MS} ms GET ${READINESS}, then GET ${LIVENESS}, each waiting for its answer (${PROBE_TIMEOUT_MS / 1000} s at most), from the REST call until n8n reports the execution ended (polled every ${POLL_EVERY_MS} ms); latencies over both. Time: from the REST call to the execution's stoppedAt.`,
	];
}

/** Issue 36's goals for the results of one case. */
function goalVerdicts(job, results) {
	const verdicts = results.map(({ contender, figures }) =>
		verdict(
			`${contender.label}: n8n's readiness answered 200 throughout`,
			`${count(figures.readinessNotOk)} probes not 200`,
			figures.readinessNotOk === 0,
		),
	);
	const [node, build] = ['a', 'b'].map(
		(key) => results.find(({ contender }) => contender.key === key)?.figures,
	);
	if (job.caseName === 'nightly' && node && build)
		verdicts.push(
			verdict(
				`(a)'s time at most ${NIGHTLY_TO_HTTP_BUILD.toFixed(2)} x (b)'s`,
				`${(node.duration / build.duration).toFixed(2)} x`,
				node.duration <= NIGHTLY_TO_HTTP_BUILD * build.duration,
			),
		);
	return verdicts;
}

/** The report of one case: what it is, its table, the probes not answered well, its goals. */
function caseReport(job, results, idle) {
	const changed = job.writes - job.newRecords.length;
	const baselines = {
		duration: results.find(({ contender }) => contender.key === 'b')?.figures.duration,
		idleMedianProbeMs: idle.medianProbeMs,
	};
	const notOkProbes = results.flatMap(({ contender, figures }) =>
		figures.notOkOrSlow.map((line) => `  ${contender.label}: ${line}`),
	);
	const pollFailures = results.filter(({ figures }) => figures.pollFailures > 0);
	const goals = goalVerdicts(job, results);
	return {
		goals,
		lines: [
			'',
			`${job.title.toUpperCase()}: ${count(job.existingBefore.length - changed)} rows held as they are, ${count(changed)} held with other values, ${count(job.newRecords.length)} new (${count(job.writes)} rows to write).`,
			...table(
				columns(baselines),
				results.map(({ contender, figures }) => [contender.label, figures]),
			),
			...(notOkProbes.length > 0
				? [`Probes not answered 200 or slower than ${seconds(SLOW_PROBE_MS)}:`, ...notOkProbes]
				: []),
			...pollFailures.map(
				({ contender, figures }) =>
					`${contender.label}: ${figures.pollFailures} polls of the execution answered 503.`,
			),
			...(SMOKE
				? [`Goals, ${job.title}: not judged (--smoke)`]
				: [`Goals, ${job.title}:`, ...goals.map(({ line }) => line)]),
		],
	};
}

async function main() {
	const loadBefore = loadAverage();
	const sandbox = await startSandboxProcess({ token: TOKEN, latencyMs: LATENCY_MS });
	const jobs = CASES.map((caseName) => syncJob(caseName, RECORDS, PREFIX));
	let n8n;
	const results = [];
	let idle;
	const all = jobs.flatMap((job) => contenders(sandbox.url, job));
	let stopped;
	try {
		n8n = await startN8n({
			sandboxUrl: sandbox.url,
			token: TOKEN,
			workflows: all.flatMap(({ workflow, warmUp }) =>
				WARMS_UP ? [warmUp, workflow] : [workflow],
			),
			credentials: [HEADER_AUTH_CREDENTIAL],
		});
		const { rest } = n8n;
		for (const { label, warmUp } of WARMS_UP ? all : []) {
			const { execution } = await runFromEditor(rest, warmUp.id);
			if (execution?.status !== 'success')
				throw new Error(`${label}: the warm-up run ended ${execution?.status ?? 'not at all'}`);
		}
		const idleProbing = startProbing(n8n.url);
		const idleSince = performance.now();
		await sleep(IDLE_PROBING_MS);
		idle = probeSummary(await idleProbing.stop(), idleSince);
		for (const contender of all) {
			process.stderr.write(`${contender.job.title}, ${contender.label}... `);
			const result = await measure({ ...n8n, sandbox }, contender);
			results.push({ contender, ...result });
			process.stderr.write(`${result.figures.status}\n`);
		}
	} finally {
		await n8n?.stop();
		await sandbox.stop();
		stopped = await stoppedProcesses([
			{ name: 'sandbox', pid: sandbox.pid },
			...(n8n ? [{ name: 'n8n', pid: n8n.pid, group: true }] : []),
		]);
		console.log(stopped.line);
	}
	const reports = jobs.map((job) =>
		caseReport(
			job,
			results.filter(({ contender }) => contender.job === job),
			idle,
		),
	);
	const wrong = results.flatMap(({ contender, wrong: what }) =>
		what.map((line) => `  ${contender.job.title}, ${contender.label}: ${line}`),
	);
	for (const contender of all)
		if (!results.some((result) => result.contender === contender))
			wrong.push(`  ${contender.job.title}, ${contender.label}: not measured`);
	console.log(
		[
			...settingsLines(loadBefore),
			`n8n idle (${IDLE_PROBING_MS / 1000} s before the runs): ${idle.probeRounds} probe rounds, median ${milliseconds(idle.medianProbeMs)}, longest ${milliseconds(idle.longestProbeMs)}, ${idle.notOkOrSlow.length} not answered 200 or slower than ${seconds(SLOW_PROBE_MS)}.`,
			...reports.flatMap((report) => report.lines),
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
