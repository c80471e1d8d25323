/**
 * The benchmarks that need n8n 2.8.4 installed run in their smoke mode (--smoke: a few rows, one
 * round, no goal judged, every result checked), so that none of them breaks unseen: the sync
 * benchmark in n8n's engine in process, and the two that start a real n8n (`n8n start`) with the
 * built package, bench:n8n also in queue mode. Each variant gives its figures, and the processes each started are gone. Their
 * --help, and the benchmarks that need no n8n, are in test/tooling/benchmarks.test.ts.
 */
import { BENCH_TIME_LIMIT_MS, BENCHES, runBench, stoppedProcesses } from '../harness/benchmarks';

const TEST_TIME_LIMIT_MS = BENCH_TIME_LIMIT_MS + 30_000;

/** The lines of a table of a report, from the line starting with `heading` to the next blank one. */
function tableAfter(stdout: string, heading: string): string[] {
	const lines = stdout.split('\n');
	const start = lines.findIndex((line) => line.startsWith(heading));
	if (start < 0) throw new Error(`no "${heading}" in:\n${stdout}`);
	const end = lines.findIndex((line, index) => index > start && line === '');
	return lines.slice(start + 1, end < 0 ? undefined : end);
}

const rowOf = (lines: string[], label: string) =>
	lines.find((line) => line.startsWith(`  ${label}`));

it(
	'npm run bench:sync -- --smoke: every contender in both cases and both sandboxes, the sandbox stopped',
	() => {
		const smoke = runBench(BENCHES.sync, ['--smoke']);

		expect(smoke.stdout).not.toContain('WRONG RESULTS');
		expect(smoke.stdout).not.toContain('NOT MEASURED');
		expect(smoke.status).toBe(0);
		const firstLoad = tableAfter(smoke.stdout, 'FIRST LOAD: Create or Update of 120 clients');
		const nightly = tableAfter(smoke.stdout, 'NIGHTLY: Create or Update of 120 clients');
		const limited = 'limited to 100/s';
		for (const [lines, contenders] of [
			[firstLoad, ['(a)', '(b)', '(c)', '(e)']],
			[nightly, ['(a)', '(b)', '(c)', '(d)', '(e)', '(f)']],
		] as const) {
			const unlimitedRows = lines.slice(
				0,
				lines.findIndex((line) => line.startsWith(limited)),
			);
			for (const contender of contenders)
				expect(rowOf(unlimitedRows, contender) ?? `no ${contender}`).toMatch(/ \d+\.\d\d s /);
			expect(lines.some((line) => line.startsWith(limited))).toBe(true);
		}
		expect(smoke.stdout).toContain('Goals, first load: not judged (--smoke)');
		expect(smoke.stdout).toContain('Goals, nightly: not judged (--smoke)');
		expect(stoppedProcesses(smoke.stdout)).toEqual([{ name: 'sandbox', running: false }]);
	},
	TEST_TIME_LIMIT_MS,
);

it(
	'npm run bench:n8n -- --smoke: every contender in both cases and the declarative floor ended with success, n8n and the sandbox stopped',
	() => {
		const smoke = runBench(BENCHES.n8nResponsiveness, ['--smoke']);

		expect(smoke.stdout).not.toContain('WRONG RESULTS');
		expect(smoke.status).toBe(0);
		const node = ['(a) the node', "(a') (a) in Loop", '(b) HTTP Request + IF'];
		for (const [heading, contenders] of [
			[
				'NIGHTLY: ',
				[...node, '(d) HTTP Request pagination + Compare Datasets', '(f) routing floor'],
			],
			['FIRST LOAD: ', node],
			['DECLARATIVE FLOOR: ', ['(e) smallest declarative node']],
		] as const) {
			const lines = tableAfter(smoke.stdout, heading);
			for (const contender of contenders)
				expect(rowOf(lines, contender) ?? `no ${contender}`).toMatch(
					/ success +\d+\.\d\d s .* \d+ MB /,
				);
		}
		expect(smoke.stdout).toMatch(/^ {2}n8n's engine alone holds the event loop about \d/m);
		expect(smoke.stdout).toContain('Goals, nightly: not judged (--smoke)');
		expect(stoppedProcesses(smoke.stdout)).toEqual([
			{ name: 'sandbox', running: false },
			{ name: 'n8n', running: false },
		]);
	},
	TEST_TIME_LIMIT_MS,
);

/** The value in `row` of the column `name`, right-aligned under it in `header`. */
function cellOf(header: string, row: string, name: string): string | undefined {
	const end = header.indexOf(name) + name.length;
	return row.slice(0, end).trim().split(/\s+/).pop();
}

it(
	"npm run bench:n8n -- --smoke --parallel-requests 20: the node's run with the budget given, more than the default 5 in flight and no more than 20",
	() => {
		const options = '--smoke --case first-load --only a --parallel-requests 20';
		const smoke = runBench(BENCHES.n8nResponsiveness, options.split(' '));

		expect(smoke.stdout).not.toContain('WRONG RESULTS');
		expect(smoke.status).toBe(0);
		const [header, ...rows] = tableAfter(smoke.stdout, 'FIRST LOAD: ');
		const node = rowOf(rows, '(a) the node, Parallel Requests 20') ?? 'no (a)';
		expect(node).toMatch(/ success +\d+\.\d\d s /);
		const inFlight = Number(cellOf(header, node, 'most in flight'));
		expect(inFlight).toBeGreaterThan(5);
		expect(inFlight).toBeLessThanOrEqual(20);
	},
	TEST_TIME_LIMIT_MS,
);

it(
	'npm run bench:n8n -- --smoke --queue: the node on a queue-mode worker ended with success, the memory of main and worker sampled, every process stopped',
	() => {
		const smoke = runBench(BENCHES.n8nResponsiveness, [
			'--smoke',
			'--queue',
			'--case',
			'nightly',
			'--only',
			"a,a'",
		]);

		expect(smoke.stdout).not.toContain('WRONG RESULTS');
		expect(smoke.status).toBe(0);
		const lines = tableAfter(smoke.stdout, 'NIGHTLY: ');
		for (const contender of ['(a) the node', "(a') (a) in Loop"]) {
			expect(rowOf(lines, contender) ?? `no ${contender}`).toMatch(/ success +\d+\.\d\d s /);
			const memory = lines.filter(
				(line) =>
					line.startsWith(`  ${contender}`) &&
					/: peak RSS n8n \d+ MB, n8n worker \d+ MB$/.test(line),
			);
			expect(memory).toHaveLength(1);
		}
		expect(stoppedProcesses(smoke.stdout)).toEqual(
			['sandbox', 'PostgreSQL', 'Redis', 'n8n', 'n8n worker'].map((name) => ({
				name,
				running: false,
			})),
		);
	},
	TEST_TIME_LIMIT_MS,
);

it(
	'npm run bench:n8n -- --smoke --trigger webhook: production runs by a webhook, their saved run data sized, and with --save none nothing saved and the records still checked',
	() => {
		const production = ['--smoke', '--trigger', 'webhook', '--case', 'nightly', '--only', "a,a'"];
		const saved = runBench(BENCHES.n8nResponsiveness, production);
		const unsaved = runBench(BENCHES.n8nResponsiveness, [...production, '--save', 'none']);

		for (const smoke of [saved, unsaved]) {
			expect(smoke.stdout).not.toContain('WRONG RESULTS');
			expect(smoke.status).toBe(0);
			expect(smoke.stdout).toContain("by a POST to the active workflow's Webhook trigger");
		}
		const savedRows = tableAfter(saved.stdout, 'NIGHTLY: ');
		const unsavedRows = tableAfter(unsaved.stdout, 'NIGHTLY: ');
		for (const contender of ['(a) the node', "(a') (a) in Loop"]) {
			// The last two columns: the saved run data's size and its stringify's time.
			expect(rowOf(savedRows, contender) ?? `no ${contender}`).toMatch(
				/ success +\d+\.\d\d s .* \d+ MB +\d+ ms$/,
			);
			expect(rowOf(unsavedRows, contender) ?? `no ${contender}`).toMatch(
				/ success +\d+\.\d\d s .* +- +-$/,
			);
			expect(
				unsaved.stdout
					.split('\n')
					.some((line) => line.startsWith(contender) && line.includes(': n8n saved no execution')),
			).toBe(true);
		}
	},
	TEST_TIME_LIMIT_MS * 2,
);

it(
	'npm run bench:n8n:list -- --smoke: the node, HTTP Request and the paging floor timed, their requests counted, n8n and the sandbox stopped',
	() => {
		const smoke = runBench(BENCHES.n8nReturnAll, ['--smoke']);

		expect(smoke.stdout).not.toContain('WRONG RESULTS');
		expect(smoke.status).toBe(0);
		// 250 models in pages of 100: the node reads 3 pages, HTTP Request stops at the third, not full.
		expect(smoke.stdout).toMatch(/^ {2}\(n\) the node \S+ +\d+ ms +\d+ ms +\d+ ms +3$/m);
		expect(smoke.stdout).toMatch(
			/^ {2}\(h\) HTTP Request, n8n of \S+ +\d+ ms +\d+ ms +\d+ ms +3$/m,
		);
		expect(smoke.stdout).toMatch(
			/^ {2}\(f\) smallest declarative paging, n8n of \S+ +\d+ ms +\d+ ms +\d+ ms +3$/m,
		);
		expect(smoke.stdout).toMatch(/n\/h = \d+\.\d\d, n\/f = \d+\.\d\d/);
		expect(smoke.stdout).toMatch(/^The floor, n8n's engine alone: f\/h = \d+\.\d\d/m);
		expect(smoke.stdout).toContain('Goals: not judged (--smoke)');
		const processes = stoppedProcesses(smoke.stdout);
		expect(processes.map(({ name }) => name)).toEqual([
			'sandbox',
			expect.stringMatching(/^n8n of /),
		]);
		expect(processes.every(({ running }) => !running)).toBe(true);
	},
	TEST_TIME_LIMIT_MS,
);
