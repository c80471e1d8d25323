#!/usr/bin/env node
'use strict';
/**
 * npm run dev: a real n8n (pinned) with this package loaded, talking to the local sandbox.
 *
 *   node scripts/dev.js [--port 5678] [--sandbox-port 4010] [--token sandbox-token]
 *                       [--user-folder .dev/n8n-user]
 *                       [--admin-token sandbox-admin-token] [--skip-build] [--reset]
 *                       [--n8n 2.8.4] [--help]
 *                       [the sandbox's runtime options, as `npm run sandbox` takes them:
 *                        --latency MS, --max-page-size N, --fault-rate 0..1, --fault-kinds K,...,
 *                        --fault-seed N, --retry-after S, --slow-ms MS, --clock-offset=MS,
 *                        --error-dialect D, --strict true|false, --rate-limit-rps N,
 *                        --rate-limit-burst N, --rate-limit-in-flight N,
 *                        --rate-limit-retry-after S|date, --rate-limit-headers true|false;
 *                        see sandbox/flags.js]
 *
 * --help (-h) prints every flag, with its default and variable, made from dev-flags.js's DEV_FLAGS
 * and the sandbox's RUNTIME_FLAGS, and exits before anything is built, installed or started; an
 * unknown flag prints the same usage after the error, and exits with 2.
 *
 * Builds the package, starts the sandbox, installs n8n into a cache folder on first use,
 * installs the package into the user folder as a community package, imports the sandbox
 * credential and the example workflows, creates the owner account, and prints the editor URL and
 * login. n8n's output goes to n8n.log in the user folder and is followed here.
 *
 * n8n stops with this process however it stops: Ctrl-C and a closed terminal stop it here, a
 * SIGKILL or a crash through the guard that watches this process (runtime/guard.js); the sandbox
 * runs inside this process. One dev per user folder (dev-lock.js), and a busy port is reported
 * with the process that holds it rather than replaced by another port.
 */

const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { LOCK_FILE, acquireDevLock, processRecord } = require('./dev-lock');
const { suggestPorts } = require('./dev-ports');
const rt = require('./n8n-runtime');
const { DEV_FLAGS, DEV_USAGE } = require('./dev-flags');
const {
	RUNTIME_FLAGS,
	describeRuntimeOptions,
	flagOptions,
	readRuntimeFlags,
	variableOf,
} = require('../sandbox/flags');

/** The owner account created on first start (local development only). */
const OWNER = Object.freeze({
	email: 'owner@example.com',
	password: 'EquipmentRental1',
	firstName: 'Dev',
	lastName: 'Owner',
});

function say(...args) {
	console.log('[dev]', ...args);
}

/** A reason not to start, told to the user as it is (no stack trace), exit code 1. */
class Refusal extends Error {}

/** A command line parseArgs cannot read: told with the usage, exit code 2. */
class UsageError extends Refusal {}

function stateFile(userFolder) {
	return path.join(userFolder, 'dev-state.json');
}

function readState(userFolder) {
	try {
		return JSON.parse(fs.readFileSync(stateFile(userFolder), 'utf8'));
	} catch {
		return {};
	}
}

function writeState(userFolder, state) {
	fs.writeFileSync(stateFile(userFolder), JSON.stringify(state, null, 2) + '\n');
}

function hash(value) {
	return crypto.createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

/** The path as the user would type it: relative inside the current folder, absolute outside. */
function shortPath(file) {
	const relative = path.relative(process.cwd(), file);
	return relative && !relative.startsWith('..') ? relative : file;
}

function clockTime(isoDate) {
	return new Date(isoDate).toLocaleTimeString();
}

// Everything started by main() is stopped by shutdown(), whatever happens in between.
let lock;
let sandbox;
let n8n;
let stopping = false;
async function shutdown(code = 0) {
	if (stopping) return;
	stopping = true;
	if (n8n || sandbox) say('stopping...');
	if (n8n) await n8n.stop().catch(() => {});
	if (sandbox) await sandbox.close().catch(() => {});
	if (lock) lock.release();
	if (n8n || sandbox) say('stopped');
	process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => shutdown(0));
// A closed stdout (the terminal or a `| tee` gone) must not stop the shutdown.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

function parsePort(value, flag) {
	const port = Number(value);
	if (!Number.isInteger(port) || port < 1 || port > 65535) {
		throw new Refusal(`${flag} must be a port number from 1 to 65535, got "${value}"`);
	}
	return port;
}

/**
 * A command line that starts a separate instance: ports checked free (those asked for where they
 * are, else the next free ones), and a user folder of its own.
 */
async function separateInstanceHint(flags, { ownFolder }) {
	const { port, sandboxPort } = await suggestPorts(flags);
	const folder = ownFolder ? `${flags.userFolder}-2` : flags.userFolder;
	return `npm run dev -- --user-folder ${shortPath(folder)} --port ${port} --sandbox-port ${sandboxPort}`;
}

/** The refusal for a user folder that a live dev holds: who, where, and what to do instead. */
async function busyFolderRefusal(holder, flags) {
	const state = holder.n8n
		? `n8n PID ${holder.n8n.pid}, ready since ${clockTime(holder.readyAt)}`
		: `still starting, since ${clockTime(holder.startedAt)}`;
	return new Refusal(
		[
			`another npm run dev (PID ${holder.pid}) is running on the user folder ` +
				`${shortPath(flags.userFolder)}:`,
			`  its editor: ${holder.url}/  (${state})`,
			`  its sandbox: ${holder.sandboxUrl}`,
			"Two n8n instances must not share a user folder: they would rewrite each other's " +
				'credential and database.',
			`Use that one, stop it (Ctrl-C in its terminal, or kill ${holder.pid}), or start a ` +
				'separate instance with its own folder and ports:',
			`  ${await separateInstanceHint(flags, { ownFolder: true })}`,
		].join('\n'),
	);
}

/** Refuses a busy port, naming the process on it, instead of moving to another port. */
async function ensurePortFree(port, flag, flags) {
	if (await rt.isPortFree(port)) return;
	const holder = rt.portHolder(port);
	const who = holder ? `PID ${holder.pid} (${holder.command})` : 'another process';
	throw new Refusal(
		[
			`port ${port} is in use by ${who}, which listens at http://localhost:${port}/`,
			`Stop it, or choose another port with ${flag} <port>, for example:`,
			`  ${await separateInstanceHint(flags, { ownFolder: false })}`,
		].join('\n'),
	);
}

/** The sandbox's runtime options from the flags `npm run sandbox` takes, checked before anything starts. */
function sandboxRuntimeOptions(options) {
	try {
		return readRuntimeFlags(options, process.env);
	} catch (error) {
		throw new Refusal(error.message);
	}
}

/** --reset: empties the user folder but keeps this process's lock. */
function resetUserFolder(userFolder) {
	say(`--reset: emptying ${shortPath(userFolder)}`);
	for (const entry of fs.readdirSync(userFolder)) {
		if (entry !== LOCK_FILE)
			fs.rmSync(path.join(userFolder, entry), { recursive: true, force: true });
	}
}

/** The flags given, dev's own with their variables' or default values filled in. */
function parseDevFlags(args) {
	const options = flagOptions({ ...DEV_FLAGS, ...RUNTIME_FLAGS });
	for (const [name, flag] of Object.entries(DEV_FLAGS)) {
		if (flag.value !== undefined)
			options[name].default = process.env[variableOf(name, flag)] || flag.default;
	}
	try {
		return parseArgs({ args, options }).values;
	} catch (error) {
		if (/^ERR_PARSE_ARGS/.test(error.code)) throw new UsageError(error.message);
		throw error;
	}
}

async function main() {
	const options = parseDevFlags(process.argv.slice(2));
	if (options.help) {
		console.log(DEV_USAGE);
		return;
	}
	if (!rt.VERSIONS.some((spec) => spec.version === options.n8n)) {
		const known = rt.VERSIONS.map((spec) => spec.version).join(', ');
		throw new Refusal(`--n8n must be one of the tested versions (${known}), got "${options.n8n}"`);
	}
	// Every runtime call of this process uses that version.
	process.env[rt.VERSION_VARIABLE] = options.n8n;
	const flags = {
		port: parsePort(options.port, '--port'),
		sandboxPort: parsePort(options['sandbox-port'], '--sandbox-port'),
		token: options.token,
		adminToken: options['admin-token'],
		userFolder: path.resolve(options['user-folder']),
		sandboxOptions: sandboxRuntimeOptions(options),
	};
	const started = Date.now();
	const url = `http://localhost:${flags.port}`;
	const sandboxUrl = `http://127.0.0.1:${flags.sandboxPort}`;

	// A folder that does not exist holds no dev to take over: check the ports before creating it, so
	// that a refusal leaves nothing behind. In an existing one, a dev killed with SIGKILL may have
	// left its n8n on the port: the lock says which, and it is stopped before the ports are checked.
	const userFolderExisted = fs.existsSync(flags.userFolder);
	if (!userFolderExisted) {
		await ensurePortFree(flags.port, '--port', flags);
		await ensurePortFree(flags.sandboxPort, '--sandbox-port', flags);
	}
	const acquired = acquireDevLock(flags.userFolder, { url, sandboxUrl });
	if (acquired.holder) throw await busyFolderRefusal(acquired.holder, flags);
	lock = acquired.lock;
	const orphan = acquired.previous?.n8n;
	if (orphan && rt.isProcessRunning(orphan.pid, orphan.startTime)) {
		say(`the n8n (PID ${orphan.pid}) of a dev that ended abruptly still runs here; stopping it`);
		await rt.stopGroup(orphan.pid);
	}
	if (userFolderExisted) {
		await ensurePortFree(flags.port, '--port', flags);
		await ensurePortFree(flags.sandboxPort, '--sandbox-port', flags);
	}

	if (options.reset) resetUserFolder(flags.userFolder);

	const { userFolder } = flags;
	const state = readState(userFolder);
	// n8n migrates its database forward only: an older n8n may not start on a newer one's. Checked
	// before anything is built, started or installed into the folder.
	if (state.n8nVersion && state.n8nVersion !== rt.n8nVersion()) {
		throw new Refusal(
			`${shortPath(userFolder)} holds the data of n8n ${state.n8nVersion}, not ${rt.n8nVersion()}: ` +
				'add --reset to start it afresh, or --user-folder to use another folder',
		);
	}

	if (!options['skip-build']) {
		say('building the package (npm run build)');
		const build = spawnSync('npm', ['run', '--silent', 'build'], {
			cwd: rt.PACKAGE_ROOT,
			stdio: 'inherit',
		});
		if (build.status !== 0) throw new Error('npm run build failed');
	}

	const { startSandbox } = require(path.join(rt.PACKAGE_ROOT, 'sandbox', 'server'));
	sandbox = await startSandbox({
		...flags.sandboxOptions,
		port: flags.sandboxPort,
		token: flags.token,
		adminToken: flags.adminToken,
	});
	say(`sandbox listening on ${sandbox.url}`);

	await rt.ensureN8n();

	rt.installPackageInto(userFolder);
	rt.ensureFilesDir();
	state.n8nVersion = rt.n8nVersion();
	writeState(userFolder, state);

	// Importing costs an n8n boot each (~6 s): only when something changed.
	const credential = rt.sandboxCredential({ sandboxUrl: sandbox.url, token: flags.token });
	if (state.credential !== hash(credential)) {
		say(`importing credential "${credential.name}" -> ${sandbox.url}`);
		await rt.importCredentials(userFolder, [credential]);
		state.credential = hash(credential);
		writeState(userFolder, state);
	}
	const examples = rt.loadExamples();
	state.examples = state.examples || {};
	const changed = examples.filter((wf) => state.examples[wf.file] !== hash(wf));
	if (changed.length) {
		say(`importing example workflows: ${changed.map((wf) => wf.file).join(', ')}`);
		await rt.importWorkflows(userFolder, changed);
		for (const wf of changed) state.examples[wf.file] = hash(wf);
		writeState(userFolder, state);
	}

	say(`starting n8n ${rt.n8nVersion()} on port ${flags.port}`);
	n8n = await rt.startN8nServer(userFolder, { port: flags.port });
	n8n.child.on('exit', (code) => {
		if (!stopping) {
			say(`n8n exited (${code}); its log: ${shortPath(n8n.logFile)}`);
			shutdown(code || 1);
		}
	});
	lock.update({ n8n: processRecord(n8n.child.pid), readyAt: new Date().toISOString() });

	if (await rt.setupOwner(n8n.url, OWNER)) say(`owner account created: ${OWNER.email}`);

	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	const line = '-'.repeat(72);
	console.log(
		[
			'',
			line,
			`  n8n ${rt.n8nVersion()} with ${rt.PACKAGE_NAME} is ready (${seconds} s)`,
			'',
			`  Editor:      ${n8n.url}/`,
			`  Login:       ${OWNER.email} / ${OWNER.password}`,
			`  Sandbox API: ${sandbox.url}  (Bearer token: ${flags.token})`,
			`  Admin:       ${sandbox.url}/_sandbox/...  (Bearer token: ${flags.adminToken}; see docs/development.md)`,
			...describeRuntimeOptions(flags.sandboxOptions).map(
				([label, text], index) =>
					`${index === 0 ? '  Sandbox:' : ''}`.padEnd(15) + `${label}: ${text}`,
			),
			`  Credential:  "${rt.CREDENTIAL_NAME}" (Equipment Rental API)`,
			"  Sandbox IDs: records of the sandbox's seed data, to paste into a node:",
			...Object.entries(sandbox.store.fixtures).map(
				([name, value]) => `    ${name.padEnd(20)} ${value}`,
			),
			`  Examples:    ${examples.map((wf) => wf.name).join('\n               ')}`,
			`  Files:       workflows may write to ${rt.EXAMPLE_FILES_DIR}`,
			`  User folder: ${shortPath(userFolder)}`,
			`  n8n's log:   ${shortPath(n8n.logFile)} (followed below)`,
			`  Processes:   dev PID ${process.pid}, n8n PID ${n8n.child.pid}`,
			'',
			'  Ctrl-C stops n8n and the sandbox. After a rebuild, restart npm run dev.',
			line,
			'',
		].join('\n'),
	);
}

main().catch((err) => {
	// Wrong flags and refusals are the user's to fix: the message alone says it, and a command line
	// that cannot be read also needs the usage.
	if (err instanceof Refusal) {
		for (const text of err.message.split('\n')) console.error('[dev]', text);
		if (err instanceof UsageError) console.error(`\n${DEV_USAGE}`);
	} else {
		console.error('[dev] failed:', err && err.stack ? err.stack : err);
	}
	shutdown(err instanceof UsageError ? 2 : 1);
});
