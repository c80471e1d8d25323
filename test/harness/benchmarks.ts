/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-dangerous-functions
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * The benchmarks (bench/) as the docs name them, run as commands in a child process each: their
 * --help, and their --smoke runs, whose output says which processes they started and stopped.
 * test/tooling/benchmarks.test.ts runs those that need no n8n install, test/e2e/benchmarks.e2e.test.ts the
 * others.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * How long a benchmark's smoke run or help may take: seconds each on a quiet machine, stretched
 * many times on CI's machine at load 20 (docs/development.md, "Tests and the machine's speed").
 */
export const BENCH_TIME_LIMIT_MS = 120_000;

/** A benchmark: its script in bench/, and the options of Node it runs with (as its npm script). */
export interface Bench {
	script: string;
	nodeOptions: string[];
}

export const BENCHES = {
	pagination: { script: 'pagination.bench.js', nodeOptions: ['--expose-gc'] },
	sync: { script: 'sync.bench.js', nodeOptions: ['--expose-gc'] },
	n8nResponsiveness: { script: 'n8n-responsiveness.bench.js', nodeOptions: [] },
	n8nReturnAll: { script: 'n8n-return-all.bench.js', nodeOptions: [] },
	recordsHeld: { script: 'records-held.bench.js', nodeOptions: ['--expose-gc'] },
	cpuProfile: { script: 'cpu-profile.js', nodeOptions: [] },
} satisfies Record<string, Bench>;

/**
 * Runs a benchmark with `args` to its end: its exit code (null when it was killed at the time
 * limit), its output, and how long it took.
 */
export function runBench({ script, nodeOptions }: Bench, args: string[]) {
	const started = Date.now();
	const run = spawnSync(process.execPath, [...nodeOptions, join(ROOT, 'bench', script), ...args], {
		cwd: ROOT,
		encoding: 'utf8',
		timeout: BENCH_TIME_LIMIT_MS,
		killSignal: 'SIGKILL',
	});
	return { status: run.status, stdout: run.stdout, stderr: run.stderr, ms: Date.now() - started };
}

/** Whether a process, or a process group, of that ID is there. */
function isRunning(pid: number, group: boolean): boolean {
	try {
		process.kill(group ? -pid : pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/**
 * The processes a benchmark says it started and stopped (its line "Processes started, all
 * stopped: sandbox (PID 1), n8n (process group 2)."), each checked gone now.
 */
export function stoppedProcesses(stdout: string) {
	const line = /^Processes started, all stopped: (.*)\.$/m.exec(stdout)?.[1];
	if (line === undefined) throw new Error(`no line of the processes it started in:\n${stdout}`);
	return [...line.matchAll(/([^,]+?) \((PID|process group) (\d+)\)/g)].map(
		([, name, kind, pid]) => ({
			name: name.trim(),
			running: isRunning(Number(pid), kind === 'process group'),
		}),
	);
}
