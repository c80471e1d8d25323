'use strict';
/**
 * Installs the pinned n8n into a cache folder outside the package's own dependencies, once per
 * version (a marker file is written after a successful install), never two installs at a time.
 */

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { PACKAGE_NAME, log, sleep } = require('./project');

const N8N_VERSION = '2.8.4';

/** package-lock.json of the n8n install (written by the first `npm install`; see ensureN8n). */
const LOCKFILE = path.join(__dirname, '..', `n8n-${N8N_VERSION}.package-lock.json`);

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

/** How often a process waiting for another's install says so. */
const WAIT_REPORT_MS = 30 * 1000;

/** A lock (a directory, created atomically) so that two processes never install at once. */
async function withInstallLock(dir, fn) {
	const lock = `${dir}.lock`;
	fs.mkdirSync(path.dirname(lock), { recursive: true });
	const waitingSince = Date.now();
	const deadline = waitingSince + 20 * 60 * 1000;
	let reportedAt = 0;
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
				log(`the n8n install by PID ${owner} did not finish (the process is gone); taking over`);
				fs.rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (Date.now() > deadline) throw new Error(`Timed out waiting for install lock ${lock}`);
			if (Date.now() - reportedAt >= WAIT_REPORT_MS) {
				reportedAt = Date.now();
				const waited = Math.round((reportedAt - waitingSince) / 1000);
				log(
					`waiting for ${owner ? `PID ${owner}` : 'another process'} to finish installing ` +
						`n8n@${N8N_VERSION} (lock ${lock}; waited ${waited} s so far)`,
				);
			}
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

module.exports = { N8N_VERSION, cacheDir, n8nBin, isInstalled, ensureN8n };
