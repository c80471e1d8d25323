'use strict';

/**
 * The sandbox of the sync benchmark (bench/sync.bench.js), in a process of its own as the API is a
 * server apart from n8n: its work does not share the measured process's event loop and heap. The
 * benchmark forks it and talks to it over the IPC channel:
 *   { type: 'options', rateLimit }: sets the API's rate limit (sandbox/rateLimit.js; null: none).
 *     Set anew before every run, so that each run starts with a full token bucket. Answers
 *     { type: 'options' }.
 *   { type: 'reset', existing: [{ externalId, name, city }] }: the clients back as the seed made
 *     them, then the given ones created through the sandbox's own create handler; the request log
 *     and the most requests in flight start again. Answers { type: 'reset', ids } (the IDs of the
 *     created clients, by external ID).
 *   { type: 'report', prefix }: answers { type: 'report', accepted, refused, maxInFlight,
 *     maxAcceptedInFlight, clients } about the requests received since the reset: those the rate
 *     limit let in (by method and status, e.g. 'POST 201'), how many it refused, the most requests
 *     in flight at once (all received; those let in), and every client whose external ID starts
 *     with `prefix`.
 * It prints nothing (a pipe nobody reads can never fill) and ends when the channel closes, also
 * when the benchmark dies without closing it.
 *
 * Usage (by the benchmark): node bench/sync-sandbox.js <token> <latency ms> <listen backlog>
 */

const { startSandbox } = require('../sandbox/server');
const { writeHandlers } = require('../sandbox/writes');

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
			return { ids };
		},
		report({ prefix }) {
			const accepted = {};
			let refused = 0;
			for (const { method, status, rateLimited } of sandbox.requests) {
				if (rateLimited) {
					refused++;
					continue;
				}
				const key = `${method} ${status}`;
				accepted[key] = (accepted[key] ?? 0) + 1;
			}
			return {
				accepted,
				refused,
				maxInFlight: sandbox.maxInFlight,
				maxAcceptedInFlight: sandbox.maxAcceptedInFlight,
				clients: store.clients
					.filter((client) => String(client.externalId ?? '').startsWith(prefix))
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

main().catch((error) => {
	process.send?.({ type: 'ready', error: String(error?.stack ?? error) });
	process.exit(1);
});
