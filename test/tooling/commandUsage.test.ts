/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-dangerous-functions
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * `npm run sandbox -- --help` and `npm run dev -- --help` print every flag the command takes, with
 * its default and environment variable, and start nothing; an unknown flag gets the error and the
 * same usage. The commands run as the user runs them, in a child process each, with arguments that
 * keep a command which failed to answer from starting much: the sandbox on a free port, and dev
 * with an n8n version it refuses at once, before it builds, installs or starts anything.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The sandbox and the scripts are plain JavaScript so that they run without a build step.
/* eslint-disable @typescript-eslint/no-require-imports */
const { HELP_FLAG, RUNTIME_FLAGS, SANDBOX_USAGE, START_FLAGS, variableOf } =
	require('../../sandbox/flags') as typeof import('../../sandbox/flags');
const { DEV_FLAGS, DEV_USAGE } =
	require('../../scripts/dev-flags') as typeof import('../../scripts/dev-flags');
/* eslint-enable @typescript-eslint/no-require-imports */

type Flags = typeof RUNTIME_FLAGS;

const ROOT = join(__dirname, '..', '..');
const UNKNOWN_FLAG = '--no-such-flag';

/**
 * How long a script may take to answer: each needs under a second of CPU, which a machine busy with
 * other jobs (CI's at load 20 on two cores) stretched past 15 s.
 */
const ANSWER_TIME_LIMIT_MS = 120_000;

/**
 * Runs a script to its end. A script that starts instead of answering is killed at the time limit,
 * and the test then fails on its exit code.
 */
function runScript(script: string, args: string[]) {
	return spawnSync(process.execPath, [join(ROOT, script), ...args], {
		cwd: ROOT,
		encoding: 'utf8',
		timeout: ANSWER_TIME_LIMIT_MS,
		killSignal: 'SIGKILL',
	});
}

/** Each flag on a line of its own, with its default (if it has one) and its variable (if any). */
function expectEveryFlagOnItsLine(usage: string, flags: Flags) {
	const flagLines = usage.split('\n').filter((line) => line.startsWith('  --'));
	expect(flagLines).toHaveLength(Object.keys(flags).length);
	for (const [name, flag] of Object.entries(flags)) {
		const line = flagLines.find(
			(candidate) => /^ {2}--[\w-]+/.exec(candidate)?.[0] === `  --${name}`,
		);
		expect(line ?? `no line for --${name}`).toContain(flag.description);
		if (flag.default !== undefined) expect(line).toContain(`default ${flag.default}`);
		const variable = variableOf(name, flag);
		if (variable !== undefined) expect(line).toContain(variable);
	}
}

describe('npm run sandbox', () => {
	const SCRIPT = 'sandbox/cli.js';

	const runSandbox = (args: string[]) => runScript(SCRIPT, ['--port', '0', ...args]);

	it('lists every flag it takes, each on its line with its default and variable', () => {
		expect(SANDBOX_USAGE).toMatch(/^Usage: npm run sandbox -- \[flags\]/);
		expectEveryFlagOnItsLine(SANDBOX_USAGE, { ...START_FLAGS, ...HELP_FLAG, ...RUNTIME_FLAGS });
		expect(SANDBOX_USAGE).toContain('  --port N ');
		expect(SANDBOX_USAGE).toContain('(default 4010; SANDBOX_PORT)');
		expect(SANDBOX_USAGE).toContain('  --clock-offset=MS ');
	});

	it.each(['--help', '-h'])('prints the usage for %s, and starts nothing', (helpFlag) => {
		const help = runSandbox([helpFlag]);

		expect(help.status).toBe(0);
		expect(help.stderr).toBe('');
		expect(help.stdout).toBe(`${SANDBOX_USAGE}\n`);
	});

	it('refuses an unknown flag with the error, then the usage, and exit code 2', () => {
		const unknown = runSandbox([UNKNOWN_FLAG]);

		expect(unknown.status).toBe(2);
		expect(unknown.stdout).toBe('');
		expect(unknown.stderr).toBe(`Unknown option '${UNKNOWN_FLAG}'\n\n${SANDBOX_USAGE}\n`);
	});
});

describe('npm run dev', () => {
	const SCRIPT = 'scripts/dev.js';
	let folder: string;
	let userFolder: string;

	beforeEach(() => {
		folder = mkdtempSync(join(tmpdir(), 'dev-usage-'));
		userFolder = join(folder, 'n8n-user');
	});

	afterEach(() => rmSync(folder, { recursive: true, force: true }));

	const runDev = (args: string[]) =>
		runScript(SCRIPT, ['--user-folder', userFolder, '--n8n', '0.0.0', ...args]);

	it('lists every flag it takes, its own and the sandbox runtime ones, each on its line', () => {
		expect(DEV_USAGE).toMatch(/^Usage: npm run dev -- \[flags\]/);
		expectEveryFlagOnItsLine(DEV_USAGE, { ...DEV_FLAGS, ...RUNTIME_FLAGS });
		expect(DEV_USAGE).toContain('(default 5678; N8N_DEV_PORT)');
		expect(DEV_USAGE).toContain('(default 2.8.4; EQUIPMENT_RENTAL_N8N_VERSION)');
	});

	it('prints the usage for --help, and builds, creates and starts nothing', () => {
		const help = runDev(['--help']);

		expect(help.status).toBe(0);
		expect(help.stderr).toBe('');
		expect(help.stdout).toBe(`${DEV_USAGE}\n`);
		expect(existsSync(userFolder)).toBe(false);
	});

	it('refuses an unknown flag with the error, then the usage, and exit code 2, creating nothing', () => {
		const unknown = runDev([UNKNOWN_FLAG]);

		expect(unknown.status).toBe(2);
		expect(unknown.stdout).toBe('');
		expect(unknown.stderr).toBe(`[dev] Unknown option '${UNKNOWN_FLAG}'\n\n${DEV_USAGE}\n`);
		expect(existsSync(userFolder)).toBe(false);
	});
});
