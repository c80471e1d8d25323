/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-dangerous-functions
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * The guard (scripts/runtime/guard.js) that stops a process group when the process that started
 * it dies: here the group is a shell with a child, started by a small owner process that is then
 * killed, as `npm run dev` can be.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isGroupAlive } = require('../../scripts/runtime/guard');

const GUARD = path.join(__dirname, '..', '..', 'scripts', 'runtime', 'guard.js');
/** The guard's SIGTERM grace (7 s) plus margin for a loaded machine. */
const GONE_WITHIN_MS = 20_000;

interface Owner {
	ownerPid: number;
	groupPid: number;
	guardPid: number;
}

/**
 * Starts an owner process that starts `command` as a detached group under a guard; resolves with
 * the PIDs once both run.
 */
function startOwner(command: string): Promise<Owner> {
	const script = `
		const { spawn } = require('node:child_process');
		const { guardProcessGroup } = require(${JSON.stringify(GUARD)});
		const group = spawn('sh', ['-c', ${JSON.stringify(command)}], { detached: true, stdio: 'ignore' });
		const guard = guardProcessGroup(group.pid);
		console.log(JSON.stringify({ groupPid: group.pid, guardPid: guard.pid }));
		setInterval(() => {}, 1000);
	`;
	// Its own process group, as a command in a terminal has.
	const owner = spawn(process.execPath, ['-e', script], {
		stdio: ['ignore', 'pipe', 'inherit'],
		detached: true,
	});
	owners.push(owner.pid!);
	return new Promise((resolve, reject) => {
		owner.stdout!.once('data', (line) => {
			const pids = JSON.parse(String(line));
			groups.push(pids.groupPid);
			resolve({ ownerPid: owner.pid!, ...pids });
		});
		owner.once('exit', (code) => reject(new Error(`owner exited (${code})`)));
	});
}

const owners: number[] = [];
const groups: number[] = [];
afterAll(() => {
	for (const pid of owners) kill(pid);
	for (const pgid of groups) kill(-pgid);
});

function kill(pid: number): void {
	try {
		process.kill(pid, 'SIGKILL');
	} catch {
		// Already gone.
	}
}

function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

async function waitUntil(what: string, condition: () => boolean): Promise<void> {
	const deadline = Date.now() + GONE_WITHIN_MS;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`not within ${GONE_WITHIN_MS} ms: ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

test('the group stops when its owner is killed with SIGKILL', async () => {
	const { ownerPid, groupPid } = await startOwner('sleep 600 & sleep 600; wait');
	expect(isGroupAlive(groupPid)).toBe(true);

	process.kill(ownerPid, 'SIGKILL');

	await waitUntil('group gone', () => !isGroupAlive(groupPid));
}, 30_000);

test('a group that ignores SIGTERM is killed after the grace period', async () => {
	const { ownerPid, groupPid } = await startOwner('trap "" TERM; sleep 600 & sleep 600; wait');

	process.kill(ownerPid, 'SIGKILL');

	await waitUntil('group gone', () => !isGroupAlive(groupPid));
}, 30_000);

test('Ctrl-C or a closed terminal, which signal the owner, do not reach the guard', async () => {
	const { ownerPid, groupPid, guardPid } = await startOwner('sleep 600');

	// What the terminal sends to its foreground process group; the owner dies of the first.
	process.kill(-ownerPid, 'SIGHUP');
	process.kill(-ownerPid, 'SIGINT');

	// The guard outlived the signals to do its work.
	await waitUntil('group gone', () => !isGroupAlive(groupPid));
	await waitUntil('guard gone', () => !isRunning(guardPid));
}, 30_000);

test('the guard ends by itself once the group has ended, and its owner lives on', async () => {
	const { ownerPid, groupPid, guardPid } = await startOwner('sleep 1');

	await waitUntil('group gone', () => !isGroupAlive(groupPid));
	await waitUntil('guard gone', () => !isRunning(guardPid));
	expect(isRunning(ownerPid)).toBe(true);
}, 30_000);
