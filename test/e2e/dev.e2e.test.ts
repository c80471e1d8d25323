/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-dangerous-functions,
	@n8n/community-nodes/no-hardcoded-secrets
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * `npm run dev` as a user runs it (scripts/dev.js with the real n8n), on free ports and a user
 * folder of its own in a temporary folder, never the developer's .dev/: n8n logs to a file, a
 * second dev on the same folder or port refuses and changes nothing, a dev killed with SIGKILL
 * leaves nothing running within 15 seconds, and the next dev takes over its stale lock and stops
 * cleanly on Ctrl-C. Every process a dev started is recorded from /proc while it runs, and
 * stopped by PID after the suite, also when a test fails.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { BROWSER_ID, type Json, rt, waitFor } from './support';

const DEV_SCRIPT = path.join(__dirname, '..', '..', 'scripts', 'dev.js');
const OWNER = { email: 'owner@example.com', password: 'EquipmentRental1' };
const START_TIMEOUT_MS = 240_000;
/** What the issue allows between a SIGKILL of dev and nothing of it running. */
const SIGKILL_CLEANUP_MS = 15_000;
/** A refusal comes before anything starts: seconds, with margin for a loaded machine. */
const REFUSAL_TIMEOUT_MS = 30_000;
/** The first dev's --admin-token; the second dev runs with the default the README gives. */
const CUSTOM_ADMIN_TOKEN = 'e2e-admin-token-7d1f';
/** The first dev's sandbox runs 10 minutes behind this machine (`npm run sandbox`'s flag). */
const CLOCK_OFFSET_MS = -600_000;
/** The sandbox's runtime options the first dev is given, in the forms `npm run sandbox` takes. */
const SANDBOX_FLAGS = [
	'--error-dialect',
	'problem',
	`--clock-offset=${CLOCK_OFFSET_MS}`,
	'--max-page-size=7',
	'--strict',
	'true',
];
/** Where the sandbox's administration paths are documented, with their shell lines. */
const SANDBOX_DOCS = path.join(__dirname, '..', '..', 'docs', 'development.md');

interface Dev {
	child: ChildProcess;
	output(): string;
	exited: Promise<number | string>;
}

/** Every process any dev of this suite started, by PID and start time (a reused PID is not it). */
const started = new Map<number, string>();

function record(pid: number): void {
	for (const stat of rt.descendants(pid)) started.set(stat.pid, stat.startTime);
}

function stillRunning(): number[] {
	return [...started].filter(([pid, time]) => rt.isProcessRunning(pid, time)).map(([pid]) => pid);
}

const devs: Dev[] = [];

function startDev(
	on: { userFolder: string; port: number; sandboxPort: number },
	flags: string[] = [],
): Dev {
	const args = [
		`--user-folder=${on.userFolder}`,
		`--port=${on.port}`,
		`--sandbox-port=${on.sandboxPort}`,
		...flags,
	];
	const env = { ...process.env };
	delete env.NODE_ENV;
	delete env.JEST_WORKER_ID;
	const child = spawn(process.execPath, [DEV_SCRIPT, '--skip-build', ...args], {
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
		// Its own process group, as in a terminal; the guard stops it if this suite dies.
		detached: true,
	});
	rt.guardProcessGroup(child.pid!);
	let output = '';
	for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (d) => (output += d));
	const recorder = setInterval(() => record(child.pid!), 500);
	const exited = new Promise<number | string>((resolve) =>
		child.on('exit', (code, signal) => {
			clearInterval(recorder);
			resolve(code ?? signal!);
		}),
	);
	const dev = { child, output: () => output, exited };
	devs.push(dev);
	return dev;
}

async function whenReady(dev: Dev): Promise<void> {
	const ready = /is ready \(/;
	let exitCode: number | string | undefined;
	void dev.exited.then((code) => (exitCode = code));
	await waitFor(
		'npm run dev to print that n8n is ready',
		async () => {
			if (exitCode !== undefined) throw new Error(`dev exited (${exitCode}):\n${dev.output()}`);
			return ready.test(dev.output()) || undefined;
		},
		{ timeoutMs: START_TIMEOUT_MS, explain: dev.output },
	);
	record(dev.child.pid!);
}

/** The exit code of a dev expected to refuse at once; fails with its output if it starts instead. */
async function refusal(dev: Dev): Promise<number | string> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(
			() => reject(new Error(`dev did not refuse:\n${dev.output()}`)),
			REFUSAL_TIMEOUT_MS,
		);
	});
	try {
		return await Promise.race([dev.exited, timeout]);
	} finally {
		clearTimeout(timer);
	}
}

function readLock(userFolder: string): Json {
	return JSON.parse(fs.readFileSync(path.join(userFolder, 'dev-lock.json'), 'utf8'));
}

/** The sandbox credential as the running n8n holds it, read through the editor's REST API. */
async function sandboxCredential(url: string): Promise<Json> {
	const cookie = await rt.login(url, OWNER);
	const response = await fetch(`${url}/rest/credentials/${rt.CREDENTIAL_ID}?includeData=true`, {
		headers: { cookie, 'browser-id': BROWSER_ID },
	});
	if (!response.ok) throw new Error(`credential: HTTP ${response.status} ${await response.text()}`);
	const { data } = (await response.json()) as Json;
	return { baseUrl: data.data.baseUrl, updatedAt: data.updatedAt };
}

async function waitUntilGone(what: string, timeoutMs: number, ports: number[]): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const running = stillRunning();
		const busy: number[] = [];
		for (const port of ports) if (!(await rt.isPortFree(port))) busy.push(port);
		if (!running.length && !busy.length) return;
		if (Date.now() > deadline) {
			const describe = running.map((pid) => `${pid} ${rt.commandLine(pid)}`).join('\n');
			throw new Error(`${what}: still running:\n${describe}\nports still busy: ${busy}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** Whether a server could listen on the port at 127.0.0.1 and at ::1 (where the machine has it). */
async function freeAtLoopback(port: number): Promise<boolean> {
	for (const host of ['127.0.0.1', '::1']) {
		const server = net.createServer();
		const free = await new Promise<boolean>((resolve) => {
			server.once('error', (error: NodeJS.ErrnoException) =>
				resolve(error.code === 'EADDRNOTAVAIL' || error.code === 'EAFNOSUPPORT'),
			);
			server.listen(port, host, () => server.close(() => resolve(true)));
		});
		if (!free) return false;
	}
	return true;
}

/** The admin token dev printed on its "Admin:" line. */
function printedAdminToken(dev: Dev): string | undefined {
	return /Admin: .*\(Bearer token: ([^;)]+)/.exec(dev.output())?.[1];
}

/**
 * The documented shell lines for the sandbox's administration paths (docs/development.md), as
 * written, pointed at this dev's sandbox port and at a model of its sandbox.
 */
function documentedAdminLines(sandboxUrl: string, modelId: string): string {
	const blocks = [...fs.readFileSync(SANDBOX_DOCS, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)];
	const block = blocks.map((match) => match[1]).find((text) => text.includes('/_sandbox/models/'));
	if (!block)
		throw new Error("docs/development.md has no sh block for the models' /_sandbox paths");
	return block.replaceAll('http://localhost:4010', sandboxUrl).replaceAll('<model id>', modelId);
}

/** Runs shell lines one by one with bash and returns what each curl printed. */
function runShellLines(lines: string): string[] {
	const outputs: string[] = [];
	const env: string[] = [];
	for (const line of lines.split('\n').map((text) => text.trim())) {
		if (!line || line.startsWith('#')) continue;
		if (/^\w+=/.test(line)) {
			env.push(line);
			continue;
		}
		const result = spawnSync('bash', ['-c', [...env, line].join('\n')], { encoding: 'utf8' });
		if (result.status !== 0) throw new Error(`${line}\nexited ${result.status}: ${result.stderr}`);
		outputs.push(result.stdout);
	}
	return outputs;
}

/** The first equipment model the sandbox of `sandboxUrl` lists, read with the API's token. */
async function someModelId(sandboxUrl: string): Promise<string> {
	const response = await fetch(
		`${sandboxUrl}/master-data/v1/equipment-management/models?page=1&limit=1`,
		{ headers: { authorization: 'Bearer sandbox-token', accept: 'application/json' } },
	);
	const { content } = (await response.json()) as Json;
	return content[0].id;
}

let tmp: string;
let userFolder: string;
let port: number;
let sandboxPort: number;
let first: Dev;

beforeAll(async () => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'equipment-rental-dev-e2e-'));
	userFolder = path.join(tmp, 'n8n-user');
	port = await rt.getFreePort();
	sandboxPort = await rt.getFreePort();
	first = startDev({ userFolder, port, sandboxPort }, [
		`--admin-token=${CUSTOM_ADMIN_TOKEN}`,
		...SANDBOX_FLAGS,
	]);
	await whenReady(first);
}, START_TIMEOUT_MS + 10_000);

afterAll(async () => {
	for (const dev of devs) {
		if (dev.child.exitCode === null && dev.child.signalCode === null) record(dev.child.pid!);
		try {
			process.kill(-dev.child.pid!, 'SIGKILL');
		} catch {
			// The group has already exited.
		}
	}
	for (const pid of stillRunning()) {
		try {
			process.kill(-(rt.processStat(pid)?.pgid ?? pid), 'SIGKILL');
			process.kill(pid, 'SIGKILL');
		} catch {
			// Already gone.
		}
	}
	fs.rmSync(tmp, { recursive: true, force: true });
});

test('n8n writes its log to a file in the user folder, not to a pipe through dev', () => {
	const { n8n } = readLock(userFolder);
	const logFile = path.join(userFolder, 'n8n.log');
	expect(fs.readlinkSync(`/proc/${n8n.pid}/fd/1`)).toBe(logFile);
	expect(fs.readlinkSync(`/proc/${n8n.pid}/fd/2`)).toBe(logFile);
	expect(fs.readFileSync(logFile, 'utf8')).toContain(`Editor is now accessible via:`);
	// dev follows the log onto its own output, as the terminal showed it before.
	expect(first.output()).toContain(`http://localhost:${port}\n`);
});

test('the admin path takes the --admin-token dev printed, and refuses the API token', async () => {
	const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
	expect(printedAdminToken(first)).toBe(CUSTOM_ADMIN_TOKEN);
	const touch = (token: string, modelId: string) =>
		fetch(`${sandboxUrl}/_sandbox/models/${modelId}/touch`, {
			method: 'POST',
			headers: { authorization: `Bearer ${token}` },
		});
	const modelId = await someModelId(sandboxUrl);

	const touched = await touch(CUSTOM_ADMIN_TOKEN, modelId);
	expect(touched.status).toBe(200);
	expect(((await touched.json()) as Json).id).toBe(modelId);
	expect((await touch('sandbox-token', modelId)).status).toBe(401);
});

test("dev runs the sandbox with the runtime options it was given, as npm run sandbox's flags, and prints them", async () => {
	const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
	const headers = { authorization: 'Bearer sandbox-token', accept: 'application/json' };

	const missing = await fetch(
		`${sandboxUrl}/master-data/v1/client-management/clients/00000000-0000-4000-8000-000000000000`,
		{ headers },
	);
	expect(missing.status).toBe(404);
	expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
	expect(((await missing.json()) as Json).detail).toContain('00000000-0000-4000-8000-000000000000');

	const clients = await fetch(
		`${sandboxUrl}/master-data/v1/client-management/clients?page=1&limit=20`,
		{ headers },
	);
	expect(((await clients.json()) as Json).content).toHaveLength(7);
	const apiClock = Date.parse(clients.headers.get('date')!);
	expect(Math.abs(apiClock - (Date.now() + CLOCK_OFFSET_MS))).toBeLessThan(60_000);

	expect(first.output()).toContain('errors: problem dialect, strict bodies');
	expect(first.output()).toContain(`clock offset: ${CLOCK_OFFSET_MS} ms`);
	expect(first.output()).toContain('max page size: 7');
});

test('dev refuses a sandbox option the sandbox cannot take, naming the flag, and creates nothing', async () => {
	const otherFolder = path.join(tmp, 'wrong-option-user');
	const wrong = startDev(
		{ userFolder: otherFolder, port: await rt.getFreePort(), sandboxPort: await rt.getFreePort() },
		['--error-dialect', 'xml'],
	);

	expect(await refusal(wrong)).toBe(1);
	expect(wrong.output()).toContain('[dev] --error-dialect must be one of message, message-list,');
	expect(fs.existsSync(otherFolder)).toBe(false);
});

test("dev prints the sandbox's seeded IDs, each of which the sandbox knows", async () => {
	const output = first.output();
	const printed = Object.fromEntries(
		[...output.matchAll(/^\s+(\w+Id|distanceDate)\s+(\S+)$/gm)].map((match) => [
			match[1],
			match[2],
		]),
	);
	expect(Object.keys(printed)).toEqual(
		expect.arrayContaining(['clientId', 'contractId', 'customPriceId', 'releaseId', 'modelId']),
	);
	const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
	const models = await fetch(
		`${sandboxUrl}/master-data/v1/equipment-management/models?ids=${printed.modelId}&page=1&limit=1`,
		{ headers: { authorization: 'Bearer sandbox-token', accept: 'application/json' } },
	);
	expect(((await models.json()) as Json).total).toBe(1);
	const priceList = await fetch(
		`${sandboxUrl}/master-data/v1/product-management/products/price-lists/custom/${printed.customPriceId}?page=1&limit=1`,
		{ headers: { authorization: 'Bearer sandbox-token', accept: 'application/json' } },
	);
	expect(priceList.status).toBe(200);
});

test('a second dev on the same user folder says which dev runs there, and changes nothing', async () => {
	const url = `http://localhost:${port}`;
	const before = await sandboxCredential(url);
	expect(before.baseUrl).toBe(`http://127.0.0.1:${sandboxPort}`);
	const lockBefore = readLock(userFolder);

	// Other ports, so that only the user folder stands in its way.
	const second = startDev({
		userFolder,
		port: await rt.getFreePort(),
		sandboxPort: await rt.getFreePort(),
	});

	expect(await refusal(second)).toBe(1);
	expect(second.output()).toContain(`another npm run dev (PID ${first.child.pid})`);
	expect(second.output()).toContain(`its editor: ${url}/`);
	expect(second.output()).toContain(`n8n PID ${lockBefore.n8n.pid}`);
	expect(readLock(userFolder)).toEqual(lockBefore);
	expect(await sandboxCredential(url)).toEqual(before);
	expect((await fetch(`${url}/healthz`)).ok).toBe(true);
});

test('a second dev on a port in use names the process that holds it, creates nothing, and suggests free ports', async () => {
	const otherFolder = path.join(tmp, 'other-user');
	const { n8n } = readLock(userFolder);
	const otherSandboxPort = await rt.getFreePort();
	// The port after n8n's taken at the IPv6 loopback only, where "localhost" may lead as well.
	const ipv6Holder = net.createServer();
	await new Promise<void>((resolve) => {
		ipv6Holder.once('error', () => resolve());
		ipv6Holder.listen(port + 1, '::1', resolve);
	});

	try {
		const second = startDev({ userFolder: otherFolder, port, sandboxPort: otherSandboxPort });

		expect(await refusal(second)).toBe(1);
		expect(second.output()).toContain(`port ${port} is in use by PID ${n8n.pid} (`);
		expect(second.output()).toContain('--port <port>');
		// The suggestion: the next port after n8n's that is free at both loopback addresses, and the
		// sandbox port asked for, which is free.
		let expectedPort = port + 1;
		while (expectedPort === otherSandboxPort || !(await freeAtLoopback(expectedPort)))
			expectedPort++;
		expect(second.output()).toContain(
			`--port ${expectedPort} --sandbox-port ${otherSandboxPort}\n`,
		);
		// It created nothing: no user folder, no n8n database, no lock left behind.
		expect(fs.existsSync(otherFolder)).toBe(false);
		expect((await fetch(`http://localhost:${port}/healthz`)).ok).toBe(true);
	} finally {
		await new Promise((resolve) => ipv6Holder.close(resolve));
	}
});

test('a user folder of another n8n version, or a version not tested, is refused', async () => {
	const otherFolder = path.join(tmp, 'older-n8n-user');
	fs.mkdirSync(otherFolder);
	fs.writeFileSync(path.join(otherFolder, 'dev-state.json'), '{ "n8nVersion": "1.85.4" }');
	const on = {
		userFolder: otherFolder,
		port: await rt.getFreePort(),
		sandboxPort: await rt.getFreePort(),
	};

	const otherVersion = startDev(on);
	expect(await refusal(otherVersion)).toBe(1);
	expect(otherVersion.output()).toContain(
		`holds the data of n8n 1.85.4, not ${rt.n8nVersion()}: add --reset`,
	);
	expect(fs.existsSync(path.join(otherFolder, '.n8n', 'database.sqlite'))).toBe(false);
	// Refused before anything was installed into the folder or started.
	expect(fs.readdirSync(otherFolder)).toEqual(['dev-state.json']);

	const untested = startDev(on, ['--n8n=1.0.0']);
	expect(await refusal(untested)).toBe(1);
	expect(untested.output()).toContain('--n8n must be one of the tested versions (1.85.4, ');
});

test('a dev killed with SIGKILL leaves nothing running within 15 seconds', async () => {
	record(first.child.pid!);
	const n8n = readLock(userFolder).n8n;
	expect(started.get(n8n.pid)).toBe(n8n.startTime);
	expect(rt.commandLine(n8n.pid)).toMatch(/n8n start$/);
	const taskRunner = rt
		.descendants(n8n.pid)
		.find((p) => /task-runner/.test(rt.commandLine(p.pid)!));
	expect(taskRunner).toBeDefined();

	process.kill(first.child.pid!, 'SIGKILL');

	await waitUntilGone('after SIGKILL of dev', SIGKILL_CLEANUP_MS, [port, sandboxPort]);
	const groups = new Set([n8n.pid, first.child.pid]);
	const inGroups = rt.allProcesses().filter((p) => groups.has(p.pgid) && p.state !== 'Z');
	expect(inGroups).toEqual([]);
});

test(
	'the next dev takes over the stale lock, and Ctrl-C stops everything it started',
	async () => {
		expect(readLock(userFolder).pid).toBe(first.child.pid);
		const again = startDev({ userFolder, port, sandboxPort });
		await whenReady(again);
		expect(readLock(userFolder).pid).toBe(again.child.pid);
		expect(stillRunning().length).toBeGreaterThan(0);

		// Without --admin-token, the documented admin lines work as written.
		expect(printedAdminToken(again)).toBe('sandbox-admin-token');
		const sandboxUrl = `http://localhost:${sandboxPort}`;
		const modelId = await someModelId(sandboxUrl);
		const answers = runShellLines(documentedAdminLines(sandboxUrl, modelId)).map(
			(text) => JSON.parse(text) as Json,
		);
		expect(answers).toEqual([
			expect.objectContaining({ id: modelId }),
			expect.objectContaining({ id: modelId, name: 'Renamed' }),
			expect.objectContaining({ name: 'New excavator' }),
			{ success: true },
		]);

		// What a terminal's Ctrl-C does: SIGINT to the foreground process group.
		process.kill(-again.child.pid!, 'SIGINT');

		expect(await again.exited).toBe(0);
		await waitUntilGone('after Ctrl-C', SIGKILL_CLEANUP_MS, [port, sandboxPort]);
		expect(fs.existsSync(path.join(userFolder, 'dev-lock.json'))).toBe(false);
		expect(again.output()).toContain('[dev] stopped');
	},
	START_TIMEOUT_MS + 60_000,
);
