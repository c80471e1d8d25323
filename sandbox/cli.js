#!/usr/bin/env node
'use strict';

/**
 * Runs the sandbox until SIGINT or SIGTERM:
 *   node sandbox/cli.js [--port 4010] [--token T] [--admin-token A] [--latency MS]
 *     [--max-page-size N] [--fault-rate 0..1] [--fault-kinds 500,503,429,malformed,drop,slow,hang]
 *     [--fault-methods POST,PATCH,PUT,DELETE] [--fault-seed N] [--retry-after S] [--slow-ms MS]
 *     [--models N] [--equipment N] [--days N]
 *     [--seed N] [--today YYYY-MM-DD] [--host H] [--clock-offset=MS] [--error-dialect D]
 *     [--strict true|false]
 * Every flag can also come from the environment as SANDBOX_<FLAG> (e.g. SANDBOX_FAULT_RATE).
 * --fault-kinds also takes soft-failure and lost-answer (drawn only when listed; see faults.js) and
 * any HTTP error status; --fault-methods limits faults to requests of those methods (default all),
 * e.g. --fault-kinds lost-answer --fault-methods POST,PATCH,PUT,DELETE --fault-rate 0.3.
 * --clock-offset runs the API's clock that many milliseconds ahead of this machine's (negative:
 * behind), e.g. --clock-offset=-600000 or SANDBOX_CLOCK_OFFSET=-600000 for 10 minutes behind: the
 * updatedAt and createdAt it writes, the Date header, and so what updatedAfter matches. A negative
 * value needs the = form.
 * --error-dialect answers errors in one of the shapes of error-dialects.js (message, message-list,
 * problem, problem-errors, jsonapi, nested, field-list, violations, text, html); --strict true
 * refuses body properties the vendor's reference does not list, as whitelisting servers do.
 * --admin-token opens the administration paths under /_sandbox (see admin.js), which change models,
 * clients, contracts, products and options from outside this process; `--admin-token ''` keeps them
 * closed.
 */

const { parseArgs } = require('node:util');
const { startSandbox } = require('./server');
const { FAULT_KINDS } = require('./faults');

const FLAGS = {
	port: '4010',
	host: '127.0.0.1',
	token: 'sandbox-token',
	'admin-token': 'sandbox-admin-token',
	latency: '0',
	'max-page-size': undefined,
	'fault-rate': '0',
	'fault-kinds': FAULT_KINDS.join(','),
	'fault-methods': undefined,
	'fault-seed': '1',
	'retry-after': '1',
	'slow-ms': '2000',
	models: '2000',
	equipment: '200',
	days: '30',
	seed: '1',
	today: undefined,
	'clock-offset': '0',
	'error-dialect': 'message',
	strict: 'false',
};

function readFlags(argv, env) {
	const { values } = parseArgs({
		args: argv,
		options: Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, { type: 'string' }])),
	});
	const flagValue = (flag) =>
		values[flag] ?? env[`SANDBOX_${flag.toUpperCase().replace(/-/g, '_')}`] ?? FLAGS[flag];
	const numberFlag = (flag) => {
		const text = flagValue(flag);
		if (text === undefined) return undefined;
		const value = Number(text);
		if (!Number.isFinite(value)) throw new TypeError(`--${flag} must be a number, got ${text}`);
		return value;
	};
	const booleanFlag = (flag) => {
		const text = flagValue(flag);
		if (text !== 'true' && text !== 'false')
			throw new TypeError(`--${flag} must be true or false, got ${text}`);
		return text === 'true';
	};
	return {
		port: numberFlag('port'),
		host: flagValue('host'),
		token: flagValue('token'),
		adminToken: flagValue('admin-token') || undefined,
		latencyMs: numberFlag('latency'),
		maxPageSize: numberFlag('max-page-size'),
		faults: {
			rate: numberFlag('fault-rate'),
			kinds: flagValue('fault-kinds')
				.split(',')
				.map((kind) => kind.trim()),
			methods: flagValue('fault-methods')
				?.split(',')
				.map((method) => method.trim().toUpperCase()),
			seed: numberFlag('fault-seed'),
			retryAfterSeconds: numberFlag('retry-after'),
			slowMs: numberFlag('slow-ms'),
		},
		models: numberFlag('models'),
		equipment: numberFlag('equipment'),
		days: numberFlag('days'),
		seed: numberFlag('seed'),
		today: flagValue('today'),
		clockOffsetMs: numberFlag('clock-offset'),
		errorDialect: flagValue('error-dialect'),
		strict: booleanFlag('strict'),
	};
}

async function main() {
	const options = readFlags(process.argv.slice(2), process.env);
	const sandbox = await startSandbox(options);
	const { faults } = options;
	console.log(`Integration API sandbox listening at ${sandbox.url}`);
	console.log(`  token          Bearer ${options.token}`);
	console.log(
		options.adminToken === undefined
			? '  admin          closed (no --admin-token)'
			: `  admin token    Bearer ${options.adminToken} for POST /_sandbox/models, ` +
					'POST /_sandbox/{models,clients,contracts,products}/{id}/touch, PUT /_sandbox/options',
	);
	console.log(`  latency        ${options.latencyMs} ms`);
	console.log(`  max page size  ${options.maxPageSize ?? 'none'}`);
	console.log(
		`  errors         ${options.errorDialect} dialect${options.strict ? ', strict bodies' : ''}`,
	);
	console.log(
		`  clock offset   ${options.clockOffsetMs} ms (the API's clock against this machine's)`,
	);
	console.log(
		`  faults         rate ${faults.rate}, kinds ${faults.kinds.join(',')}, ` +
			`methods ${faults.methods?.join(',') ?? 'all'}, seed ${faults.seed}, ` +
			`Retry-After ${faults.retryAfterSeconds} s, slow ${faults.slowMs} ms`,
	);
	console.log(
		`  data           seed ${options.seed}, ${options.models} models, ${options.equipment} pieces of equipment, ${options.days} days`,
	);
	console.log('  fixtures');
	for (const [name, value] of Object.entries(sandbox.store.fixtures))
		console.log(`    ${name.padEnd(20)} ${value}`);

	const stop = async (signal) => {
		console.log(`${signal}: stopping the sandbox`);
		await sandbox.close();
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main().catch((error) => {
	console.error(error.message);
	process.exit(1);
});
