'use strict';
/**
 * What Linux's /proc tells about processes: enough to name the process on a port, to tell a live
 * process from one whose PID was reused, and to list what a process started. Elsewhere (no /proc)
 * the answers are "unknown" and callers fall back to a plain PID check.
 */

const fs = require('node:fs');
const path = require('node:path');

/**
 * { pid, ppid, pgid, state, startTime } of a process, or undefined if there is none (or no
 * /proc). startTime (clock ticks since boot) tells a process from a later one with its PID.
 */
function processStat(pid) {
	let text;
	try {
		text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
	} catch {
		return undefined;
	}
	// The command name (in parentheses) may contain spaces; the fields after it do not.
	const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
	return {
		pid: Number(pid),
		state: fields[0],
		ppid: Number(fields[1]),
		pgid: Number(fields[2]),
		startTime: fields[19],
	};
}

function hasProc() {
	return fs.existsSync('/proc/self/stat');
}

/**
 * Whether the process runs (a zombie does not): the same process as when startTime was read,
 * where /proc can tell.
 */
function isProcessRunning(pid, startTime) {
	if (!Number.isInteger(pid) || pid <= 0) return false;
	if (hasProc()) {
		const stat = processStat(pid);
		if (!stat || stat.state === 'Z') return false;
		return startTime === undefined || stat.startTime === startTime;
	}
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

function commandLine(pid) {
	try {
		return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
	} catch {
		return undefined;
	}
}

function allProcesses() {
	let entries = [];
	try {
		entries = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
	} catch {}
	return entries.map(processStat).filter(Boolean);
}

/** Every process below pid (children, their children, ...), as processStat gives them. */
function descendants(pid) {
	const byParent = new Map();
	for (const stat of allProcesses()) {
		if (!byParent.has(stat.ppid)) byParent.set(stat.ppid, []);
		byParent.get(stat.ppid).push(stat);
	}
	const found = [];
	const queue = [pid];
	while (queue.length) {
		for (const child of byParent.get(queue.shift()) || []) {
			found.push(child);
			queue.push(child.pid);
		}
	}
	return found;
}

/** Socket inodes listening on the TCP port (IPv4 and IPv6), from /proc/net/tcp{,6}. */
function listeningInodes(port) {
	const inodes = new Set();
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		let lines = [];
		try {
			lines = fs.readFileSync(table, 'utf8').trim().split('\n').slice(1);
		} catch {}
		for (const line of lines) {
			const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
			const LISTEN = '0A';
			if (state === LISTEN && parseInt(local.split(':')[1], 16) === port) inodes.add(inode);
		}
	}
	return inodes;
}

/** { pid, command } of the process listening on the TCP port, if /proc can tell. */
function portHolder(port) {
	const inodes = listeningInodes(port);
	if (!inodes.size) return undefined;
	for (const { pid } of allProcesses()) {
		const fdDir = `/proc/${pid}/fd`;
		let fds = [];
		try {
			fds = fs.readdirSync(fdDir);
		} catch {}
		for (const fd of fds) {
			let target = '';
			try {
				target = fs.readlinkSync(path.join(fdDir, fd));
			} catch {}
			const match = /^socket:\[(\d+)\]$/.exec(target);
			if (match && inodes.has(match[1])) return { pid, command: commandLine(pid) };
		}
	}
	return undefined;
}

module.exports = {
	processStat,
	isProcessRunning,
	commandLine,
	allProcesses,
	descendants,
	portHolder,
};
