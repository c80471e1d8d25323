'use strict';

/**
 * The sandbox's command-line flags, read in one place for `npm run sandbox` (cli.js) and
 * `npm run dev` (scripts/dev.js), so that both take the same names and forms:
 *   --latency MS, --max-page-size N, --fault-rate 0..1, --fault-kinds 500,503,429,...,
 *   --fault-methods POST,..., --fault-seed N, --retry-after S, --slow-ms MS, --clock-offset=MS,
 *   --error-dialect D, --strict true|false, --rate-limit-rps N, --rate-limit-burst N,
 *   --rate-limit-in-flight N, --rate-limit-retry-after S|date, --rate-limit-headers true|false
 * (the runtime options, which PUT /_sandbox/options can change later), and for cli.js also where
 * it listens, its tokens and its data. Every flag can also come from the environment as
 * SANDBOX_<FLAG> (e.g. SANDBOX_FAULT_RATE). A negative --clock-offset needs the = form. The rate
 * limit flags set `rateLimit` only when one of them is given (none: no limit).
 */

const { FAULT_KINDS } = require('./faults');
const { rateLimitSettings } = require('./rateLimit');
const { checkRuntimeOptions } = require('./server');

/** Flags of the runtime options (startSandbox's and setOptions'), with their defaults as text. */
const RUNTIME_FLAGS = Object.freeze({
	latency: '0',
	'max-page-size': undefined,
	'fault-rate': '0',
	'fault-kinds': FAULT_KINDS.join(','),
	'fault-methods': undefined,
	'fault-seed': '1',
	'retry-after': '1',
	'slow-ms': '2000',
	'clock-offset': '0',
	'error-dialect': 'message',
	strict: 'false',
	'rate-limit-rps': undefined,
	'rate-limit-burst': undefined,
	'rate-limit-in-flight': undefined,
	'rate-limit-retry-after': '1',
	'rate-limit-headers': 'false',
});

/** Flags of what only `npm run sandbox` chooses: address, tokens and seed data. */
const START_FLAGS = Object.freeze({
	port: '4010',
	host: '127.0.0.1',
	token: 'sandbox-token',
	'admin-token': 'sandbox-admin-token',
	models: '2000',
	equipment: '200',
	days: '30',
	seed: '1',
	today: undefined,
});

/** The flag of each runtime option, as the sandbox's checks name the option. */
const FLAG_OF_OPTION = Object.freeze({
	latencyMs: '--latency',
	maxPageSize: '--max-page-size',
	'faults.rate': '--fault-rate',
	'faults.kinds': '--fault-kinds',
	'faults.methods': '--fault-methods',
	'faults.seed': '--fault-seed',
	'faults.retryAfterSeconds': '--retry-after',
	'faults.slowMs': '--slow-ms',
	clockOffsetMs: '--clock-offset',
	errorDialect: '--error-dialect',
	strict: '--strict',
	'rateLimit.requestsPerSecond': '--rate-limit-rps',
	'rateLimit.burst': '--rate-limit-burst',
	'rateLimit.maxInFlight': '--rate-limit-in-flight',
	'rateLimit.retryAfterSeconds': '--rate-limit-retry-after',
	'rateLimit.retryAfter': '--rate-limit-retry-after',
	'rateLimit.headers': '--rate-limit-headers',
});

const RATE_LIMIT_FLAGS = Object.keys(RUNTIME_FLAGS).filter((name) =>
	name.startsWith('rate-limit-'),
);

/**
 * `util.parseArgs` options for these flags: every one takes a value.
 * @param {Record<string, string | undefined>} flags
 * @returns {Record<string, { type: 'string' }>}
 */
function flagOptions(flags) {
	return Object.fromEntries(Object.keys(flags).map((flag) => [flag, { type: 'string' }]));
}

/** Reads a flag's text from the parsed values, else SANDBOX_<FLAG>, else its default. */
function flagReader(values, env, defaults) {
	const given = (flag) => values[flag] ?? env[`SANDBOX_${flag.toUpperCase().replace(/-/g, '_')}`];
	const text = (flag) => given(flag) ?? defaults[flag];
	return {
		given: (flag) => given(flag) !== undefined,
		text,
		number(flag) {
			const value = text(flag);
			if (value === undefined) return undefined;
			const number = Number(value);
			if (value.trim() === '' || !Number.isFinite(number))
				throw new TypeError(`--${flag} must be a number, got "${value}"`);
			return number;
		},
		boolean(flag) {
			const value = text(flag);
			if (value !== 'true' && value !== 'false')
				throw new TypeError(`--${flag} must be true or false, got "${value}"`);
			return value === 'true';
		},
	};
}

/**
 * The runtime options the flags (or SANDBOX_* variables) give, checked as the sandbox checks them,
 * so that a wrong value is refused before anything starts.
 * @param {Record<string, string | undefined>} values parsed flags, by flag name
 * @param {Record<string, string | undefined>} env
 */
function readRuntimeFlags(values, env) {
	const flag = flagReader(values, env, RUNTIME_FLAGS);
	const options = {
		latencyMs: flag.number('latency'),
		maxPageSize: flag.number('max-page-size'),
		faults: {
			rate: flag.number('fault-rate'),
			kinds: flag
				.text('fault-kinds')
				.split(',')
				.map((kind) => kind.trim()),
			methods: flag
				.text('fault-methods')
				?.split(',')
				.map((method) => method.trim().toUpperCase()),
			seed: flag.number('fault-seed'),
			retryAfterSeconds: flag.number('retry-after'),
			slowMs: flag.number('slow-ms'),
		},
		rateLimit: readRateLimitFlags(flag),
		clockOffsetMs: flag.number('clock-offset'),
		errorDialect: flag.text('error-dialect'),
		strict: flag.boolean('strict'),
	};
	try {
		checkRuntimeOptions(options);
	} catch (error) {
		// The check names options ("rateLimit.burst needs rateLimit.requestsPerSecond"): name the
		// flags instead.
		throw new TypeError(
			error.message.replace(/[A-Za-z]\w*(?:\.[A-Za-z]\w*)*/g, (name) =>
				Object.hasOwn(FLAG_OF_OPTION, name) ? FLAG_OF_OPTION[name] : name,
			),
		);
	}
	return options;
}

/** The rate limit the flags give; none (null) unless one of them is given. */
function readRateLimitFlags(flag) {
	if (!RATE_LIMIT_FLAGS.some(flag.given)) return null;
	const retryAfter = flag.text('rate-limit-retry-after');
	const retryAfterSeconds = Number(retryAfter);
	if (retryAfter !== 'date' && (retryAfter.trim() === '' || !Number.isFinite(retryAfterSeconds)))
		throw new TypeError(
			`--rate-limit-retry-after must be a number of seconds or date, got "${retryAfter}"`,
		);
	return {
		requestsPerSecond: flag.number('rate-limit-rps'),
		burst: flag.number('rate-limit-burst'),
		maxInFlight: flag.number('rate-limit-in-flight'),
		...(retryAfter === 'date' ? { retryAfter: 'date' } : { retryAfterSeconds }),
		headers: flag.boolean('rate-limit-headers'),
	};
}

/** What cli.js starts the sandbox with: address, tokens, seed data and the runtime options. */
function readSandboxFlags(values, env) {
	const flag = flagReader(values, env, START_FLAGS);
	return {
		port: flag.number('port'),
		host: flag.text('host'),
		token: flag.text('token'),
		adminToken: flag.text('admin-token') || undefined,
		models: flag.number('models'),
		equipment: flag.number('equipment'),
		days: flag.number('days'),
		seed: flag.number('seed'),
		today: flag.text('today'),
		...readRuntimeFlags(values, env),
	};
}

/** The runtime options as lines for a terminal: [label, text]. */
function describeRuntimeOptions({
	latencyMs,
	maxPageSize,
	errorDialect,
	strict,
	clockOffsetMs,
	faults,
	rateLimit,
}) {
	return [
		['latency', `${latencyMs} ms`],
		['max page size', `${maxPageSize ?? 'none'}`],
		['errors', `${errorDialect} dialect${strict ? ', strict bodies' : ''}`],
		['clock offset', `${clockOffsetMs} ms (the API's clock against this machine's)`],
		[
			'faults',
			`rate ${faults.rate}, kinds ${faults.kinds.join(',')}, ` +
				`methods ${faults.methods?.join(',') ?? 'all'}, seed ${faults.seed}, ` +
				`Retry-After ${faults.retryAfterSeconds} s, slow ${faults.slowMs} ms`,
		],
		['rate limit', describeRateLimit(rateLimit)],
	];
}

/** @param {import('./rateLimit').RateLimitOptions | null} rateLimit */
function describeRateLimit(rateLimit) {
	if (!rateLimit) return 'none';
	const { requestsPerSecond, burst, maxInFlight, retryAfterSeconds, retryAfter, headers } =
		rateLimitSettings(rateLimit);
	return [
		requestsPerSecond !== undefined && `${requestsPerSecond} requests/s (burst ${burst})`,
		maxInFlight !== undefined && `${maxInFlight} in flight`,
		`Retry-After ${retryAfterSeconds} s${retryAfter === 'date' ? ' as an HTTP-date' : ''}`,
		headers && 'X-RateLimit headers',
	]
		.filter(Boolean)
		.join(', ');
}

module.exports = {
	RUNTIME_FLAGS,
	START_FLAGS,
	flagOptions,
	readRuntimeFlags,
	readSandboxFlags,
	describeRuntimeOptions,
};
