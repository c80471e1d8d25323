'use strict';

/**
 * The sandbox's command-line flags, read in one place for `npm run sandbox` (cli.js) and
 * `npm run dev` (scripts/dev.js), so that both take the same names and forms:
 *   --latency MS, --max-page-size N, --fault-rate 0..1, --fault-kinds 500,503,429,...,
 *   --fault-methods POST,..., --fault-seed N, --retry-after S, --slow-ms MS, --clock-offset=MS,
 *   --error-dialect D, --strict true|false, --rate-limit-rps N, --rate-limit-burst N,
 *   --rate-limit-in-flight N, --rate-limit-retry-after S|date, --rate-limit-headers true|false,
 *   --rate-limit-status 429|503
 * (the runtime options, which PUT /_sandbox/options can change later), and for cli.js also where
 * it listens, its tokens and its data. Every flag can also come from the environment as
 * SANDBOX_<FLAG> (e.g. SANDBOX_FAULT_RATE). A negative --clock-offset needs the = form. The rate
 * limit flags set `rateLimit` only when one of them is given (none: no limit).
 * Each table below also says what its flags do, and the --help of both commands is made from the
 * tables they parse with (formatUsage: SANDBOX_USAGE here, DEV_USAGE in scripts/dev-flags.js), so
 * that the usage lists every flag they take.
 */

const { FAULT_KINDS } = require('./faults');
const { ERROR_DIALECTS } = require('./error-dialects');
const { rateLimitSettings } = require('./rateLimit');
const { checkRuntimeOptions } = require('./server');

/**
 * @typedef {object} Flag
 * @property {string} description what it does, in a few words
 * @property {string} [value] how its value is written, e.g. 'MS' ('=MS': only joined with '=');
 * none for a switch, which takes no value
 * @property {string} [default] the value taken when the flag is not given, as text
 * @property {string} [otherwise] what leaving out a flag without a default means (default 'none')
 * @property {string | null} [variable] the environment variable the flag can also come from
 * (default SANDBOX_<FLAG>; null: none)
 * @property {string} [short] its one-letter form
 */

/**
 * Flags of the runtime options (startSandbox's and setOptions').
 * @type {Readonly<Record<string, Flag>>}
 */
const RUNTIME_FLAGS = Object.freeze({
	latency: { value: 'MS', default: '0', description: 'delay before each request is handled' },
	'max-page-size': { value: 'N', description: 'silent ceiling of `limit` in lists' },
	'fault-rate': {
		value: '0..1',
		default: '0',
		description: 'share of the requests that get an injected fault',
	},
	'fault-kinds': {
		value: 'K,K',
		default: FAULT_KINDS.join(','),
		description: 'faults drawn from; also soft-failure, lost-answer or any error status',
	},
	'fault-methods': {
		value: 'M,M',
		otherwise: 'all',
		description: 'HTTP methods whose requests can get a fault',
	},
	'fault-external-ids': {
		value: 'ID,ID',
		otherwise: 'all',
		description: 'only requests whose body has one of these externalIds can get a fault',
	},
	'fault-seed': { value: 'N', default: '1', description: 'seed of the fault draw' },
	'retry-after': { value: 'S', default: '1', description: 'Retry-After of an injected 429' },
	'slow-ms': { value: 'MS', default: '2000', description: 'delay of a slow fault' },
	'clock-offset': {
		value: '=MS',
		default: '0',
		description: "how far the API's clock runs ahead of this machine's; negative: behind",
	},
	'error-dialect': {
		value: 'D',
		default: 'message',
		description: `shape of error answers: ${ERROR_DIALECTS.join(', ')}`,
	},
	strict: {
		value: 'true|false',
		default: 'false',
		description: "refuse body fields the vendor's reference does not list",
	},
	'rate-limit-rps': {
		value: 'N',
		description: 'token bucket: requests per second the API takes, 429 beyond',
	},
	'rate-limit-burst': {
		value: 'N',
		otherwise: "one second's worth",
		description: 'bucket size: requests taken at once after a quiet spell',
	},
	'rate-limit-in-flight': {
		value: 'N',
		description: 'requests the API handles at the same time, 429 beyond',
	},
	'rate-limit-retry-after': {
		value: 'S|date',
		default: '1',
		description: 'Retry-After of a rate limit 429: seconds, or date for an HTTP-date 1 s ahead',
	},
	'rate-limit-headers': {
		value: 'true|false',
		default: 'false',
		description: 'X-RateLimit-Limit, -Remaining and -Reset on every answer',
	},
	'rate-limit-status': {
		value: '429|503',
		default: '429',
		description: 'status of a refusal: 429, or 503 with Retry-After as some gateways answer',
	},
});

/**
 * Flags of what only `npm run sandbox` chooses: address, tokens and seed data.
 * @type {Readonly<Record<string, Flag>>}
 */
const START_FLAGS = Object.freeze({
	port: { value: 'N', default: '4010', description: 'port to listen on, 0 for any free one' },
	host: { value: 'H', default: '127.0.0.1', description: 'address to listen on' },
	token: {
		value: 'T',
		default: 'sandbox-token',
		description: 'access token the Integration API accepts',
	},
	'admin-token': {
		value: 'A',
		default: 'sandbox-admin-token',
		description: "token of the /_sandbox administration paths; '' keeps them closed",
	},
	models: { value: 'N', default: '2000', description: 'equipment models in the seed data' },
	equipment: { value: 'N', default: '200', description: 'pieces of equipment in the seed data' },
	days: {
		value: 'N',
		default: '30',
		description: 'days of distance, usage and working hours in the seed data',
	},
	seed: { value: 'N', default: '1', description: 'seed of the seed data' },
	today: {
		value: 'YYYY-MM-DD',
		otherwise: "today on the API's clock",
		description: "the seed data's reference date",
	},
});

/**
 * --help, which both commands take.
 * @type {Readonly<Record<string, Flag>>}
 */
const HELP_FLAG = Object.freeze({
	help: { short: 'h', variable: null, description: 'print this usage and exit' },
});

/** The flag of each runtime option, as the sandbox's checks name the option. */
const FLAG_OF_OPTION = Object.freeze({
	latencyMs: '--latency',
	maxPageSize: '--max-page-size',
	'faults.rate': '--fault-rate',
	'faults.kinds': '--fault-kinds',
	'faults.methods': '--fault-methods',
	'faults.externalIds': '--fault-external-ids',
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
	'rateLimit.status': '--rate-limit-status',
});

const RATE_LIMIT_FLAGS = Object.keys(RUNTIME_FLAGS).filter((name) =>
	name.startsWith('rate-limit-'),
);

/**
 * The environment variable a flag can also come from, if any.
 * @param {string} name
 * @param {Flag} flag
 */
function variableOf(name, flag) {
	return flag.variable === undefined
		? `SANDBOX_${name.toUpperCase().replace(/-/g, '_')}`
		: (flag.variable ?? undefined);
}

/**
 * `util.parseArgs` options for these flags: a switch is a boolean, every other flag takes a value.
 * @param {Record<string, Flag>} flags
 * @returns {Record<string, { type: 'string' | 'boolean', short?: string }>}
 */
function flagOptions(flags) {
	return Object.fromEntries(
		Object.entries(flags).map(([name, flag]) => [
			name,
			{
				type: flag.value === undefined ? 'boolean' : 'string',
				...(flag.short === undefined ? {} : { short: flag.short }),
			},
		]),
	);
}

/** Reads a flag's text from the parsed values, else its environment variable, else its default. */
function flagReader(values, env, flags) {
	const given = (name) => values[name] ?? env[variableOf(name, flags[name])];
	const text = (name) => given(name) ?? flags[name].default;
	return {
		given: (name) => given(name) !== undefined,
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
			externalIds: flag
				.text('fault-external-ids')
				?.split(',')
				.map((externalId) => externalId.trim()),
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
		status: flag.number('rate-limit-status'),
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
				`methods ${faults.methods?.join(',') ?? 'all'}, ` +
				`external IDs ${faults.externalIds?.join(',') ?? 'all'}, seed ${faults.seed}, ` +
				`Retry-After ${faults.retryAfterSeconds} s, slow ${faults.slowMs} ms`,
		],
		['rate limit', describeRateLimit(rateLimit)],
	];
}

/** @param {import('./rateLimit').RateLimitOptions | null} rateLimit */
function describeRateLimit(rateLimit) {
	if (!rateLimit) return 'none';
	const { requestsPerSecond, burst, maxInFlight, retryAfterSeconds, retryAfter, headers, status } =
		rateLimitSettings(rateLimit);
	return [
		requestsPerSecond !== undefined && `${requestsPerSecond} requests/s (burst ${burst})`,
		maxInFlight !== undefined && `${maxInFlight} in flight`,
		`${status} with Retry-After ${retryAfterSeconds} s${retryAfter === 'date' ? ' as an HTTP-date' : ''}`,
		headers && 'X-RateLimit headers',
	]
		.filter(Boolean)
		.join(', ');
}

/**
 * A command's usage, made from its flag tables so that it lists every flag the command takes: one
 * line per flag with its value, what it does, its default and its environment variable.
 * @param {string} synopsis how the command is run, and what it does
 * @param {Array<[string, Record<string, Flag>]>} sections each a heading and its flags
 */
function formatUsage(synopsis, sections) {
	const form = (name, flag) =>
		[
			`--${name}`,
			flag.value === undefined ? '' : flag.value.startsWith('=') ? flag.value : ` ${flag.value}`,
			flag.short === undefined ? '' : `, -${flag.short}`,
		].join('');
	const width = Math.max(
		...sections.flatMap(([, flags]) => Object.entries(flags).map((entry) => form(...entry).length)),
	);
	const line = (name, flag) => {
		const variable = variableOf(name, flag);
		const notes = [
			flag.value === undefined ? undefined : `default ${flag.default ?? flag.otherwise ?? 'none'}`,
			variable,
		].filter(Boolean);
		const details = notes.length === 0 ? '' : ` (${notes.join('; ')})`;
		return `  ${form(name, flag).padEnd(width)}  ${flag.description}${details}`;
	};
	return [
		synopsis,
		...sections.flatMap(([heading, flags]) => [
			'',
			heading,
			...Object.entries(flags).map((entry) => line(...entry)),
		]),
	].join('\n');
}

/** What `npm run sandbox -- --help` prints: every flag cli.js takes. */
const SANDBOX_USAGE = formatUsage(
	'Usage: npm run sandbox -- [flags]  (node sandbox/cli.js [flags])\n' +
		'Runs the local Integration API sandbox until Ctrl-C. A flag left out is read from the ' +
		'variable its line names, else takes its default.',
	[
		['Where it listens, its tokens and its data:', { ...START_FLAGS, ...HELP_FLAG }],
		['Runtime options (PUT /_sandbox/options changes them while it runs):', RUNTIME_FLAGS],
	],
);

module.exports = {
	RUNTIME_FLAGS,
	START_FLAGS,
	HELP_FLAG,
	SANDBOX_USAGE,
	flagOptions,
	formatUsage,
	readRuntimeFlags,
	readSandboxFlags,
	describeRuntimeOptions,
	variableOf,
};
