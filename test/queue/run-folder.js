'use strict';
/**
 * The queue suite's run folder (data of PostgreSQL, Redis and every n8n process, their logs) and the
 * list of the process groups the suite started, kept in a file in that folder. Whoever ends the run
 * stops the same processes in the same order and removes the folder: the suite itself, the global
 * teardown after a failure, or the SIGINT/SIGTERM handler the global setup installs.
 */

const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const REGISTRY_FILE = 'processes.json';
/** n8n first: a main whose Redis or database went away hangs waiting for its executions. */
const STOP_ORDER = ['n8n', 'service'];
const STOP_TIMEOUT_MS = 20000;

/**
 * @typedef {object} StartedProcess
 * @property {string} name
 * @property {number} pid the leader of its own process group
 * @property {'n8n' | 'service'} kind
 * @property {NodeJS.Signals} stopSignal
 * @property {number[]} ports loopback ports it listens on
 * @property {boolean} stopped
 */

const RUN_FOLDER_PREFIX = 'equipment-rental-queue-';
const OWNER_FILE = 'owner.pid';

/** A new run folder, owned by this process. */
function createRunFolder() {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), RUN_FOLDER_PREFIX));
	// PostgreSQL runs as its own user when the suite runs as root: it must reach its data folder.
	fs.chmodSync(root, 0o711);
	fs.writeFileSync(path.join(root, OWNER_FILE), String(process.pid));
	return root;
}

function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

/**
 * Stops what earlier runs left when their own process was killed outright (SIGKILL leaves no
 * chance to clean up): run folders whose owner is gone. Returns the folders it cleared.
 */
async function stopOrphanedRuns() {
	const cleared = [];
	for (const name of fs.readdirSync(os.tmpdir())) {
		if (!name.startsWith(RUN_FOLDER_PREFIX) || name.endsWith('-figures.txt')) continue;
		const root = path.join(os.tmpdir(), name);
		let owner;
		try {
			owner = Number(fs.readFileSync(path.join(root, OWNER_FILE), 'utf8'));
		} catch {
			continue;
		}
		if (isAlive(owner)) continue;
		await stopEverything(root);
		fs.rmSync(`${root}-figures.txt`, { force: true });
		cleared.push(root);
	}
	return cleared;
}

/** @returns {StartedProcess[]} */
function readRegistry(root) {
	try {
		return JSON.parse(fs.readFileSync(path.join(root, REGISTRY_FILE), 'utf8'));
	} catch {
		return [];
	}
}

function writeRegistry(root, entries) {
	fs.writeFileSync(path.join(root, REGISTRY_FILE), JSON.stringify(entries, null, 2));
}

/** @param {Omit<StartedProcess, 'stopped'>} entry */
function recordProcess(root, entry) {
	writeRegistry(root, [...readRegistry(root), { ...entry, stopped: false }]);
}

function markStopped(root, pid) {
	writeRegistry(
		root,
		readRegistry(root).map((entry) => (entry.pid === pid ? { ...entry, stopped: true } : entry)),
	);
}

/**
 * The processes of the group that are not zombies (a killed group's orphans wait for init to reap
 * them). Read from /proc; elsewhere, whether the group can be signalled at all.
 */
function runningMembers(pgid) {
	if (!fs.existsSync('/proc/self/stat')) {
		try {
			process.kill(-pgid, 0);
			return [pgid];
		} catch (error) {
			return error.code === 'EPERM' ? [pgid] : [];
		}
	}
	return fs.readdirSync('/proc').flatMap((entry) => {
		if (!/^\d+$/.test(entry)) return [];
		let stat;
		try {
			stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
		} catch {
			return [];
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
		const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return Number(pgrp) === pgid && state !== 'Z' ? [Number(entry)] : [];
	});
}

/**
 * Live processes working in the run folder: every process the suite starts runs there (n8n in its
 * user folder, PostgreSQL and Redis in their data folders), also one started while the run is being
 * stopped, before it could be recorded. A zombie has no working folder. Linux only (/proc);
 * elsewhere the record must do.
 */
function processesWorkingIn(root) {
	if (!fs.existsSync('/proc/self/cwd')) return [];
	return fs.readdirSync('/proc').flatMap((entry) => {
		if (!/^\d+$/.test(entry) || Number(entry) === process.pid) return [];
		let cwd;
		try {
			cwd = fs.readlinkSync(`/proc/${entry}/cwd`).replace(/ \(deleted\)$/, '');
		} catch {
			return [];
		}
		return cwd === root || cwd.startsWith(`${root}/`) ? [Number(entry)] : [];
	});
}

function killProcessesWorkingIn(root) {
	for (const pid of processesWorkingIn(root)) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch {}
	}
}

function signalGroup(pgid, signal) {
	try {
		process.kill(-pgid, signal);
	} catch {}
}

async function waitForGroupsToEnd(pgids, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	while (pgids.some((pgid) => runningMembers(pgid).length > 0) && Date.now() < deadline)
		await new Promise((resolve) => setTimeout(resolve, 200));
}

/**
 * Stops every recorded process group that is still marked running (n8n first, then Redis and
 * PostgreSQL; each its stop signal, then SIGKILL after a grace period), kills whatever else still
 * works in the run folder, and removes the folder. Returns everything the run had recorded.
 * @returns {Promise<StartedProcess[]>}
 */
async function stopEverything(root) {
	const entries = readRegistry(root);
	for (const kind of STOP_ORDER) {
		const running = entries.filter((entry) => entry.kind === kind && !entry.stopped);
		for (const entry of running) signalGroup(entry.pid, entry.stopSignal);
		await waitForGroupsToEnd(
			running.map((entry) => entry.pid),
			STOP_TIMEOUT_MS,
		);
		for (const entry of running) signalGroup(entry.pid, 'SIGKILL');
		await waitForGroupsToEnd(
			running.map((entry) => entry.pid),
			5000,
		);
	}
	killProcessesWorkingIn(root);
	// A process that was still writing (a log) can fill a folder again while it is removed.
	fs.rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
	// Started meanwhile, by an interrupted run that went on; nothing can start there any more.
	killProcessesWorkingIn(root);
	return entries.map((entry) => ({ ...entry, stopped: true }));
}

function isPortFree(port) {
	return new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/**
 * What the run left behind: process groups with a live process, ports still taken, the run folder.
 * Empty when everything is gone.
 * @param {string} root
 * @param {Array<Pick<StartedProcess, 'name' | 'pid' | 'ports'>>} entries
 * @param {number[]} [otherPorts] ports of what the suite ran in its own process (the sandbox)
 */
async function leftovers(root, entries, otherPorts = []) {
	// init reaps orphaned zombies within a few seconds.
	await waitForGroupsToEnd(
		entries.map((entry) => entry.pid),
		10000,
	);
	const strays = processesWorkingIn(root);
	const found = strays.length
		? [`processes still working in the run folder: ${strays.join(', ')}`]
		: [];
	found.push(
		...entries.flatMap((entry) => {
			const members = runningMembers(entry.pid);
			return members.length
				? [`${entry.name}: process group ${entry.pid} still runs (${members.join(', ')})`]
				: [];
		}),
	);
	for (const port of [...entries.flatMap((entry) => entry.ports), ...otherPorts]) {
		if (!(await isPortFree(port))) found.push(`port ${port} is still in use`);
	}
	if (fs.existsSync(root)) found.push(`the run folder ${root} still exists`);
	return found;
}

module.exports = {
	createRunFolder,
	stopOrphanedRuns,
	recordProcess,
	markStopped,
	stopEverything,
	leftovers,
};
