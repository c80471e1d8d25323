'use strict';

/**
 * Return All of 10,000 equipment models against the sandbox (20 ms per request, pages capped at 100
 * records), by:
 *   (a) a plain sequential fetch loop, (b) a plain fetch loop with the node's default number of parallel requests,
 *   (c) the node through n8n's engine, (d) the same operation through n8n's generic declarative pagination,
 * and the peak heap growth of (c) against the records themselves held as objects. Every result is
 * checked: the 10,000 models once each, in the API's order. Two more contenders tell where the time
 * of (c) goes: (e) the loop of (b) sending its requests with n8n-core's own HTTP helper, which
 * every node's requests go through (a new connection per request, axios), without the node; (f) the
 * smallest declarative node that pages as (c) does, 5 at a time through RoutingNode with the node's
 * credential (bench/smallest-declarative.js): n8n's engine alone, the floor of (c).
 *
 * Every run is counted at the sandbox: each contender must send one request per page, (a) and (d)
 * one at a time, (b), (c), (e) and (f) at most the node's default number in flight.
 *
 * Run with `npm run bench` (node --expose-gc bench/pagination.bench.js [--models N] [--rounds N]
 * [--smoke]; USAGE below). The node and the test harness are TypeScript, loaded through
 * bench/register-typescript.js: no build step is needed.
 */

const { commandLine, commonUsage, stoppedProcesses, usageError } = require('./command-line');

const USAGE = [
	'Usage: npm run bench -- [options]   (node --expose-gc bench/pagination.bench.js [options])',
	'Return All of equipment models against the sandbox (20 ms per request, pages of 100): a fetch loop,',
	"one page after another and 5 at a time; the node through n8n's engine; n8n's generic declarative",
	"pagination; n8n-core's HTTP helper. Exits with 1 when a result or a request count is wrong, or a",
	'target is missed (no target is judged with --smoke).',
	'  --models N   models in the list (default 10000)',
	'  --rounds N   measured rounds after a warm-up round; the median is reported (default 21)',
	...commonUsage(
		'a small run (250 models, 1 round; a few seconds): every result and request count checked, no target judged',
		15,
	),
].join('\n');
const { values: flags } = commandLine(USAGE, {
	models: { type: 'string' },
	rounds: { type: 'string' },
});
const SMOKE = flags.smoke === true;

require('../test/harness/environment');
require('./register-typescript');

const assert = require('node:assert/strict');
const os = require('node:os');
const { performance } = require('node:perf_hooks');

const { runNode } = require('../test/harness/engine');
// n8n-core's request helper, as the engine calls it for every node request; not exported from its
// package root.
const {
	httpRequest: n8nHttpRequest,
} = require('n8n-core/dist/execution-engine/node-execution-context/utils/request-helper-functions');
const { EquipmentRental } = require('../nodes/EquipmentRental/EquipmentRental.node');
const { parallelRequestsField } = require('../nodes/shared/requestOptionFields');
const { checkApiResponse } = require('../nodes/EquipmentRental/engine/answerCheck');
const { collectGarbage, heapUsed, median } = require('./measuring');
const { MODELS_PATH, PAGE_SIZE, fetchAllModels, fetchModelsPage } = require('./models-list');
const { SMALLEST_PAGING } = require('./smallest-declarative');
const { startSandboxProcess } = require('./sync-sandbox');

const MODEL_COUNT = Number(flags.models ?? (SMOKE ? 250 : 10_000));
const LATENCY_MS = 20;
// On a shared machine, c/b from medians of 11 rounds ranged 1.10-1.25 over runs; 21 rounds narrow
// that.
const REPETITIONS = Number(flags.rounds ?? (SMOKE ? 1 : 21));
if (!(
	Number.isInteger(MODEL_COUNT) &&
	MODEL_COUNT > 0 &&
	Number.isInteger(REPETITIONS) &&
	REPETITIONS > 0
))
	usageError(USAGE, '--models and --rounds take whole numbers above 0');
/** What each contender must send for one Return All: a request per page. */
const PAGES = Math.ceil(MODEL_COUNT / PAGE_SIZE);
const TOKEN = 'bench-token';
const DEFAULT_PARALLEL_REQUESTS = parallelRequestsField.default;

// From issue 4. The bench exits with code 1 when one is missed.
const TARGETS = { nodeToSequential: 0.35, nodeToParallelFetch: 1.2, memoryToRawRecords: 2 };

const fetchPage = (baseUrl, page) => fetchModelsPage(baseUrl, TOKEN, page);

const sequentialFetch = (baseUrl) => fetchAllModels(baseUrl, TOKEN);

/**
 * The pages of (b) and (e): page 1, then the others DEFAULT_PARALLEL_REQUESTS at a time, joined in
 * page order.
 */
async function parallelPages(getPage) {
	const first = await getPage(1);
	const pages = [first.content];
	const pageCount = Math.ceil(first.total / PAGE_SIZE);
	let next = 2;
	const worker = async () => {
		while (next <= pageCount) {
			const page = next++;
			pages[page - 1] = (await getPage(page)).content;
		}
	};
	await Promise.all(Array.from({ length: DEFAULT_PARALLEL_REQUESTS }, worker));
	return pages.flat();
}

const parallelFetch = (baseUrl) => parallelPages((page) => fetchPage(baseUrl, page));

const parallelN8nHttpHelper = (baseUrl) =>
	parallelPages((page) =>
		n8nHttpRequest({
			url: `${baseUrl}${MODELS_PATH}`,
			qs: { page, limit: PAGE_SIZE },
			headers: { Authorization: `Bearer ${TOKEN}` },
			json: true,
		}),
	);

/**
 * The node with the Equipment Model "Get Many" operation routed through n8n-core's generic
 * pagination, pages of 100 one after another, as a declarative node without its own pagination
 * function would do it. The engine evaluates `request` before each page with the same `$request`
 * and sends its `qs` instead of the routed one, so the page counter is kept on `$request.qs` and
 * the query is rebuilt from it.
 */
function genericPaginationVariant() {
	const node = new EquipmentRental();
	// The base URL as a declarative node declares it: an expression of the credential in its request
	// defaults, which RoutingNode evaluates for each item. The node leaves it out of its own and sets
	// it per run in its routing (engine/runSettings.ts), which this variant replaces: without it the
	// variant's requests would go to a relative URL (NodeApiError: Invalid URL).
	const routing = {
		request: { method: 'GET', url: MODELS_PATH },
		send: { paginate: true },
		output: {
			postReceive: [
				checkApiResponse({}),
				{ type: 'rootProperty', properties: { property: 'content' } },
			],
		},
		operations: {
			pagination: {
				type: 'generic',
				properties: {
					request: {
						qs: `={{ { ...$request.qs, page: ($request.qs.page = ($request.qs.page ?? 0) + 1), limit: ${PAGE_SIZE} } }}`,
					},
					continue: `={{ $request.qs.page * ${PAGE_SIZE} < $response.body.total }}`,
				},
			},
		},
	};
	const isModelOperation = (property) =>
		property.name === 'operation' &&
		property.displayOptions?.show?.resource?.includes('equipmentModel');
	node.description = {
		...node.description,
		requestDefaults: {
			...node.description.requestDefaults,
			baseURL: '={{ $credentials.baseUrl.replace(/\\/+$/, "") }}',
		},
		properties: node.description.properties.map((property) =>
			isModelOperation(property)
				? {
						...property,
						options: property.options.map((option) =>
							option.value === 'getAll' ? { ...option, routing } : option,
						),
					}
				: property,
		),
	};
	return node;
}

/** The run of the workflow, which holds the node's output items as n8n does after an execution. */
async function runReturnAll(baseUrl, nodeType) {
	const run = await runNode({
		parameters: { resource: 'equipmentModel', operation: 'getAll', returnAll: true },
		credentials: { baseUrl, accessToken: TOKEN },
		nodeType,
	});
	if (run.error) throw run.error;
	return run;
}

const recordsOf = (run) => run.items.map((item) => item.json);

/**
 * The requests of one run of `run` as the sandbox counted them (its count is reset before):
 * { records (what `run` answered), duration (ms), requests, mostInFlight }.
 */
async function countedRun(sandbox, run) {
	await sandbox.ask({ type: 'reset', existing: [] });
	const start = performance.now();
	const records = await run();
	const duration = performance.now() - start;
	const report = await sandbox.ask({ type: 'report' });
	const requests = Object.values(report.accepted).reduce((sum, count) => sum + count, 0);
	return {
		records,
		duration,
		requests: requests + report.refused,
		mostInFlight: report.maxInFlight,
	};
}

/**
 * Median duration in ms of each contender over REPETITIONS rounds, after a warm-up round; every
 * result is checked by `verify`, and the requests of each run: one per page (PAGES), at most
 * `mostInFlight` of the contender's at once. The contenders take turns within a round, so that a
 * load change on the machine weighs on all of them, and who goes first rotates from round to round,
 * so that each contender takes every place in a round in turn.
 */
async function medianDurations(sandbox, contenders, verify) {
	const durations = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
	const entries = Object.entries(contenders);
	for (let round = 0; round <= REPETITIONS; round++) {
		const first = round % entries.length;
		const turns = [...entries.slice(first), ...entries.slice(0, first)];
		for (const [name, { run, mostInFlight }] of turns) {
			const counted = await countedRun(sandbox, run);
			verify(name, counted.records);
			assert.equal(counted.requests, PAGES, `${name} must send one request per page`);
			assert.ok(
				counted.mostInFlight <= mostInFlight,
				`${name} had ${counted.mostInFlight} requests in flight, not at most ${mostInFlight}`,
			);
			if (round > 0) durations[name].push(counted.duration);
		}
		process.stderr.write(round === 0 ? 'warm-up done; rounds: ' : `${round} `);
	}
	process.stderr.write('\n');
	return Object.fromEntries(
		Object.entries(durations).map(([name, values]) => [name, median(values)]),
	);
}

/**
 * Highest heap growth while `run` runs, sampled every few ms and once more with its result, which
 * is still held then. With `liveOnly`, a full garbage collection precedes each sample, so only what
 * `run` still references counts; without it, what it no longer uses but V8 has not yet collected
 * counts too. The result is handed to `check`.
 */
async function peakHeapGrowth(run, check, { liveOnly }) {
	await collectGarbage();
	const before = heapUsed();
	let peak = before;
	const sample = () => {
		if (liveOnly) global.gc();
		peak = Math.max(peak, heapUsed());
	};
	const sampler = setInterval(sample, liveOnly ? 5 : 1);
	try {
		const result = await run();
		sample();
		check(result);
	} finally {
		clearInterval(sampler);
	}
	return peak - before;
}

/**
 * Runs `run` twice so that the measured runs find the code compiled. An async function holds the
 * last value it awaited until its next await: awaited here, the warm-up results are let go before
 * the measuring starts.
 */
async function warmUp(run, check) {
	for (let round = 0; round < 2; round++) check(await run());
}

/**
 * Heap the records take as plain objects, parsed from their JSON text as an API client would hold
 * them.
 */
async function rawRecordsHeap(baseUrl) {
	const records = await sequentialFetch(baseUrl);
	const text = JSON.stringify(records);
	await collectGarbage();
	const baseline = heapUsed();
	const parsed = JSON.parse(text);
	await collectGarbage();
	const size = heapUsed() - baseline;
	assert.equal(parsed.length, records.length);
	return size;
}

/**
 * Peak heap growth of (c), live and with garbage, of (b) with garbage, and the heap of the records
 * themselves. Run before the timings, so that only warm-up runs of the same contender come before
 * each measurement.
 */
async function measureMemory(baseUrl, verify) {
	const checkNode = (run) => verify('(c) the node, measuring its heap', recordsOf(run));
	await warmUp(() => runReturnAll(baseUrl), checkNode);
	const nodeLive = await peakHeapGrowth(() => runReturnAll(baseUrl), checkNode, { liveOnly: true });
	const nodeWithGarbage = await peakHeapGrowth(() => runReturnAll(baseUrl), checkNode, {
		liveOnly: false,
	});
	const checkFetch = (records) => verify('(b) parallel fetch, measuring its heap', records);
	await warmUp(() => parallelFetch(baseUrl), checkFetch);
	const fetchWithGarbage = await peakHeapGrowth(() => parallelFetch(baseUrl), checkFetch, {
		liveOnly: false,
	});
	return { nodeLive, nodeWithGarbage, fetchWithGarbage, rawHeap: await rawRecordsHeap(baseUrl) };
}

const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const milliseconds = (ms) => `${ms.toFixed(0)} ms`.padStart(8);
const verdict = (value, target) =>
	SMOKE
		? `(target <= ${target}: not judged with --smoke)`
		: `(target <= ${target}: ${value <= target ? 'met' : 'MISSED'})`;

async function main() {
	const loadBefore = os.loadavg()[0];
	const sandbox = await startSandboxProcess({
		token: TOKEN,
		latencyMs: LATENCY_MS,
		models: MODEL_COUNT,
		maxPageSize: PAGE_SIZE,
	});
	let missed = false;
	try {
		const baseUrl = sandbox.url;
		const expectedIds = (await sequentialFetch(baseUrl)).map((record) => record.id);
		assert.equal(new Set(expectedIds).size, MODEL_COUNT, 'the API order holds every model once');
		const verify = (name, records) =>
			assert.deepEqual(
				records.map((record) => record.id),
				expectedIds,
				`${name} must return the ${MODEL_COUNT} models once each, in the API order`,
			);

		const { nodeLive, nodeWithGarbage, fetchWithGarbage, rawHeap } = await measureMemory(
			baseUrl,
			verify,
		);
		const memoryRatio = nodeLive / rawHeap;

		const genericVariant = genericPaginationVariant();
		const smallestPaging = SMALLEST_PAGING.create();
		const [sequential, parallel] = [1, DEFAULT_PARALLEL_REQUESTS];
		const timings = await medianDurations(
			sandbox,
			{
				'(a) sequential fetch': { run: () => sequentialFetch(baseUrl), mostInFlight: sequential },
				'(b) parallel fetch': { run: () => parallelFetch(baseUrl), mostInFlight: parallel },
				'(c) the node': {
					run: async () => recordsOf(await runReturnAll(baseUrl)),
					mostInFlight: parallel,
				},
				'(d) generic pagination': {
					run: async () => recordsOf(await runReturnAll(baseUrl, genericVariant)),
					mostInFlight: sequential,
				},
				"(e) n8n-core's HTTP helper": {
					run: () => parallelN8nHttpHelper(baseUrl),
					mostInFlight: parallel,
				},
				'(f) the smallest declarative node paging': {
					run: async () => recordsOf(await runReturnAll(baseUrl, smallestPaging)),
					mostInFlight: parallel,
				},
			},
			verify,
		);
		const figures = Object.values(timings);
		assert.ok(
			figures.length === 6 && figures.every((figure) => Number.isFinite(figure) && figure > 0),
			`every contender measured, not ${JSON.stringify(timings)}`,
		);
		const [a, b, c, d, e, f] = figures;

		console.log(
			[
				`Return All of ${MODEL_COUNT} equipment models, ${LATENCY_MS} ms per request, pages of ${PAGE_SIZE}, median of ${REPETITIONS} rounds after a warm-up${SMOKE ? ' (--smoke)' : ''}:`,
				`  (a) sequential fetch loop                 ${milliseconds(a)}`,
				`  (b) fetch loop, ${DEFAULT_PARALLEL_REQUESTS} requests in parallel    ${milliseconds(b)}`,
				`  (c) the node through n8n's engine         ${milliseconds(c)}`,
				`  (d) n8n's generic pagination, sequential  ${milliseconds(d)}`,
				`  every run: ${PAGES} requests, one per page; (a) and (d) one at a time, (b), (c), (e) and (f) at most ${DEFAULT_PARALLEL_REQUESTS} in flight`,
				`  c/a = ${(c / a).toFixed(2)} ${verdict(c / a, TARGETS.nodeToSequential)}`,
				`  c/b = ${(c / b).toFixed(2)} ${verdict(c / b, TARGETS.nodeToParallelFetch)}`,
				`  d/a = ${(d / a).toFixed(2)}`,
				`Where the time of (c) goes:`,
				`  (e) the loop of (b) through n8n-core's HTTP helper ${milliseconds(e)}: e/b = ${(e / b).toFixed(2)} (n8n's transport), c/e = ${(c / e).toFixed(2)} (the node and the engine on top)`,
				`  (f) the smallest declarative node paging ${milliseconds(f)}: f/e = ${(f / e).toFixed(2)} (RoutingNode and the credential on top of the transport), c/f = ${(c / f).toFixed(2)} (the node on top of n8n's engine)`,
				`Memory per ${MODEL_COUNT} records:`,
				`  the records as objects (JSON.parse)       ${megabytes(rawHeap)}`,
				`  (c) peak live heap growth                 ${megabytes(nodeLive)} = ${memoryRatio.toFixed(2)} x the records ${verdict(memoryRatio, TARGETS.memoryToRawRecords)}`,
				`  peak heap growth with garbage not yet collected: (c) ${megabytes(nodeWithGarbage)}, (b) ${megabytes(fetchWithGarbage)}`,
				`Load average of the machine (1 min): ${loadBefore.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end`,
			].join('\n'),
		);
		const ratios = {
			nodeToSequential: c / a,
			nodeToParallelFetch: c / b,
			memoryToRawRecords: memoryRatio,
		};
		missed = Object.keys(TARGETS).some((key) => !(ratios[key] <= TARGETS[key]));
	} finally {
		await sandbox.stop();
		const stopped = await stoppedProcesses([{ name: 'sandbox', pid: sandbox.pid }]);
		console.log(stopped.line);
		if (!stopped.allStopped) process.exitCode = 1;
	}
	if (missed && !SMOKE) process.exitCode = 1;
}

main()
	.catch((error) => {
		console.error(error);
		process.exitCode = 1;
	})
	// n8n-core's SSH client manager keeps a one-minute interval timer: the process would not end by
	// itself.
	.finally(() => process.exit());
