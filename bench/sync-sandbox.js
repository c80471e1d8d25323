'use strict';

/**
 * The sandbox of the sync benchmark (bench/sync.bench.js), in a process of its own as the API is a
 * server apart from n8n: its work does not share the measured process's event loop and heap. The
 * benchmark forks it and talks to it over the IPC channel:
 *   { type: 'reset', existing: [{ externalId, name, city }] }: the clients back as the seed made
 *     them, then the given ones created through the sandbox's own create handler; the request log,
 *     the in-flight count and the CPU time start again. Answers { type: 'reset', ids } (the IDs of
 *     the created clients, by external ID).
 *   { type: 'report', prefix }: answers { type: 'report', ... } with the requests received since the
 *     reset (by method and status), when the first arrived (ms since the epoch), the most and the
 *     time-weighted sum of requests in flight, the CPU time, and every client whose external ID
 *     starts with `prefix`.
 * It prints nothing (a pipe nobody reads can never fill) and ends when the channel closes.
 *
 * Usage (by the benchmark): node bench/sync-sandbox.js <token> <latency ms> <listen backlog>
 */

const { startSandbox } = require('../sandbox/server');
const { writeHandlers } = require('../sandbox/writes');

// How often the number of requests in flight is sampled for its time-weighted sum.
const SAMPLE_EVERY_MS = 2;

async function main() {
	const [token, latency, backlog] = process.argv.slice(2);
	const sandbox = await startSandbox({
		token,
		latencyMs: Number(latency),
		backlog: Number(backlog),
		// The sync touches only clients: the rest of the seed is kept small.
		models: 1,
		equipment: 1,
		days: 1,
	});
	const { store } = sandbox;
	const seedClients = structuredClone(store.clients);
	const settings = { clockOffsetMs: 0 };

	// The time-weighted sum of requests in flight (request-milliseconds): divided by a run's duration,
	// the mean number of requests in flight during the run.
	let inFlightSum = 0;
	let lastSample = performance.now();
	let firstRequestAt;
	const sampler = setInterval(() => {
		const now = performance.now();
		inFlightSum += sandbox.inFlight * (now - lastSample);
		lastSample = now;
		if (firstRequestAt === undefined && sandbox.requests.length > 0)
			firstRequestAt = performance.timeOrigin + now;
	}, SAMPLE_EVERY_MS);
	let cpuAtReset = process.cpuUsage();

	const handle = {
		reset({ existing }) {
			store.clients.splice(0, store.clients.length, ...structuredClone(seedClients));
			const ids = {};
			for (const fields of existing) {
				const { body } = writeHandlers.createClient(store, { body: fields }, settings);
				ids[fields.externalId] = body.id;
			}
			sandbox.resetStats();
			inFlightSum = 0;
			lastSample = performance.now();
			firstRequestAt = undefined;
			cpuAtReset = process.cpuUsage();
			return { ids };
		},
		report({ prefix }) {
			const requests = {};
			for (const { method, status } of sandbox.requests) {
				const key = `${method} ${status}`;
				requests[key] = (requests[key] ?? 0) + 1;
			}
			const cpu = process.cpuUsage(cpuAtReset);
			return {
				requests,
				firstRequestAt,
				maxInFlight: sandbox.maxInFlight,
				inFlightSum,
				cpuMs: (cpu.user + cpu.system) / 1000,
				clients: store.clients
					.filter((client) => String(client.externalId ?? '').startsWith(prefix))
					.map(({ id, externalId, name, city, createdAt }) => ({
						id,
						externalId,
						name,
						city,
						createdAt,
					})),
			};
		},
	};

	process.on('message', (message) => {
		try {
			process.send({ type: message.type, ...handle[message.type](message) });
		} catch (error) {
			process.send({ type: message.type, error: String(error?.stack ?? error) });
		}
	});
	process.once('disconnect', async () => {
		clearInterval(sampler);
		await sandbox.close();
		process.exit(0);
	});
	process.send({ type: 'ready', url: sandbox.url });
}

main().catch((error) => {
	process.send?.({ type: 'ready', error: String(error?.stack ?? error) });
	process.exit(1);
});
