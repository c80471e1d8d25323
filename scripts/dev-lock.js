'use strict';
/**
 * One `npm run dev` per n8n user folder. Two n8n processes on one SQLite database, each importing
 * the sandbox credential pointing at its own sandbox, would rewrite each other's data. The lock is
 * a file in the user folder naming the dev that holds it, its URLs and, once started, its n8n: what
 * a second dev tells the user. A lock whose process is gone (a dev killed with SIGKILL) is taken
 * over; its start time is kept with the PID so that a PID the system has reused does not count.
 */

const fs = require('node:fs');
const path = require('node:path');

const { isProcessRunning, processStat } = require('./runtime/process-info');

const LOCK_FILE = 'dev-lock.json';

function readLock(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return undefined;
	}
}

/** Writes the file whole or not at all: a reader never sees half a record. */
function writeWhole(file, record, { replace }) {
	const temporary = `${file}.${process.pid}`;
	fs.writeFileSync(temporary, JSON.stringify(record, null, 2) + '\n');
	try {
		// link() fails if the lock exists, where rename() would replace it.
		if (replace) fs.renameSync(temporary, file);
		else fs.linkSync(temporary, file);
	} finally {
		fs.rmSync(temporary, { force: true });
	}
}

function processRecord(pid) {
	return { pid, startTime: processStat(pid)?.startTime };
}

/**
 * Takes the user folder's lock for this process, recording `facts` (its URLs). Returns
 * { lock } when taken, with `previous`: the record of a dead holder it replaced (its n8n may
 * still be stopping), or { holder }: the record of the live dev that holds it.
 */
function acquireDevLock(userFolder, facts) {
	fs.mkdirSync(userFolder, { recursive: true });
	const file = path.join(userFolder, LOCK_FILE);
	const record = { ...processRecord(process.pid), startedAt: new Date().toISOString(), ...facts };
	let previous;
	for (;;) {
		try {
			writeWhole(file, record, { replace: false });
			break;
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
		}
		const holder = readLock(file);
		if (holder && isProcessRunning(holder.pid, holder.startTime)) return { holder };
		previous = holder;
		fs.rmSync(file, { force: true });
	}
	const lock = {
		file,
		/** Adds what became known since (the n8n process) to the record. */
		update(more) {
			Object.assign(record, more);
			writeWhole(file, record, { replace: true });
		},
		release() {
			if (readLock(file)?.pid === process.pid) fs.rmSync(file, { force: true });
		},
	};
	return { lock, previous };
}

module.exports = { LOCK_FILE, acquireDevLock, processRecord };
