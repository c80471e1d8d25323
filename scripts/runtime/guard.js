'use strict';
/**
 * A guard stops a process group (an n8n with its task runner) when the process that started it
 * is gone, however it went: Ctrl-C, SIGKILL, a crash, a closed terminal. Without it an n8n whose
 * parent died keeps the port, and one whose output was a pipe to that parent spins at full CPU.
 *
 * The guard is a small Node process whose stdin is a pipe from its owner. The kernel closes the
 * owner's end when the owner exits for any reason (no other process holds it: Node opens pipes
 * close-on-exec), so end of input means "the owner is gone". The guard runs in a session of its
 * own, so that Ctrl-C and a closed terminal, which signal the owner's process group, leave it
 * alive to do its work. It exits by itself once the group is gone.
 *
 *   node guard.js <process group id>
 */

const { spawn } = require('node:child_process');

/** Time for n8n to close its database on SIGTERM before the group is killed. */
const GRACE_MS = 7000;
const POLL_MS = 200;

function isGroupAlive(pgid) {
	try {
		process.kill(-pgid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

function signalGroup(pgid, signal) {
	try {
		process.kill(-pgid, signal);
	} catch {}
}

/** SIGTERM to the group, then SIGKILL to whatever is left of it after graceMs. */
async function stopGroup(pgid, graceMs = GRACE_MS) {
	signalGroup(pgid, 'SIGTERM');
	const deadline = Date.now() + graceMs;
	while (isGroupAlive(pgid) && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, POLL_MS));
	}
	signalGroup(pgid, 'SIGKILL');
}

/**
 * Starts a guard over the process group of `pid` (a child spawned with `detached: true`, which
 * leads its own group) on behalf of this process. Neither the guard nor its pipe keeps this
 * process alive.
 */
function guardProcessGroup(pid) {
	const guard = spawn(process.execPath, [__filename, String(pid)], {
		detached: true,
		stdio: ['pipe', 'ignore', 'ignore'],
	});
	guard.unref();
	guard.stdin.unref();
	return guard;
}

function runGuard(pgid) {
	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		stopGroup(pgid).then(() => process.exit(0));
	};
	process.stdin.on('end', stop);
	process.stdin.on('error', stop);
	process.stdin.resume();
	// A signal aimed at the guard itself means its work is wanted now.
	for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, stop);
	setInterval(() => {
		if (!stopping && !isGroupAlive(pgid)) process.exit(0);
	}, 1000);
}

if (require.main === module) {
	const pgid = Number(process.argv[2]);
	if (!Number.isInteger(pgid) || pgid <= 1) {
		console.error('usage: node guard.js <process group id>');
		process.exit(2);
	}
	runGuard(pgid);
}

module.exports = { guardProcessGroup, stopGroup, isGroupAlive };
