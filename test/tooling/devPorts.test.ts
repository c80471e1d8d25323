/* eslint-disable
	@n8n/community-nodes/no-restricted-imports
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * The ports `npm run dev` checks and suggests (scripts/dev-ports.js, runtime/processes.js): a port
 * is busy when anything listens on it at either loopback address, and a suggestion is a port
 * checked free, the asked-for one when it is free, else the next free one after it.
 */
import * as net from 'node:net';

// The dev scripts are plain JavaScript so that they run without a build step.
/* eslint-disable @typescript-eslint/no-require-imports */
const { suggestPorts } = require('../../scripts/dev-ports') as {
	suggestPorts(asked: {
		port: number;
		sandboxPort: number;
	}): Promise<{ port: number; sandboxPort: number }>;
};
const { isPortFree } = require('../../scripts/runtime/processes') as {
	isPortFree(port: number): Promise<boolean>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const servers: net.Server[] = [];

/** A server listening on the port at `host`, closed after the test. */
async function listen(port: number, host: string): Promise<void> {
	const server = net.createServer();
	servers.push(server);
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, resolve);
	});
}

/** Whether a server could listen on the port at `host` now (this test's own check). */
async function canListen(port: number, host: string): Promise<boolean> {
	const server = net.createServer();
	return await new Promise((resolve) => {
		server.once('error', () => resolve(false));
		server.listen(port, host, () => server.close(() => resolve(true)));
	});
}

async function hasIpv6Loopback(): Promise<boolean> {
	const server = net.createServer();
	return await new Promise((resolve) => {
		server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
		server.listen(0, '::1', () => server.close(() => resolve(true)));
	});
}

/** The first of `count` consecutive ports free at both loopback addresses. */
async function freeRun(count: number): Promise<number> {
	for (let first = 20000 + Math.floor(Math.random() * 20000); first < 60000; first += count) {
		let free = true;
		for (let port = first; port < first + count && free; port++)
			free = (await canListen(port, '127.0.0.1')) && (await canListen(port, '::1'));
		if (free) return first;
	}
	throw new Error(`no ${count} consecutive free ports`);
}

afterEach(async () => {
	await Promise.all(
		servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
	);
});

describe('isPortFree', () => {
	it('is true for a port nothing listens on, false for one in use at 127.0.0.1', async () => {
		const port = await freeRun(1);
		expect(await isPortFree(port)).toBe(true);
		await listen(port, '127.0.0.1');
		expect(await isPortFree(port)).toBe(false);
	});

	it('is false for a port in use at ::1 only, where "localhost" may lead too', async () => {
		if (!(await hasIpv6Loopback())) return;
		const port = await freeRun(1);
		await listen(port, '::1');
		expect(await isPortFree(port)).toBe(false);
	});
});

describe('suggestPorts', () => {
	it('keeps the port asked for when it is free, and moves a busy one to the next free port', async () => {
		const first = await freeRun(6);
		const [port, sandboxPort] = [first, first + 4];
		await listen(port, '127.0.0.1');
		// The next one is taken at the IPv6 loopback only (127.0.0.1 alone would call it free).
		await listen(port + 1, (await hasIpv6Loopback()) ? '::1' : '127.0.0.1');

		expect(await suggestPorts({ port, sandboxPort })).toEqual({ port: port + 2, sandboxPort });
		expect(await suggestPorts({ port: sandboxPort, sandboxPort: port })).toEqual({
			port: sandboxPort,
			sandboxPort: port + 2,
		});
	});

	it('never suggests for one server the port asked or suggested for the other', async () => {
		const first = await freeRun(4);
		await listen(first, '127.0.0.1');

		// n8n's next free port is the sandbox's, which stays the sandbox's.
		expect(await suggestPorts({ port: first, sandboxPort: first + 1 })).toEqual({
			port: first + 2,
			sandboxPort: first + 1,
		});
		// Both busy at the same port: each gets its own.
		expect(await suggestPorts({ port: first, sandboxPort: first })).toEqual({
			port: first + 1,
			sandboxPort: first + 2,
		});
	});
});
