'use strict';
/**
 * PostgreSQL and Redis for n8n's queue mode: Debian's packages, run as ordinary child processes
 * (each in its own process group) on loopback ports, with their data in a folder the caller owns.
 * Never as system services: nothing outlives the caller's stop().
 */

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const { killGroup } = require('./processes');
const { log, sleep } = require('./project');

const POSTGRES_VERSIONS_DIR = '/usr/lib/postgresql';
const POLICY_RC_D = '/usr/sbin/policy-rc.d';
/** Role, password and database n8n uses; the server trusts loopback connections anyway. */
const POSTGRES_DATABASE = { user: 'n8n', password: 'n8n', database: 'n8n' };

/** bin/ of the newest PostgreSQL Debian installed, or undefined. */
function postgresBinDir() {
	let versions = [];
	try {
		versions = fs.readdirSync(POSTGRES_VERSIONS_DIR);
	} catch {
		return undefined;
	}
	const installed = versions
		.filter((version) =>
			fs.existsSync(path.join(POSTGRES_VERSIONS_DIR, version, 'bin', 'postgres')),
		)
		.sort((left, right) => Number(right) - Number(left));
	return installed.length ? path.join(POSTGRES_VERSIONS_DIR, installed[0], 'bin') : undefined;
}

function redisServerPath() {
	const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
	return found.status === 0 ? found.stdout.trim() : undefined;
}

function aptGet(args) {
	return spawnSync('apt-get', args, {
		stdio: 'inherit',
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
	}).status;
}

/**
 * Installs Debian's postgresql and redis-server packages when their programs are missing (root
 * only). Their maintainer scripts would start system services; a policy-rc.d that refuses every
 * start (what Debian's container images ship) keeps them stopped while installing.
 */
function ensureServerPackages() {
	const missing = [
		...(postgresBinDir() ? [] : ['postgresql']),
		...(redisServerPath() ? [] : ['redis-server']),
	];
	if (missing.length === 0) return;
	if (process.getuid?.() !== 0) {
		throw new Error(
			`${missing.join(' and ')} missing: install them (apt-get install -y ${missing.join(' ')}) ` +
				'or run as root, which installs them',
		);
	}
	const started = Date.now();
	log(`installing ${missing.join(' ')} from Debian's packages`);
	const addedPolicy = !fs.existsSync(POLICY_RC_D);
	if (addedPolicy) fs.writeFileSync(POLICY_RC_D, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
	try {
		const install = ['install', '-y', '--no-install-recommends', ...missing];
		// A fresh machine may have no package lists yet.
		if (aptGet(install) !== 0 && (aptGet(['update']) !== 0 || aptGet(install) !== 0))
			throw new Error(`apt-get install -y ${missing.join(' ')} failed`);
	} finally {
		if (addedPolicy) fs.rmSync(POLICY_RC_D, { force: true });
	}
	log(`${missing.join(' ')} installed in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** uid and gid of a system user (PostgreSQL refuses to run as root). */
function systemUser(name) {
	const id = (flag) => {
		const result = spawnSync('id', [flag, name], { encoding: 'utf8' });
		if (result.status !== 0) throw new Error(`no system user ${name}: ${result.stderr.trim()}`);
		return Number(result.stdout.trim());
	};
	return { uid: id('-u'), gid: id('-g') };
}

/**
 * A server program in its own process group, working in `cwd`, its output appended to logFile.
 * stop() sends `stopSignal`, waits, then kills whatever is left of the group.
 */
function startService(name, command, args, { cwd, logFile, user, stopSignal = 'SIGTERM' }) {
	const output = fs.openSync(logFile, 'a');
	const child = spawn(command, args, {
		cwd,
		stdio: ['ignore', output, output],
		detached: true,
		...user,
	});
	fs.closeSync(output);
	let exited = false;
	child.on('exit', () => (exited = true));
	child.on('error', () => (exited = true));
	return {
		name,
		pid: child.pid,
		isRunning: () => !exited,
		async stop(timeoutMs = 15000) {
			if (!exited) killGroup(child.pid, stopSignal);
			const deadline = Date.now() + timeoutMs;
			while (!exited && Date.now() < deadline) await sleep(100);
			killGroup(child.pid, 'SIGKILL');
		},
	};
}

/** Resolves once something accepts TCP connections on the loopback port. */
async function waitForPort(port, service, timeoutMs = 60000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (!service.isRunning()) throw new Error(`${service.name} exited while starting`);
		const open = await new Promise((resolve) => {
			const socket = net.connect(port, '127.0.0.1');
			socket.once('connect', () => resolve(socket.end() && true));
			socket.once('error', () => resolve(false));
		});
		if (open) return;
		if (Date.now() > deadline) throw new Error(`${service.name} did not listen on ${port}`);
		await sleep(200);
	}
}

function runOrThrow(command, args, options) {
	const result = spawnSync(command, args, { encoding: 'utf8', ...options });
	if (result.status !== 0) {
		throw new Error(
			`${path.basename(command)} ${args.join(' ')} failed: ${result.stderr || result.error}`,
		);
	}
	return result.stdout;
}

/**
 * Starts PostgreSQL with a new cluster in `<dir>/postgres` on 127.0.0.1:port (no Unix socket),
 * with the role and database of POSTGRES_DATABASE. Durability is off: the data is thrown away.
 * `dir` must be reachable by the postgres user when running as root.
 */
async function startPostgres({ dir, port }) {
	const bin = postgresBinDir();
	if (!bin) throw new Error('PostgreSQL is not installed (ensureServerPackages installs it)');
	const dataDir = path.join(dir, 'postgres');
	fs.mkdirSync(dataDir, { mode: 0o700 });
	const user = process.getuid?.() === 0 ? systemUser('postgres') : {};
	if (user.uid !== undefined) fs.chownSync(dataDir, user.uid, user.gid);
	runOrThrow(
		path.join(bin, 'initdb'),
		['-D', dataDir, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--no-sync'],
		user,
	);
	const server = startService(
		'PostgreSQL',
		path.join(bin, 'postgres'),
		[
			'-D',
			dataDir,
			'-p',
			String(port),
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			'unix_socket_directories=',
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
		],
		// SIGINT is PostgreSQL's fast shutdown: it ends the sessions instead of waiting for them.
		{ cwd: dataDir, logFile: path.join(dir, 'postgres.log'), user, stopSignal: 'SIGINT' },
	);
	try {
		await waitForPort(port, server);
		const psql = (sql) =>
			runOrThrow(
				path.join(bin, 'psql'),
				[
					'-h',
					'127.0.0.1',
					'-p',
					String(port),
					'-U',
					'postgres',
					'-v',
					'ON_ERROR_STOP=1',
					'-c',
					sql,
				],
				user,
			);
		const { user: role, password, database } = POSTGRES_DATABASE;
		// Two calls: CREATE DATABASE cannot run in the transaction psql wraps several commands in.
		psql(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
		psql(`CREATE DATABASE ${database} OWNER ${role}`);
	} catch (error) {
		await server.stop();
		throw error;
	}
	return { ...server, port, ...POSTGRES_DATABASE };
}

/** Starts Redis on 127.0.0.1:port, keeping nothing on disk. */
async function startRedis({ dir, port }) {
	const program = redisServerPath();
	if (!program) throw new Error('redis-server is not installed (ensureServerPackages installs it)');
	const dataDir = path.join(dir, 'redis');
	fs.mkdirSync(dataDir);
	const server = startService(
		'Redis',
		program,
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dataDir,
		],
		{ cwd: dataDir, logFile: path.join(dir, 'redis.log') },
	);
	try {
		await waitForPort(port, server);
	} catch (error) {
		await server.stop();
		throw error;
	}
	return { ...server, port };
}

/**
 * The environment that puts an n8n process (main or worker) into queue mode on these servers.
 * Every process also needs the same N8N_ENCRYPTION_KEY (n8nEnv sets one).
 */
function queueModeEnv(postgres, redis) {
	return {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(postgres.port),
		DB_POSTGRESDB_DATABASE: postgres.database,
		DB_POSTGRESDB_USER: postgres.user,
		DB_POSTGRESDB_PASSWORD: postgres.password,
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
	};
}

module.exports = { ensureServerPackages, startPostgres, startRedis, queueModeEnv };
