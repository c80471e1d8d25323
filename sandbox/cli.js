#!/usr/bin/env node
'use strict';

/**
 * Runs the sandbox until SIGINT or SIGTERM:
 *   node sandbox/cli.js [--port 4010] [--token T] [--admin-token A] [--latency MS]
 *     [--max-page-size N] [--fault-rate 0..1] [--fault-kinds 500,503,429,malformed,drop,slow,hang]
 *     [--fault-methods POST,PATCH,PUT,DELETE] [--fault-external-ids ID,ID] [--fault-seed N]
 *     [--retry-after S] [--slow-ms MS]
 *     [--models N] [--equipment N] [--days N]
 *     [--seed N] [--today YYYY-MM-DD] [--host H] [--clock-offset=MS] [--error-dialect D]
 *     [--strict true|false] [--rate-limit-rps N] [--rate-limit-burst N] [--rate-limit-in-flight N]
 *     [--rate-limit-retry-after S|date] [--rate-limit-headers true|false]
 *     [--rate-limit-status 429|503] [--help]
 * --help (-h) prints every flag with its default and variable (from flags.js's tables) and exits;
 * an unknown flag prints the same usage after the error, and exits with 2.
 * Every flag can also come from the environment as SANDBOX_<FLAG> (e.g. SANDBOX_FAULT_RATE); flags.js
 * reads them, for `npm run dev` too (which takes the runtime options' flags).
 * --fault-kinds also takes soft-failure and lost-answer (drawn only when listed; see faults.js) and
 * any HTTP error status; --fault-methods limits faults to requests of those methods (default all),
 * e.g. --fault-kinds lost-answer --fault-methods POST,PATCH,PUT,DELETE --fault-rate 0.3;
 * --fault-external-ids to requests whose body names one of those external IDs, e.g.
 * --fault-rate 1 --fault-kinds 500 --fault-external-ids ROW-150 fails that row's writes.
 * --clock-offset runs the API's clock that many milliseconds ahead of this machine's (negative:
 * behind), e.g. --clock-offset=-600000 or SANDBOX_CLOCK_OFFSET=-600000 for 10 minutes behind: the
 * updatedAt and createdAt it writes, the Date header, and so what updatedAfter matches. A negative
 * value needs the = form.
 * --error-dialect answers errors in one of the shapes of error-dialects.js (message, message-list,
 * problem, problem-errors, jsonapi, nested, field-list, violations, text, html); --strict true
 * refuses body properties the vendor's reference does not list, as whitelisting servers do.
 * The --rate-limit-* flags put a real API's rate limit in front of it (see rateLimit.js): at most
 * --rate-limit-rps requests a second (a token bucket of --rate-limit-burst, default one second's
 * worth) and/or --rate-limit-in-flight at the same time; a request beyond is answered 429 with
 * Retry-After (seconds, or an HTTP-date with --rate-limit-retry-after date) and never handled, e.g.
 * --latency 20 --rate-limit-rps 200 --rate-limit-in-flight 8.
 * --admin-token opens the administration paths under /_sandbox (see admin.js), which change models
 * and options from outside this process; `--admin-token ''` keeps them closed.
 */

const { parseArgs } = require('node:util');
const { startSandbox } = require('./server');
const {
	HELP_FLAG,
	RUNTIME_FLAGS,
	SANDBOX_USAGE,
	START_FLAGS,
	describeRuntimeOptions,
	flagOptions,
	readSandboxFlags,
} = require('./flags');

/** A command line parseArgs cannot read: the user needs the usage, not only the error. */
class UsageError extends Error {}

function parseFlags(argv) {
	try {
		return parseArgs({
			args: argv,
			options: flagOptions({ ...START_FLAGS, ...RUNTIME_FLAGS, ...HELP_FLAG }),
		}).values;
	} catch (error) {
		if (/^ERR_PARSE_ARGS/.test(error.code)) throw new UsageError(error.message);
		throw error;
	}
}

async function main() {
	const flags = parseFlags(process.argv.slice(2));
	if (flags.help) {
		console.log(SANDBOX_USAGE);
		return;
	}
	const options = readSandboxFlags(flags, process.env);
	const sandbox = await startSandbox(options);
	console.log(`Integration API sandbox listening at ${sandbox.url}`);
	console.log(`  token          Bearer ${options.token}`);
	console.log(
		options.adminToken === undefined
			? '  admin          closed (no --admin-token)'
			: `  admin token    Bearer ${options.adminToken} for POST /_sandbox/models, ` +
					'POST /_sandbox/{models,clients,contracts,products}/{id}/touch, PUT /_sandbox/options',
	);
	for (const [label, text] of describeRuntimeOptions(options))
		console.log(`  ${label.padEnd(14)} ${text}`);
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
	if (error instanceof UsageError) console.error(`\n${SANDBOX_USAGE}`);
	process.exit(error instanceof UsageError ? 2 : 1);
});
