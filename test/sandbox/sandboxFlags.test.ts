/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * The sandbox's flags, read by one parser (sandbox/flags.js) for `npm run sandbox` and
 * `npm run dev`, and the README's table of what PUT /_sandbox/options takes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';

// The sandbox is plain JavaScript so that it runs without a build step.
/* eslint-disable @typescript-eslint/no-require-imports */
const {
	RUNTIME_FLAGS,
	START_FLAGS,
	describeRuntimeOptions,
	flagOptions,
	readRuntimeFlags,
	readSandboxFlags,
} = require('../../sandbox/flags') as typeof import('../../sandbox/flags');
const { RUNTIME_OPTIONS } =
	require('../../sandbox/server') as typeof import('../../sandbox/server');
const { DEFAULT_FAULT_OPTIONS } =
	require('../../sandbox/faults') as typeof import('../../sandbox/faults');
const { DEFAULT_RATE_LIMIT_OPTIONS } =
	require('../../sandbox/rateLimit') as typeof import('../../sandbox/rateLimit');
/* eslint-enable @typescript-eslint/no-require-imports */

const ROOT = join(__dirname, '..', '..');

/** The flags as `npm run dev` parses them: its own, and the sandbox's runtime flags. */
function devFlags(args: string[]) {
	const { values } = parseArgs({
		args,
		options: { port: { type: 'string' }, ...flagOptions(RUNTIME_FLAGS) },
	});
	return readRuntimeFlags(values, {});
}

describe('readRuntimeFlags', () => {
	it('reads every runtime option from its flag, in both forms', () => {
		const options = devFlags([
			'--port=5679',
			'--latency',
			'200',
			'--max-page-size=50',
			'--fault-rate',
			'0.25',
			'--fault-kinds=503, 429,soft-failure',
			'--fault-seed',
			'9',
			'--retry-after=3',
			'--slow-ms',
			'750',
			'--clock-offset=-600000',
			'--error-dialect',
			'problem',
			'--strict=true',
			'--rate-limit-rps',
			'200',
			'--rate-limit-burst=50',
			'--rate-limit-in-flight',
			'8',
			'--rate-limit-retry-after',
			'date',
			'--rate-limit-headers=true',
			'--rate-limit-status',
			'503',
		]);

		expect(options).toEqual({
			latencyMs: 200,
			maxPageSize: 50,
			faults: {
				rate: 0.25,
				kinds: ['503', '429', 'soft-failure'],
				seed: 9,
				retryAfterSeconds: 3,
				slowMs: 750,
			},
			rateLimit: {
				requestsPerSecond: 200,
				burst: 50,
				maxInFlight: 8,
				retryAfter: 'date',
				headers: true,
				status: 503,
			},
			clockOffsetMs: -600000,
			errorDialect: 'problem',
			strict: true,
		});
	});

	it('takes a flag left out from SANDBOX_<FLAG>, else from the default', () => {
		const options = readRuntimeFlags(
			{ latency: '10' },
			{ SANDBOX_LATENCY: '99', SANDBOX_ERROR_DIALECT: 'html', SANDBOX_FAULT_KINDS: '500' },
		);

		expect(options).toMatchObject({
			latencyMs: 10,
			errorDialect: 'html',
			faults: { rate: 0, kinds: ['500'], seed: 1, retryAfterSeconds: 1, slowMs: 2000 },
			maxPageSize: undefined,
			rateLimit: null,
			clockOffsetMs: 0,
			strict: false,
		});
	});

	it('sets a rate limit once one of its flags is given, the others taking their defaults', () => {
		const { rateLimit } = readRuntimeFlags(
			{ 'rate-limit-in-flight': '4' },
			{ SANDBOX_RATE_LIMIT_RETRY_AFTER: '3' },
		);

		expect(rateLimit).toEqual({
			maxInFlight: 4,
			retryAfterSeconds: 3,
			headers: false,
			status: 429,
		});
	});

	it.each([
		[['--error-dialect', 'xml'], /^--error-dialect must be one of message, message-list, problem/],
		[['--latency', 'fast'], /^--latency must be a number, got "fast"/],
		[['--latency=-5'], /^--latency must be >= 0/],
		[['--max-page-size', '0'], /^--max-page-size must be a positive integer/],
		[['--fault-rate', '2'], /^--fault-rate must be between 0 and 1/],
		[['--fault-kinds', 'teapot'], /^--fault-kinds must be a non-empty list of 500, 503/],
		[['--strict', 'yes'], /^--strict must be true or false, got "yes"/],
		[['--clock-offset', ''], /^--clock-offset must be a number, got ""/],
		[['--rate-limit-rps', 'abc'], /^--rate-limit-rps must be a number, got "abc"/],
		[['--rate-limit-rps', '0'], /^--rate-limit-rps must be a positive number/],
		[['--rate-limit-burst', '5'], /^--rate-limit-burst needs --rate-limit-rps$/],
		[['--rate-limit-in-flight', '2.5'], /^--rate-limit-in-flight must be an integer >= 1/],
		[
			['--rate-limit-retry-after', 'soon'],
			/^--rate-limit-retry-after must be a number of seconds or date, got "soon"/,
		],
		[['--rate-limit-headers', 'true'], /^--rate-limit-headers needs --rate-limit-rps/],
		[['--rate-limit-retry-after', '2'], /^--rate-limit-rps or --rate-limit-in-flight must be set/],
	])('refuses %p, naming the flag', (args, message) => {
		expect(() => devFlags(args)).toThrow(message);
	});
});

it('npm run sandbox reads the same runtime flags, beside its address, tokens and data', () => {
	const { values } = parseArgs({
		args: ['--port', '0', '--models', '10', '--error-dialect', 'jsonapi', '--strict', 'true'],
		options: flagOptions({ ...START_FLAGS, ...RUNTIME_FLAGS }),
	});

	expect(readSandboxFlags(values, {})).toMatchObject({
		port: 0,
		models: 10,
		token: 'sandbox-token',
		adminToken: 'sandbox-admin-token',
		errorDialect: 'jsonapi',
		strict: true,
		latencyMs: 0,
	});
});

it('describes the rate limit in one line, as both commands print it', () => {
	const describeRateLimit = (args: string[]) =>
		Object.fromEntries(describeRuntimeOptions(devFlags(args)))['rate limit'];

	expect(describeRateLimit([])).toBe('none');
	expect(
		describeRateLimit([
			'--rate-limit-rps=200',
			'--rate-limit-in-flight=8',
			'--rate-limit-headers=true',
		]),
	).toBe('200 requests/s (burst 200), 8 in flight, 429 with Retry-After 1 s, X-RateLimit headers');
	expect(describeRateLimit(['--rate-limit-in-flight=8', '--rate-limit-retry-after=date'])).toBe(
		'8 in flight, 429 with Retry-After 1 s as an HTTP-date',
	);
});

describe('what PUT /_sandbox/options takes', () => {
	const fields = [
		...RUNTIME_OPTIONS,
		...Object.keys(DEFAULT_FAULT_OPTIONS).map((key) => `faults.${key}`),
		...Object.keys(DEFAULT_RATE_LIMIT_OPTIONS).map((key) => `rateLimit.${key}`),
	];

	it('the table of docs/development.md lists every field, and every flag of npm run sandbox and npm run dev', () => {
		const readme = readFileSync(join(ROOT, 'docs', 'development.md'), 'utf8');
		const section = /### Sandbox options\n([\s\S]*?)\n###? /.exec(readme)?.[1] ?? '';
		const rows = [...section.matchAll(/^\| `([\w.]+)` +\| ([^|]*)\|/gm)].map(
			([, field, flag]) => [field, flag.trim()] as const,
		);

		expect(rows.map(([field]) => field).sort()).toEqual([...fields].sort());
		const flagsInTable = rows.map(([, flag]) => flag).join(' ');
		for (const flag of Object.keys(RUNTIME_FLAGS)) expect(flagsInTable).toContain(`--${flag}`);
	});

	it("the document's schema of the request lists every runtime option", () => {
		const document = parseYaml(readFileSync(join(ROOT, 'sandbox', 'openapi.yaml'), 'utf8'));
		const schema = document.components.schemas.SandboxOptions;

		expect(Object.keys(schema.properties).sort()).toEqual([...RUNTIME_OPTIONS].sort());
		expect(Object.keys(schema.properties.faults.properties).sort()).toEqual(
			Object.keys(DEFAULT_FAULT_OPTIONS).sort(),
		);
		expect(Object.keys(schema.properties.rateLimit.properties).sort()).toEqual(
			Object.keys(DEFAULT_RATE_LIMIT_OPTIONS).sort(),
		);
	});
});
