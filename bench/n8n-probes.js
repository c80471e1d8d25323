'use strict';

/**
 * What bench/n8n-responsiveness.bench.js watches of a running n8n while a workflow runs: its health
 * endpoints, probed as a load balancer or an orchestrator does, and the memory of its processes.
 */

const fs = require('node:fs');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');

const { descendants } = require('../scripts/runtime/process-info');
const { median, seconds } = require('./measuring');

const PROBE_EVERY_MS = 100;
const PROBE_TIMEOUT_MS = 5_000;
const PROBE_PATHS = ['/healthz/readiness', '/healthz'];
const [READINESS, LIVENESS] = PROBE_PATHS;
// A probe this slow is listed with its moment: a user of the editor notices a wait this long.
const SLOW_PROBE_MS = 1_000;
// Often enough to catch a peak of a run of seconds; reading /proc costs a few ms each time.
const RSS_EVERY_MS = 250;

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

/** The resident memory of a process, in bytes (0 when it is gone). */
function residentBytes(pid) {
	try {
		const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
	} catch {
		return 0;
	}
}

/** The resident memory of a process and every process below it (n8n's task runner), in bytes. */
const treeResidentBytes = (pid) =>
	[pid, ...descendants(pid).map((child) => child.pid)].reduce(
		(sum, one) => sum + residentBytes(one),
		0,
	);

/**
 * Watches n8n from now on: every PROBE_EVERY_MS each of PROBE_PATHS of `url` in turn, a probe
 * waiting for the previous one's answer; every RSS_EVERY_MS the resident memory of each process
 * tree of `processes` ([{ name, pid }], n8n's processes). stop(until) ends the watching and answers
 * { probes (those started before `until`, performance.now()), peakRss: { total, [name] } } (bytes:
 * the highest sum over the trees, and each tree's highest).
 */
function startWatching(url, processes = []) {
	const probes = [];
	const peakRss = { total: 0 };
	let stopping = false;
	const probing = (async () => {
		while (!stopping) {
			const tickAt = performance.now();
			for (const route of PROBE_PATHS) probes.push(await probe(url, route));
			await sleep(Math.max(0, PROBE_EVERY_MS - (performance.now() - tickAt)));
		}
	})();
	const sampling = (async () => {
		while (!stopping && processes.length > 0) {
			let total = 0;
			for (const { name, pid } of processes) {
				const bytes = treeResidentBytes(pid);
				peakRss[name] = Math.max(peakRss[name] ?? 0, bytes);
				total += bytes;
			}
			peakRss.total = Math.max(peakRss.total, total);
			await sleep(RSS_EVERY_MS);
		}
	})();
	return {
		async stop(until = performance.now()) {
			stopping = true;
			await Promise.all([probing, sampling]);
			return { probes: probes.filter((done) => done.startedAt < until), peakRss };
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

module.exports = {
	LIVENESS,
	PROBE_EVERY_MS,
	PROBE_TIMEOUT_MS,
	READINESS,
	SLOW_PROBE_MS,
	probeSummary,
	startWatching,
};
