'use strict';

/**
 * The sandbox of the benchmarks that run n8n (bench/sync.bench.js, bench/n8n-responsiveness.bench.js,
 * bench/n8n-return-all.bench.js), in a process of its own as the API is a server apart from n8n: its work does not share the measured
 * process's event loop and heap. A benchmark starts it with startSandboxProcess (below) and talks
 * to it over the IPC channel:
 *   { type: 'options', rateLimit }: sets the API's rate limit (sandbox/rateLimit.js; null: none).
 *     Set anew before every run, so that each run starts with a full token bucket. Answers
 *     { type: 'options' }.
 *   { type: 'reset', existing: [{ externalId, name, city }] }: the clients back as the seed made
 *     them, then the given ones created through the sandbox's own create handler; the request log
 *     and the most requests in flight start again. Answers { type: 'reset', ids, held } (the IDs of
 *     the created clients, by external ID; how many clients the sandbox holds).
 *   { type: 'report', prefix }: answers { type: 'report', accepted, listReads, refused, refusedAt,
 *     maxInFlight, maxAcceptedInFlight, clients } about the requests received since the reset:
 *     those the rate limit let in (by method and status, e.g. 'POST 201'; listReads: the GETs of
 *     the clients' list among them, the pages of a whole read), how many it refused and
 *     when each refused one arrived (ms since the epoch, in order), the most requests in flight at
 *     once (all received; those let in), and every client whose external ID starts with `prefix`
 *     (none without a prefix).
 * It prints nothing (a pipe nobody reads can never fill) and ends when the channel closes, also
 * when the benchmark dies without closing it.
 *
 * Run by startSandboxProcess as: node bench/sync-sandbox.js <its options as JSON>
 */

const { fork } = require('node:child_process');
const { once } = require('node:events');
const { setTimeout: sleep } = require('node:timers/promises');

const { CLIENTS_PATH } = require('./upsert-job');

// How long the sandbox has to close its server once its channel closes, before it is killed.
const STOP_GRACE_MS = 5_000;
// The sandbox's listen queue: Node's default (511) overflows when thousands of connections open at
// once, as n8n's HTTP Request node opens them (one per request, every item at once); the kernel
// then retries them after 1 s, 3 s, ..., or resets them, which fails a write. The benchmarks
// measure speed: the sandbox gets the longest queue the kernel allows (net.core.somaxconn, 4096
// here), and sync.bench.js counts the overflows that remain.
const LISTEN_BACKLOG = 4096;

/**
 * Forks the sandbox (answering every request after `latencyMs`; `models` equipment models in its
 * seed, default 1; lists' `limit` silently capped at `maxPageSize`, default none) and waits until
 * it listens. Resolves with { url, pid, ask(message), stop() }:
 * ask sends one of the messages above and resolves with the answer (throws the sandbox's error);
 * stop closes the channel, which ends the sandbox, and kills it by its PID if it has not ended
 * within STOP_GRACE_MS. The sandbox is stopped before this rejects.
 */
async function startSandboxProcess({
	token,
	latencyMs,
	backlog = LISTEN_BACKLOG,
	models = 1,
	maxPageSize,
}) {
	const options = { token, latencyMs, backlog, models, maxPageSize };
	const child = fork(__filename, [JSON.stringify(options)], {
		stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
		// Not the benchmark's options (--cpu-prof would profile the sandbox into the same folder).
		execArgv: [],
	});
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		const exited = once(child, 'exit');
		if (child.connected) child.disconnect();
		const stopped = await Promise.race([exited.then(() => true), sleep(STOP_GRACE_MS, false)]);
		if (!stopped) {
			process.kill(child.pid, 'SIGKILL');
			await exited;
		}
	};
	const ask = async (message) => {
		child.send(message);
		const [answer] = await once(child, 'message');
		if (answer.type !== message.type)
			throw new Error(`expected ${message.type}, got ${answer.type}`);
		if (answer.error) throw new Error(`the sandbox failed: ${answer.error}`);
		return answer;
	};
	try {
		const [ready] = await Promise.race([
			once(child, 'message'),
			once(child, 'exit').then(([code]) => {
				throw new Error(`the sandbox exited (code ${code}) before it listened`);
			}),
		]);
		if (ready.error) throw new Error(`the sandbox failed to start: ${ready.error}`);
		return { url: ready.url, pid: child.pid, ask, stop };
	} catch (error) {
		await stop();
		throw error;
	}
}

async function serve() {
	// Required here: the benchmarks that only start the process need none of the sandbox.
	const { startSandbox } = require('../sandbox/server');
	const { writeHandlers } = require('../sandbox/writes');

	const options = JSON.parse(process.argv[2]);
	const sandbox = await startSandbox({
		...options,
		// The benchmarks read clients and models only: the rest of the seed is kept small.
		equipment: 1,
		days: 1,
	});
	const { store } = sandbox;
	const seedClients = structuredClone(store.clients);
	const settings = { clockOffsetMs: 0 };

	const handle = {
		options({ rateLimit }) {
			sandbox.setOptions({ rateLimit });
			return {};
		},
		reset({ existing }) {
			store.clients.splice(0, store.clients.length, ...structuredClone(seedClients));
			const ids = {};
			for (const fields of existing) {
				const { body } = writeHandlers.createClient(store, { body: fields }, settings);
				ids[fields.externalId] = body.id;
			}
			sandbox.resetStats();
			return { ids, held: store.clients.length };
		},
		report({ prefix }) {
			const accepted = {};
			const refusedAt = [];
			let listReads = 0;
			for (const { method, path, status, rateLimited, receivedAt } of sandbox.requests) {
				if (rateLimited) {
					refusedAt.push(receivedAt);
					continue;
				}
				const key = `${method} ${status}`;
				accepted[key] = (accepted[key] ?? 0) + 1;
				if (method === 'GET' && path === CLIENTS_PATH) listReads++;
			}
			return {
				accepted,
				listReads,
				refused: refusedAt.length,
				refusedAt,
				maxInFlight: sandbox.maxInFlight,
				maxAcceptedInFlight: sandbox.maxAcceptedInFlight,
				clients: store.clients
					.filter(
						(client) => prefix !== undefined && String(client.externalId ?? '').startsWith(prefix),
					)
					.map(({ id, externalId, name, city }) => ({ id, externalId, name, city })),
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
		await sandbox.close();
		process.exit(0);
	});
	process.send({ type: 'ready', url: sandbox.url });
}

if (require.main === module) {
	serve().catch((error) => {
		process.send?.({ type: 'ready', error: String(error?.stack ?? error) });
		process.exit(1);
	});
}

module.exports = { startSandboxProcess };
