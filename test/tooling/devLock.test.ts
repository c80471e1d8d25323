/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-dangerous-functions
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * The lock that keeps two `npm run dev` off one n8n user folder (scripts/dev-lock.js): a live
 * holder refuses, a holder that is gone (or whose PID now belongs to another process) does not.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

// The dev scripts are plain JavaScript so that they run without a build step.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { LOCK_FILE, acquireDevLock } = require('../../scripts/dev-lock');

const FACTS = { url: 'http://localhost:5678', sandboxUrl: 'http://127.0.0.1:4010' };

let userFolder: string;
const lockFile = () => path.join(userFolder, LOCK_FILE);
const writeLock = (record: object) => fs.writeFileSync(lockFile(), JSON.stringify(record));
const readLock = () => JSON.parse(fs.readFileSync(lockFile(), 'utf8'));

beforeEach(() => {
	userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-lock-test-'));
});
afterEach(() => fs.rmSync(userFolder, { recursive: true, force: true }));

test('the first dev takes the lock and records itself and its URLs', () => {
	const { lock, holder, previous } = acquireDevLock(userFolder, FACTS);

	expect(holder).toBeUndefined();
	expect(previous).toBeUndefined();
	expect(readLock()).toMatchObject({ pid: process.pid, ...FACTS });
	lock.update({ n8n: { pid: 1234 } });
	expect(readLock()).toMatchObject({ pid: process.pid, ...FACTS, n8n: { pid: 1234 } });
	lock.release();
	expect(fs.existsSync(lockFile())).toBe(false);
});

test('a second dev gets the live holder and leaves its lock as it is', () => {
	acquireDevLock(userFolder, FACTS);
	const before = readLock();

	const second = acquireDevLock(userFolder, { url: 'http://localhost:5679' });

	expect(second.lock).toBeUndefined();
	expect(second.holder).toEqual(before);
	expect(readLock()).toEqual(before);
});

test('a lock whose process is gone is taken over and handed back as previous', () => {
	const gone = spawnSync(process.execPath, ['-e', '']).pid;
	const stale = { pid: gone, url: 'http://localhost:5678', n8n: { pid: 99999 } };
	writeLock(stale);

	const { lock, previous } = acquireDevLock(userFolder, FACTS);

	expect(lock).toBeDefined();
	expect(previous).toEqual(stale);
	expect(readLock().pid).toBe(process.pid);
});

const linuxOnly = fs.existsSync('/proc/self/stat') ? test : test.skip;
linuxOnly('a lock naming a PID that now belongs to another process is stale', () => {
	writeLock({ pid: process.pid, startTime: '1', url: 'http://localhost:5678' });

	const { lock, previous } = acquireDevLock(userFolder, FACTS);

	expect(lock).toBeDefined();
	expect(previous.startTime).toBe('1');
});

test('an unreadable lock (a dev killed while writing) is taken over', () => {
	fs.writeFileSync(lockFile(), '{"pid": 12');

	expect(acquireDevLock(userFolder, FACTS).lock).toBeDefined();
});

test('release leaves a lock another dev has taken since', () => {
	const { lock } = acquireDevLock(userFolder, FACTS);
	const other = { pid: process.ppid, url: 'http://localhost:5679' };
	writeLock(other);

	lock.release();

	expect(readLock()).toEqual(other);
});
