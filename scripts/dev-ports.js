'use strict';
/**
 * The ports `npm run dev` suggests when it cannot start: each one checked free at both loopback
 * addresses (runtime/processes.js isPortFree), the asked-for port itself when it is free, else the
 * next free one after it, and never the port suggested for the other server.
 */

const { getFreePort, isPortFree } = require('./runtime/processes');

const MAX_PORT = 65535;

/** The first port from `port` on that is free and not in `taken`. */
async function freePortFrom(port, taken = []) {
	for (let candidate = port; candidate <= MAX_PORT; candidate++) {
		if (!taken.includes(candidate) && (await isPortFree(candidate))) return candidate;
	}
	// None left above it: any port the system finds free, checked as the others are.
	for (;;) {
		const candidate = await getFreePort();
		if (!taken.includes(candidate) && (await isPortFree(candidate))) return candidate;
	}
}

/**
 * Ports for n8n and the sandbox that a separate dev can use: those asked for where they are free,
 * else the next free ones, n8n's kept off the sandbox's and the other way round.
 * @param {{ port: number, sandboxPort: number }} asked
 */
async function suggestPorts({ port, sandboxPort }) {
	const n8nPort = await freePortFrom(port, [sandboxPort]);
	return { port: n8nPort, sandboxPort: await freePortFrom(sandboxPort, [n8nPort]) };
}

module.exports = { suggestPorts };
