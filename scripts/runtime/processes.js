'use strict';
/**
 * The n8n processes the scripts and tests start: the environment they run in, the CLI commands
 * (each in its own process group), and a long-running `n8n start` with its owner account.
 */

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const { guardProcessGroup } = require('./guard');
const { ensureN8n, nodeBinary } = require('./install');
const { DEFAULT_ENCRYPTION_KEY, EXAMPLE_FILES_DIR, sleep } = require('./project');
const { versionSpec } = require('./versions');

/** The last `maxChars` characters of a file, or why it could not be read. */
function readTail(file, maxChars) {
	try {
		return fs.readFileSync(file, 'utf8').slice(-maxChars);
	} catch (err) {
		return `(not readable: ${err.message})`;
	}
}

/** A TCP port that is free right now on the loopback interface. */
function getFreePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/**
 * Whether nothing listens on the port at either loopback address: "localhost", the address dev and
 * the tests print, may lead to ::1 as well as to 127.0.0.1, so a server on either one makes the
 * port busy. Where the machine has no IPv6 loopback, nothing can listen on ::1.
 */
async function isPortFree(port) {
	for (const host of ['127.0.0.1', '::1']) if (!(await canListen(port, host))) return false;
	return true;
}

function canListen(port, host) {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.unref();
		srv.once('error', (error) => resolve(['EADDRNOTAVAIL', 'EAFNOSUPPORT'].includes(error.code)));
		srv.listen(port, host, () => srv.close(() => resolve(true)));
	});
}

/**
 * Environment for every n8n process started here: a given user folder, a fixed encryption key,
 * no telemetry, no version checks, no templates, nothing that calls out to the network.
 */
function n8nEnv(userFolder, extra = {}) {
	const env = { ...process.env };
	// Under Jest NODE_ENV is "test", which silences n8n's logger (and with it --rawOutput) and
	// switches n8n into its own unit-test mode.
	delete env.NODE_ENV;
	delete env.JEST_WORKER_ID;
	// Under `npm run`, npm_* variables describe this repository; n8n runs npm itself (community
	// package installs from the editor), which must not inherit them.
	for (const key of Object.keys(env)) if (/^npm_/i.test(key)) delete env[key];
	// Variables of an n8n the developer may run elsewhere must not leak in.
	for (const key of Object.keys(env)) {
		if (/^(N8N_|DB_|EXECUTIONS_|QUEUE_|NODES_)/.test(key) && !(key in extra)) {
			if (key === 'N8N_CACHE_DIR' || key === 'N8N_RUNTIME_QUIET') continue;
			delete env[key];
		}
	}
	return {
		...env,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: DEFAULT_ENCRYPTION_KEY,
		DB_TYPE: 'sqlite',
		// Days ("yesterday", "since yesterday") in the examples follow the instance timezone; the
		// sandbox reports days in UTC. Override with GENERIC_TIMEZONE.
		GENERIC_TIMEZONE: process.env.GENERIC_TIMEZONE || 'UTC',
		// No outbound network: telemetry, version notifications, templates, banners, license renewals.
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		// The list of verified community nodes is fetched from n8n's servers.
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		// Only the JavaScript task runner (no Python virtual environment here).
		N8N_PYTHON_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_SECURE_COOKIE: 'false',
		// n8n compares real paths (on macOS /tmp is /private/tmp).
		N8N_RESTRICT_FILE_ACCESS_TO: ensureFilesDir(),
		// `n8n execute --rawOutput` prints the run through the logger at level info.
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		// What this n8n version needs to run here (versions.js).
		...versionSpec().env,
		...extra,
	};
}

/** Creates the folder file-writing nodes are allowed to use and returns its real path. */
function ensureFilesDir(dir = EXAMPLE_FILES_DIR) {
	fs.mkdirSync(dir, { recursive: true });
	return fs.realpathSync(dir);
}

function killGroup(pid, signal = 'SIGTERM') {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false;
	}
}

/**
 * Runs `n8n <args>` in its own process group; resolves with { code, stdout, stderr, ms }.
 * A run that outlives timeoutMs is killed (whole group) and rejected.
 *
 * Its stdout goes to a file, not a pipe: `n8n execute` prints the run (a megabyte for a thousand
 * items) and then calls process.exit(), which drops what a pipe has not taken yet when a busy
 * machine's reader falls behind (a run was cut off mid-item at load 14). Node writes to a file
 * synchronously, so all of it is there when n8n exits.
 */
async function runN8n(args, { userFolder, env = {}, timeoutMs = 5 * 60 * 1000 } = {}) {
	const bin = await ensureN8n();
	const brokerPort = await getFreePort();
	const started = Date.now();
	const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-stdout-'));
	const outputFile = path.join(outputDir, 'stdout');
	// Read once, whichever of the timeout, the error and the close comes first; the folder goes then.
	let printed;
	const readOutput = () => {
		printed ??= fs.readFileSync(outputFile, 'utf8');
		fs.rmSync(outputDir, { recursive: true, force: true });
		return printed;
	};
	const output = fs.openSync(outputFile, 'w');
	return new Promise((resolve, reject) => {
		let child;
		try {
			child = spawn(nodeBinary(), [bin, ...args], {
				cwd: userFolder,
				env: n8nEnv(userFolder, { N8N_RUNNERS_BROKER_PORT: String(brokerPort), ...env }),
				stdio: ['ignore', output, 'pipe'],
				detached: true,
			});
		} catch (error) {
			readOutput();
			throw error;
		} finally {
			// The child holds its own copy of the descriptor.
			fs.closeSync(output);
		}
		guardProcessGroup(child.pid);
		let stderr = '';
		child.stderr.on('data', (d) => (stderr += d));
		const timer = setTimeout(() => {
			killGroup(child.pid, 'SIGKILL');
			reject(
				new Error(
					`n8n ${args.join(' ')} timed out after ${timeoutMs} ms\n${readOutput()}\n${stderr}`,
				),
			);
		}, timeoutMs);
		child.on('error', (err) => {
			clearTimeout(timer);
			readOutput();
			reject(err);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			// The task runner is a child of n8n; make sure nothing of the group outlives it.
			killGroup(child.pid, 'SIGKILL');
			resolve({ code: code ?? signal, stdout: readOutput(), stderr, ms: Date.now() - started });
		});
	});
}

async function runN8nOrThrow(args, opts) {
	const res = await runN8n(args, opts);
	if (res.code !== 0) {
		throw new Error(`n8n ${args.join(' ')} failed (${res.code}):\n${res.stdout}\n${res.stderr}`);
	}
	return res;
}

async function waitForHttp(
	url,
	{ timeoutMs = 120000, isAlive = () => true, accept = (res) => res.ok } = {},
) {
	const deadline = Date.now() + timeoutMs;
	let lastErr;
	while (Date.now() < deadline) {
		if (!isAlive()) throw new Error(`process exited while waiting for ${url}`);
		try {
			const res = await fetch(url);
			if (await accept(res)) return res;
			lastErr = new Error(`HTTP ${res.status} ${res.headers.get('content-type')}`);
		} catch (err) {
			lastErr = err;
		}
		await sleep(500);
	}
	throw new Error(`Timed out waiting for ${url}: ${lastErr && lastErr.message}`);
}

/** Copies what gets appended to a file to a stream (`tail -f`); returns a function that stops. */
function followFile(file, to) {
	const fd = fs.openSync(file, 'r');
	const buffer = Buffer.alloc(64 * 1024);
	let position = 0;
	const copy = () => {
		let bytes;
		while ((bytes = fs.readSync(fd, buffer, 0, buffer.length, position)) > 0) {
			position += bytes;
			try {
				to.write(Buffer.from(buffer.subarray(0, bytes)));
			} catch {}
		}
	};
	const timer = setInterval(copy, 250);
	timer.unref();
	let stopped = false;
	return () => {
		if (stopped) return;
		stopped = true;
		clearInterval(timer);
		copy();
		fs.closeSync(fd);
	};
}

/**
 * Starts `n8n start` on the user folder in its own process group, under a guard that stops the
 * group if this process dies. n8n writes its output to logFile (default: n8n.log in the user
 * folder), never to a pipe: a pipe to a parent that died makes n8n's logger spin on EPIPE. With
 * output 'forward' the log is followed onto this process's stdout. With `command: 'worker'` it
 * starts a queue-mode worker instead, whose health check then listens on `port`. Resolves once
 * n8n answers on /healthz/readiness with { url, port, child, logFile, logTail(maxChars), stop() }.
 */
async function startN8nServer(userFolder, options = {}) {
	try {
		return await startN8nOnce(userFolder, options);
	} catch (err) {
		// An n8n that ended by itself before answering is started once more: n8n 2.41.1 once ended at
		// its start in CI and started in every run after. One that ends again, or never answers, fails
		// the test with its log's end.
		if (!err.n8nEnded) throw err;
		process.stderr.write(`n8n ended while starting; starting it once more. ${err.message}\n`);
		return await startN8nOnce(userFolder, options);
	}
}

async function startN8nOnce(
	userFolder,
	{
		port,
		output = 'forward',
		env = {},
		command = 'start',
		logFile = path.join(userFolder, 'n8n.log'),
	} = {},
) {
	const bin = await ensureN8n();
	const brokerPort = await getFreePort();
	const isWorker = command === 'worker';
	const log = fs.openSync(logFile, 'w');
	const child = spawn(nodeBinary(), [bin, command], {
		cwd: userFolder,
		env: n8nEnv(userFolder, {
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: 'localhost',
			N8N_EDITOR_BASE_URL: `http://localhost:${port}/`,
			WEBHOOK_URL: `http://localhost:${port}/`,
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			...(isWorker && {
				QUEUE_HEALTH_CHECK_ACTIVE: 'true',
				QUEUE_HEALTH_CHECK_PORT: String(port),
				N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
			}),
			...env,
		}),
		stdio: ['ignore', log, log],
		detached: true,
	});
	fs.closeSync(log);
	guardProcessGroup(child.pid);
	const stopFollowing = output === 'forward' ? followFile(logFile, process.stdout) : () => {};
	let exited = false;
	child.on('exit', () => (exited = true));
	const url = `http://localhost:${port}`;
	const stop = async (timeoutMs = 15000) => {
		if (!exited) {
			killGroup(child.pid, 'SIGTERM');
			const deadline = Date.now() + timeoutMs;
			while (!exited && Date.now() < deadline) await sleep(200);
		}
		// The task runner and anything else left in the group.
		killGroup(child.pid, 'SIGKILL');
		stopFollowing();
	};
	try {
		await waitForHttp(`${url}/healthz/readiness`, { isAlive: () => !exited, timeoutMs: 180000 });
		// The REST API is mounted after readiness answers; until then the editor's HTML comes back.
		if (!isWorker)
			await waitForHttp(`${url}/rest/settings`, {
				isAlive: () => !exited,
				timeoutMs: 120000,
				accept: (res) => res.ok && /json/.test(res.headers.get('content-type') || ''),
			});
	} catch (err) {
		err.n8nEnded = exited;
		await stop();
		// Why n8n ended or never answered is in its log, which goes with the folder the test removes.
		err.message += `; the end of n8n's log (${logFile}):\n${readTail(logFile, 3000)}`;
		throw err;
	}
	return {
		url,
		port,
		child,
		logFile,
		logTail: (maxChars) => readTail(logFile, maxChars),
		stop,
		isRunning: () => !exited,
	};
}

/**
 * Creates the owner account through the REST API (POST /rest/owner/setup), unless one exists.
 * Returns true if it was created now.
 */
async function setupOwner(url, owner) {
	const settings = await (await fetch(`${url}/rest/settings`)).json();
	const um = (settings.data || settings).userManagement || {};
	if (um.showSetupOnFirstLoad === false) return false;
	const res = await fetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': 'n8n-runtime' },
		body: JSON.stringify(owner),
	});
	const text = await res.text();
	if (res.ok) return true;
	if (res.status === 400 && /already setup/i.test(text)) return false;
	throw new Error(`Owner setup failed: HTTP ${res.status} ${text}`);
}

/** Logs in through the REST API; returns the auth cookie header value. */
async function login(url, { email, password }) {
	const res = await fetch(`${url}/rest/login`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'browser-id': 'n8n-runtime' },
		body: JSON.stringify({ emailOrLdapLoginId: email, password }),
	});
	if (!res.ok) throw new Error(`Login failed: HTTP ${res.status} ${await res.text()}`);
	const cookie = res.headers.get('set-cookie') || '';
	return cookie.split(';')[0];
}

module.exports = {
	getFreePort,
	isPortFree,
	n8nEnv,
	ensureFilesDir,
	killGroup,
	runN8n,
	runN8nOrThrow,
	waitForHttp,
	startN8nServer,
	setupOwner,
	login,
};
