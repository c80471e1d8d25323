#!/usr/bin/env node
'use strict';
/**
 * npm run dev: a real n8n (pinned) with this package loaded, talking to the local sandbox.
 *
 *   node scripts/dev.js [--port 5678] [--sandbox-port 4010] [--token sandbox-token]
 *                       [--admin-token sandbox-admin-token] [--skip-build] [--reset]
 *
 * Builds the package, starts the sandbox, installs n8n into a cache folder on first use,
 * installs the package into .dev/n8n-user as a community package, imports the sandbox credential
 * and the example workflows, creates the owner account, and prints the editor URL and login.
 * Ctrl-C stops n8n (with its task runner) and the sandbox.
 */

const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const rt = require('./n8n-runtime');

const DEV_DIR = path.join(rt.PACKAGE_ROOT, '.dev');
const USER_FOLDER = path.join(DEV_DIR, 'n8n-user');
const STATE_FILE = path.join(USER_FOLDER, 'dev-state.json');

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

function readState() {
	try {
		return JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
	} catch {
		return {};
	}
}

function writeState(state) {
	fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2) + '\n');
}

function hash(value) {
	return crypto.createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

// Everything started by main() is stopped by shutdown(), whatever happens in between.
let sandbox;
let n8n;
let stopping = false;
async function shutdown(code = 0) {
	if (stopping) return;
	stopping = true;
	say('stopping...');
	if (n8n) await n8n.stop().catch(() => {});
	if (sandbox) await sandbox.close().catch(() => {});
	say('stopped');
	process.exit(code);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => shutdown(0));
// A closed stdout (the terminal or a `| tee` gone) must not stop the shutdown.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

async function pickPort(preferred, what) {
	if (preferred && (await rt.isPortFree(preferred))) return preferred;
	const port = await rt.getFreePort();
	if (preferred) say(`port ${preferred} is busy; ${what} uses ${port}`);
	return port;
}

async function main() {
	const { values: flags } = parseArgs({
		options: {
			port: { type: 'string', default: process.env.N8N_DEV_PORT || '5678' },
			'sandbox-port': { type: 'string', default: process.env.SANDBOX_PORT || '4010' },
			token: { type: 'string', default: process.env.SANDBOX_TOKEN || 'sandbox-token' },
			'admin-token': {
				type: 'string',
				default: process.env.SANDBOX_ADMIN_TOKEN || 'sandbox-admin-token',
			},
			'skip-build': { type: 'boolean', default: false },
			reset: { type: 'boolean', default: false },
		},
	});
	const started = Date.now();

	if (flags.reset) {
		say(`--reset: removing ${USER_FOLDER}`);
		fs.rmSync(USER_FOLDER, { recursive: true, force: true });
	}

	if (!flags['skip-build']) {
		say('building the package (npm run build)');
		const build = spawnSync('npm', ['run', '--silent', 'build'], {
			cwd: rt.PACKAGE_ROOT,
			stdio: 'inherit',
		});
		if (build.status !== 0) throw new Error('npm run build failed');
	}

	const { startSandbox } = require(path.join(rt.PACKAGE_ROOT, 'sandbox', 'server'));
	const sandboxPort = await pickPort(Number(flags['sandbox-port']), 'the sandbox');
	sandbox = await startSandbox({
		port: sandboxPort,
		token: flags.token,
		adminToken: flags['admin-token'],
	});
	say(`sandbox listening on ${sandbox.url}`);

	await rt.ensureN8n();

	fs.mkdirSync(USER_FOLDER, { recursive: true });
	rt.installPackageInto(USER_FOLDER);
	rt.ensureFilesDir();
	const state = readState();

	// Importing costs an n8n boot each (~6 s): only when something changed.
	const credential = rt.sandboxCredential({ sandboxUrl: sandbox.url, token: flags.token });
	if (state.credential !== hash(credential)) {
		say(`importing credential "${credential.name}" -> ${sandbox.url}`);
		await rt.importCredentials(USER_FOLDER, [credential]);
		state.credential = hash(credential);
		writeState(state);
	}
	const examples = rt.loadExamples();
	state.examples = state.examples || {};
	const changed = examples.filter((wf) => state.examples[wf.file] !== hash(wf));
	if (changed.length) {
		say(`importing example workflows: ${changed.map((wf) => wf.file).join(', ')}`);
		await rt.importWorkflows(USER_FOLDER, changed);
		for (const wf of changed) state.examples[wf.file] = hash(wf);
		writeState(state);
	}

	const port = await pickPort(Number(flags.port), 'n8n');
	say(`starting n8n ${rt.N8N_VERSION} on port ${port}`);
	n8n = await rt.startN8nServer(USER_FOLDER, { port });
	n8n.child.on('exit', (code) => {
		if (!stopping) {
			say(`n8n exited (${code})`);
			shutdown(code || 1);
		}
	});

	if (await rt.setupOwner(n8n.url, OWNER)) say(`owner account created: ${OWNER.email}`);

	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	const line = '-'.repeat(72);
	console.log(
		[
			'',
			line,
			`  n8n ${rt.N8N_VERSION} with ${rt.PACKAGE_NAME} is ready (${seconds} s)`,
			'',
			`  Editor:      ${n8n.url}/`,
			`  Login:       ${OWNER.email} / ${OWNER.password}`,
			`  Sandbox API: ${sandbox.url}  (Bearer token: ${flags.token})`,
			`  Admin:       ${sandbox.url}/_sandbox/...  (Bearer token: ${flags['admin-token']}; see README)`,
			`  Credential:  "${rt.CREDENTIAL_NAME}" (Equipment Rental API)`,
			`  Examples:    ${examples.map((wf) => wf.name).join('\n               ')}`,
			`  Files:       workflows may write to ${rt.EXAMPLE_FILES_DIR}`,
			`  User folder: ${path.relative(process.cwd(), USER_FOLDER) || USER_FOLDER}`,
			'',
			'  Ctrl-C stops n8n and the sandbox. After a rebuild, restart npm run dev.',
			line,
			'',
		].join('\n'),
	);
}

main().catch((err) => {
	console.error('[dev] failed:', err && err.stack ? err.stack : err);
	shutdown(1);
});
