'use strict';
/**
 * Shared helpers to run a real, pinned n8n with this package loaded.
 *
 * - ensureN8n(): installs n8n (pinned) into a cache folder outside the package's own
 *   dependencies, once (a marker file is written after a successful install).
 * - prepareUserFolder(): lays out an n8n user folder with this package installed as a
 *   community package, imports a credential pointing at the sandbox and the example workflows.
 * - executeWorkflow(): runs `n8n execute --id=ID --rawOutput` and returns the parsed result.
 *
 * Plain CommonJS so it runs with bare `node` (no build step) from scripts and tests.
 */

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const N8N_VERSION = '2.8.4';
/** package-lock.json of the n8n install (written by the first `npm install`; see ensureN8n). */
const LOCKFILE = path.join(__dirname, `n8n-${N8N_VERSION}.package-lock.json`);
const PACKAGE_ROOT = path.resolve(__dirname, '..');
const PACKAGE_NAME = require(path.join(PACKAGE_ROOT, 'package.json')).name;
const NODE_TYPE = `${PACKAGE_NAME}.equipmentRental`;
const CREDENTIAL_TYPE = 'equipmentRentalApi';
/** Fixed id and name of the sandbox credential; the example workflows reference both. */
const CREDENTIAL_ID = 'eqRentalSandbox1';
const CREDENTIAL_NAME = 'Equipment Rental sandbox';
/** Fixed so that credentials imported into a user folder can always be decrypted. */
const DEFAULT_ENCRYPTION_KEY = 'n8n-nodes-equipment-rental-local-dev-key';
const EXAMPLES_DIR = path.join(PACKAGE_ROOT, 'examples');
/**
 * Where the package to load into n8n is taken from: this repository (built with npm run build)
 * unless EQUIPMENT_RENTAL_PACKAGE_DIR names another folder with package.json and dist/ (for
 * example an unpacked `npm pack` tarball, to test exactly what gets published).
 */
function packageDir() {
	return path.resolve(process.env.EQUIPMENT_RENTAL_PACKAGE_DIR || PACKAGE_ROOT);
}

function log(...args) {
	if (process.env.N8N_RUNTIME_QUIET) return;
	console.error('[n8n-runtime]', ...args);
}

// ---------------------------------------------------------------------------------------------
// Install

function cacheDir() {
	return (
		process.env.N8N_CACHE_DIR ||
		path.join(os.homedir(), '.cache', 'n8n-nodes-equipment-rental', `n8n-${N8N_VERSION}`)
	);
}

function n8nBin(dir = cacheDir()) {
	return path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
}

function markerFile(dir = cacheDir()) {
	return path.join(dir, '.install-complete');
}

function isInstalled(dir = cacheDir()) {
	try {
		return (
			fs.readFileSync(markerFile(dir), 'utf8').trim() === N8N_VERSION && fs.existsSync(n8nBin(dir))
		);
	} catch {
		return false;
	}
}

function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

function run(cmd, args, opts = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, { stdio: 'inherit', ...opts });
		child.on('error', reject);
		child.on('exit', (code, signal) =>
			code === 0
				? resolve()
				: reject(new Error(`${cmd} ${args.join(' ')} exited with ${signal || code}`)),
		);
	});
}

/** A lock (a directory, created atomically) so that two processes never install at once. */
async function withInstallLock(dir, fn) {
	const lock = `${dir}.lock`;
	fs.mkdirSync(path.dirname(lock), { recursive: true });
	const deadline = Date.now() + 20 * 60 * 1000;
	for (;;) {
		try {
			fs.mkdirSync(lock);
			fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
			break;
		} catch (err) {
			if (err.code !== 'EEXIST') throw err;
			// A lock left by a process that is gone is stale.
			let owner = NaN;
			try {
				owner = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
			} catch {}
			let alive = false;
			if (owner) {
				try {
					process.kill(owner, 0);
					alive = true;
				} catch {}
			}
			if (!alive && owner) {
				fs.rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (Date.now() > deadline) throw new Error(`Timed out waiting for install lock ${lock}`);
			await sleep(2000);
		}
	}
	try {
		return await fn();
	} finally {
		fs.rmSync(lock, { recursive: true, force: true });
	}
}

/**
 * Installs the pinned n8n into the cache folder on first use. A folder without the marker
 * (an interrupted install) is wiped and installed again. Returns the path of the n8n binary.
 */
async function ensureN8n() {
	const dir = cacheDir();
	if (isInstalled(dir)) return n8nBin(dir);
	return withInstallLock(dir, async () => {
		if (isInstalled(dir)) return n8nBin(dir);
		const started = Date.now();
		log(`installing n8n@${N8N_VERSION} into ${dir} (first use only; takes a few minutes)`);
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(
			path.join(dir, 'package.json'),
			JSON.stringify(
				{
					name: 'n8n-runtime-cache',
					private: true,
					description: `n8n ${N8N_VERSION} used by ${PACKAGE_NAME} for npm run dev and the e2e tests`,
					dependencies: { n8n: N8N_VERSION },
					// n8n 2.8.4 depends on an xlsx tarball hosted outside the npm registry.
					overrides: { xlsx: 'npm:@e965/xlsx@0.20.3' },
				},
				null,
				2,
			) + '\n',
		);
		// The folder is outside the repository, so the repository's .npmrc (ignore-scripts=true)
		// does not apply; sqlite3 needs its install script to build from source.
		fs.writeFileSync(path.join(dir, '.npmrc'), 'ignore-scripts=false\nfund=false\naudit=false\n');
		const npmFlags = [
			'--ignore-scripts=false',
			'--omit=dev',
			'--no-audit',
			'--no-fund',
			'--loglevel=error',
			'--no-update-notifier',
		];
		// Under `npm run`, npm_config_* variables describe this repository (local_prefix, its .npmrc's
		// ignore_scripts=true): the install in the cache folder must not see them.
		const env = Object.fromEntries(
			Object.entries(process.env).filter(
				([key]) =>
					!/^npm_/i.test(key) ||
					/^npm_config_(cache|registry|userconfig|cafile|strict_ssl)$/i.test(key),
			),
		);
		const npmOpts = { cwd: dir, env: { ...env, npm_config_ignore_scripts: 'false' } };
		// The dependency tree tested with this repository: n8n pins its direct dependencies but not
		// all transitive ones, and a newer one may drop Node 20. `npm install` (not `npm ci`) with the
		// lockfile: npm 11 leaves some other platforms' optional packages out of a lockfile, which
		// `npm ci` refuses; `npm install` keeps every locked version and adds those.
		if (fs.existsSync(LOCKFILE)) fs.copyFileSync(LOCKFILE, path.join(dir, 'package-lock.json'));
		await run('npm', ['install', ...npmFlags], npmOpts);
		// Check that the native sqlite3 module really loads before declaring success.
		const check = spawnSync(process.execPath, ['-e', "require('sqlite3')"], {
			cwd: path.join(dir, 'node_modules', 'n8n'),
			encoding: 'utf8',
		});
		if (check.status !== 0) {
			throw new Error(`n8n installed but sqlite3 does not load:\n${check.stderr}`);
		}
		fs.writeFileSync(markerFile(dir), N8N_VERSION + '\n');
		log(`n8n@${N8N_VERSION} installed in ${Math.round((Date.now() - started) / 1000)} s`);
		return n8nBin(dir);
	});
}

// ---------------------------------------------------------------------------------------------
// Environment and ports

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

/** Whether something already listens on the port (used to fall back from a preferred port). */
function isPortFree(port) {
	return new Promise((resolve) => {
		const srv = net.createServer();
		srv.unref();
		srv.once('error', () => resolve(false));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
	});
}

/**
 * The folder that file-writing nodes may use (N8N_RESTRICT_FILE_ACCESS_TO); the examples write
 * there.
 */
const EXAMPLE_FILES_DIR = '/tmp/n8n-equipment-rental';

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
		// Read by older n8n versions only; 2.x lets community nodes be AI tools by default.
		N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: 'true',
		// Only the JavaScript task runner (no Python virtual environment here).
		N8N_PYTHON_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_SECURE_COOKIE: 'false',
		// n8n compares real paths (on macOS /tmp is /private/tmp).
		N8N_RESTRICT_FILE_ACCESS_TO: ensureFilesDir(),
		// `n8n execute --rawOutput` prints the run through the logger at level info.
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		...extra,
	};
}

/** Creates the folder file-writing nodes are allowed to use and returns its real path. */
function ensureFilesDir(dir = EXAMPLE_FILES_DIR) {
	fs.mkdirSync(dir, { recursive: true });
	return fs.realpathSync(dir);
}

// ---------------------------------------------------------------------------------------------
// Running the n8n CLI

/**
 * Runs `n8n <args>` in its own process group; resolves with { code, stdout, stderr, ms }.
 * A run that outlives timeoutMs is killed (whole group) and rejected.
 */
async function runN8n(args, { userFolder, env = {}, timeoutMs = 5 * 60 * 1000 } = {}) {
	const bin = await ensureN8n();
	const brokerPort = await getFreePort();
	const started = Date.now();
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [bin, ...args], {
			cwd: userFolder,
			env: n8nEnv(userFolder, { N8N_RUNNERS_BROKER_PORT: String(brokerPort), ...env }),
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		const timer = setTimeout(() => {
			killGroup(child.pid, 'SIGKILL');
			reject(
				new Error(`n8n ${args.join(' ')} timed out after ${timeoutMs} ms\n${stdout}\n${stderr}`),
			);
		}, timeoutMs);
		child.on('error', (err) => {
			clearTimeout(timer);
			reject(err);
		});
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			// The task runner is a child of n8n; make sure nothing of the group outlives it.
			killGroup(child.pid, 'SIGKILL');
			resolve({ code: code ?? signal, stdout, stderr, ms: Date.now() - started });
		});
	});
}

function killGroup(pid, signal = 'SIGTERM') {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false;
	}
}

async function runN8nOrThrow(args, opts) {
	const res = await runN8n(args, opts);
	if (res.code !== 0) {
		throw new Error(`n8n ${args.join(' ')} failed (${res.code}):\n${res.stdout}\n${res.stderr}`);
	}
	return res;
}

/**
 * `n8n execute --rawOutput` prints the run (IRun) as pretty JSON through the logger, mixed with
 * other log lines (task broker, warnings). Pretty JSON opens with a line that is exactly "{" and
 * closes with a line that is exactly "}": take the last such block that parses as a run.
 */
function parseRunOutput(stdout) {
	const lines = stdout.split(/\r?\n/);
	let found;
	for (let i = 0; i < lines.length; i++) {
		if (lines[i] !== '{') continue;
		for (let j = i + 1; j < lines.length; j++) {
			if (lines[j] !== '}') continue;
			try {
				const parsed = JSON.parse(lines.slice(i, j + 1).join('\n'));
				if (parsed && parsed.data && parsed.data.resultData) found = parsed;
			} catch {}
			i = j;
			break;
		}
	}
	return found;
}

/** The json of the items a node put out in its last run (output 0 unless told). */
function nodeItems(run, nodeName, outputIndex = 0) {
	const runs = run && run.data.resultData.runData[nodeName];
	if (!runs || !runs.length) return undefined;
	const last = runs[runs.length - 1];
	const out = last.data && last.data.main && last.data.main[outputIndex];
	return (out || []).map((item) => item.json);
}

/** The binary data of the items a node put out in its last run. */
function nodeBinaries(run, nodeName, outputIndex = 0) {
	const runs = run && run.data.resultData.runData[nodeName];
	if (!runs || !runs.length) return undefined;
	const out = runs[runs.length - 1].data.main[outputIndex] || [];
	return out.map((item) => item.binary);
}

class WorkflowExecutionError extends Error {
	constructor(message, details) {
		super(message);
		this.name = 'WorkflowExecutionError';
		Object.assign(this, details);
	}
}

/**
 * Runs a workflow headlessly (`n8n execute --id=ID --rawOutput`). Resolves with { run, status,
 * error, lastNodeExecuted, items (json of the last node's items), ms, stdout, stderr } whether the
 * workflow succeeded or not; rejects only if no run could be read from the output.
 */
async function runWorkflow(id, { userFolder = lastUserFolder, env, timeoutMs } = {}) {
	if (!userFolder) throw new Error('runWorkflow: no user folder (call prepareUserFolder first)');
	const res = await runN8n(['execute', `--id=${id}`, '--rawOutput'], {
		userFolder,
		env,
		timeoutMs,
	});
	const run = parseRunOutput(res.stdout);
	if (!run) {
		throw new WorkflowExecutionError(
			`n8n execute --id=${id} printed no run (exit ${res.code}):\n${res.stdout}\n${res.stderr}`,
			{ stdout: res.stdout, stderr: res.stderr, exitCode: res.code },
		);
	}
	const { resultData } = run.data;
	const lastNodeExecuted = resultData.lastNodeExecuted;
	return {
		run,
		status: run.status,
		error: resultData.error,
		lastNodeExecuted,
		items: lastNodeExecuted ? nodeItems(run, lastNodeExecuted) : [],
		node: (name, output) => nodeItems(run, name, output),
		exitCode: res.code,
		ms: res.ms,
		stdout: res.stdout,
		stderr: res.stderr,
	};
}

/**
 * Runs a workflow headlessly and returns the json of the items of the last node executed.
 * Throws (with the node's error message and n8n's output) when the execution failed.
 */
async function executeWorkflow(id, opts = {}) {
	const result = await runWorkflow(id, opts);
	if (result.error || result.status !== 'success') {
		const e = result.error || {};
		const where = e.node ? ` in node "${e.node.name}"` : '';
		throw new WorkflowExecutionError(
			`Workflow ${id} failed${where}: ${e.message || result.status}` +
				(e.description ? `\n${e.description}` : '') +
				`\n--- n8n stderr ---\n${result.stderr}`,
			{ result, nodeError: e },
		);
	}
	return result.items;
}

// ---------------------------------------------------------------------------------------------
// User folder

let lastUserFolder;

function builtNodePath() {
	return path.join(packageDir(), 'dist', 'nodes', 'EquipmentRental', 'EquipmentRental.node.js');
}

function isPackageBuilt() {
	const pkg = JSON.parse(fs.readFileSync(path.join(packageDir(), 'package.json'), 'utf8'));
	const files = [...(pkg.n8n?.nodes || []), ...(pkg.n8n?.credentials || [])];
	return files.length > 0 && files.every((f) => fs.existsSync(path.join(packageDir(), f)));
}

/**
 * Installs the built package the way n8n installs a community package from
 * Settings > Community Nodes: <userFolder>/.n8n/nodes/node_modules/<name>, so that its nodes get
 * the type prefix "<name>." exactly as for real users. The files are copied (not linked) so that
 * `require('n8n-workflow')` inside the node resolves to n8n's own copy, as it does after a real
 * install, and not to this repository's dev dependency.
 */
function installPackageInto(userFolder) {
	if (!isPackageBuilt()) {
		throw new Error(
			`The package is not built (no ${builtNodePath()}); run \`npm run build\` first.`,
		);
	}
	const root = packageDir();
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', pkg.name);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	fs.copyFileSync(path.join(packageDir(), 'package.json'), path.join(target, 'package.json'));
	for (const entry of pkg.files || ['dist']) {
		const from = path.join(packageDir(), entry);
		if (fs.existsSync(from)) fs.cpSync(from, path.join(target, entry), { recursive: true });
	}
	for (const extra of ['README.md', 'LICENSE', 'LICENSE.md']) {
		const from = path.join(packageDir(), extra);
		if (fs.existsSync(from)) fs.copyFileSync(from, path.join(target, extra));
	}
	if (pkg.dependencies && Object.keys(pkg.dependencies).length) {
		log(
			`warning: ${pkg.name} has runtime dependencies (${Object.keys(pkg.dependencies).join(', ')}); ` +
				'they are not installed into the n8n user folder',
		);
	}
	// What npm leaves in n8n's nodes folder after installing a community package.
	const manifest = path.join(nodesDir, 'package.json');
	let nodesPkg = { name: 'installed-nodes', private: true, dependencies: {} };
	try {
		nodesPkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
	} catch {}
	nodesPkg.dependencies = { ...(nodesPkg.dependencies || {}), [pkg.name]: pkg.version };
	fs.writeFileSync(manifest, JSON.stringify(nodesPkg, null, 2) + '\n');
	return target;
}

/** The credential that points at the sandbox, in the format of `n8n import:credentials`. */
function sandboxCredential({ sandboxUrl, token, id = CREDENTIAL_ID, name = CREDENTIAL_NAME }) {
	return {
		id,
		name,
		type: CREDENTIAL_TYPE,
		data: { baseUrl: sandboxUrl.replace(/\/+$/, ''), accessToken: token },
	};
}

/** The example workflows shipped in examples/ (parsed). */
function loadExamples() {
	if (!fs.existsSync(EXAMPLES_DIR)) return [];
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => ({ file: f, ...JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, f), 'utf8')) }));
}

function stripFile(wf) {
	const { file, ...rest } = wf;
	return rest;
}

async function importCredentials(userFolder, credentials) {
	const dir = path.join(userFolder, 'import');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, `credentials-${process.pid}-${Date.now()}.json`);
	fs.writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
	try {
		return await runN8nOrThrow(['import:credentials', `--input=${file}`], { userFolder });
	} finally {
		fs.rmSync(file, { force: true });
	}
}

/** Imports workflows (objects with an id each) in a single n8n process. */
async function importWorkflows(userFolder, workflows) {
	if (!workflows.length) return undefined;
	const dir = path.join(userFolder, 'import', `workflows-${process.pid}-${Date.now()}`);
	fs.mkdirSync(dir, { recursive: true });
	for (const wf of workflows) {
		if (!wf.id) throw new Error(`Workflow "${wf.name}" has no id`);
		fs.writeFileSync(path.join(dir, `${wf.id}.json`), JSON.stringify(stripFile(wf), null, 2));
	}
	try {
		return await runN8nOrThrow(['import:workflow', '--separate', `--input=${dir}`], { userFolder });
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * Prepares an n8n user folder: installs the built package as a community package, imports the
 * sandbox credential (fixed id and name) and the example workflows (plus `workflows`, if given).
 * Returns { userFolder, credential, examples, run(id), execute(id) }.
 */
async function prepareUserFolder(
	dir,
	{
		sandboxUrl,
		token,
		examples = true,
		workflows = [],
		credentials = [],
		installPackage = true,
	} = {},
) {
	if (!sandboxUrl || !token)
		throw new Error('prepareUserFolder: sandboxUrl and token are required');
	const userFolder = path.resolve(dir);
	fs.mkdirSync(userFolder, { recursive: true });
	await ensureN8n();
	if (installPackage) installPackageInto(userFolder);
	ensureFilesDir();
	const credential = sandboxCredential({ sandboxUrl, token });
	await importCredentials(userFolder, [credential, ...credentials]);
	const exampleList = examples ? loadExamples() : [];
	await importWorkflows(userFolder, [...exampleList, ...workflows]);
	lastUserFolder = userFolder;
	return {
		userFolder,
		credential,
		examples: exampleList,
		run: (id, opts) => runWorkflow(id, { userFolder, ...opts }),
		execute: (id, opts) => executeWorkflow(id, { userFolder, ...opts }),
		importWorkflows: (list) => importWorkflows(userFolder, list),
		importCredentials: (list) => importCredentials(userFolder, list),
	};
}

// ---------------------------------------------------------------------------------------------
// A running n8n server (for npm run dev)

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

/**
 * Starts `n8n start` on the user folder in its own process group. Resolves once n8n answers on
 * /healthz/readiness with { url, port, child, stop() }.
 */
async function startN8nServer(userFolder, { port, output = 'forward', env = {} } = {}) {
	const bin = await ensureN8n();
	const brokerPort = await getFreePort();
	const child = spawn(process.execPath, [bin, 'start'], {
		cwd: userFolder,
		env: n8nEnv(userFolder, {
			N8N_PORT: String(port),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: 'localhost',
			N8N_EDITOR_BASE_URL: `http://localhost:${port}/`,
			WEBHOOK_URL: `http://localhost:${port}/`,
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			...env,
		}),
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	// n8n's output goes through this process rather than straight to the terminal, so that a closed
	// terminal or pipe (e.g. `npm run dev | tee log` after Ctrl-C) never blocks n8n's shutdown.
	for (const [from, to] of [
		[child.stdout, process.stdout],
		[child.stderr, process.stderr],
	]) {
		from.on('data', (chunk) => {
			if (output !== 'forward') return;
			try {
				to.write(chunk);
			} catch {}
		});
	}
	let exited = false;
	child.on('exit', () => (exited = true));
	const url = `http://localhost:${port}`;
	const stop = async (timeoutMs = 15000) => {
		if (exited) return killGroup(child.pid, 'SIGKILL');
		killGroup(child.pid, 'SIGTERM');
		const deadline = Date.now() + timeoutMs;
		while (!exited && Date.now() < deadline) await sleep(200);
		// The task runner and anything else left in the group.
		killGroup(child.pid, 'SIGKILL');
	};
	try {
		await waitForHttp(`${url}/healthz/readiness`, { isAlive: () => !exited, timeoutMs: 180000 });
		// The REST API is mounted after readiness answers; until then the editor's HTML comes back.
		await waitForHttp(`${url}/rest/settings`, {
			isAlive: () => !exited,
			timeoutMs: 120000,
			accept: (res) => res.ok && /json/.test(res.headers.get('content-type') || ''),
		});
	} catch (err) {
		await stop();
		throw err;
	}
	return { url, port, child, stop, isRunning: () => !exited };
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
	N8N_VERSION,
	PACKAGE_ROOT,
	PACKAGE_NAME,
	packageDir,
	NODE_TYPE,
	CREDENTIAL_TYPE,
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	DEFAULT_ENCRYPTION_KEY,
	EXAMPLES_DIR,
	EXAMPLE_FILES_DIR,
	cacheDir,
	n8nBin,
	isInstalled,
	ensureN8n,
	getFreePort,
	isPortFree,
	n8nEnv,
	ensureFilesDir,
	runN8n,
	killGroup,
	parseRunOutput,
	nodeItems,
	nodeBinaries,
	runWorkflow,
	executeWorkflow,
	WorkflowExecutionError,
	isPackageBuilt,
	installPackageInto,
	sandboxCredential,
	loadExamples,
	importCredentials,
	importWorkflows,
	prepareUserFolder,
	waitForHttp,
	startN8nServer,
	setupOwner,
	login,
};

if (require.main === module) {
	const [cmd] = process.argv.slice(2);
	if (cmd === 'ensure') {
		ensureN8n().then(
			(bin) => console.log(bin),
			(err) => {
				console.error(err);
				process.exit(1);
			},
		);
	} else {
		console.error(
			'usage: node scripts/n8n-runtime.js ensure   # install the pinned n8n into the cache',
		);
		process.exit(2);
	}
}
