/**
 * Every benchmark the docs name runs: each prints its options for --help (and starts nothing),
 * refuses an unknown option, and the benchmarks that need no n8n install run in their smoke mode
 * (--smoke: a few records, one round, no goal judged, every result checked): each variant gives
 * its figure, the requests are as many as the variant must send, and the processes it started are
 * gone. Those that need n8n 2.8.4 run in test/e2e/benchmarks.e2e.test.ts. No figure is compared
 * with a time: the benchmarks measure, the tests check that they can.
 */
import { BENCH_TIME_LIMIT_MS, BENCHES, runBench, stoppedProcesses } from '../harness/benchmarks';

const TEST_TIME_LIMIT_MS = BENCH_TIME_LIMIT_MS + 30_000;

describe.each(Object.values(BENCHES).map((bench) => [bench.script, bench] as const))(
	'bench/%s',
	(_script, bench) => {
		it(
			'prints its options for --help, with --smoke and --help among them, and exits with 0',
			() => {
				const help = runBench(bench, ['--help']);

				expect(help.stderr).toBe('');
				expect(help.status).toBe(0);
				expect(help.stdout).toMatch(/^Usage: /);
				expect(help.stdout).toMatch(/^ {2}--smoke +\S/m);
				expect(help.stdout).toMatch(/^ {2}--help, -h +prints this and exits$/m);
			},
			TEST_TIME_LIMIT_MS,
		);

		it(
			'refuses an unknown option with the error and its usage, and exit code 2',
			() => {
				const unknown = runBench(bench, ['--no-such-option']);

				expect(unknown.status).toBe(2);
				expect(unknown.stdout).toBe('');
				expect(unknown.stderr).toMatch(/^Unknown option '--no-such-option'[^\n]*\n\nUsage: /);
			},
			TEST_TIME_LIMIT_MS,
		);
	},
);

const figure = String.raw`\d+ ms`;

it(
	"npm run bench -- --smoke: every contender's time, one request per page, the sandbox stopped",
	() => {
		const smoke = runBench(BENCHES.pagination, ['--smoke']);

		expect(smoke.stderr).not.toMatch(/Error/);
		expect(smoke.status).toBe(0);
		for (const contender of [
			'(a) sequential fetch loop',
			'(b) fetch loop, 5 requests in parallel',
			"(c) the node through n8n's engine",
			"(d) n8n's generic pagination, sequential",
		])
			expect(smoke.stdout).toMatch(new RegExp(`^ {2}${escaped(contender)} +${figure}$`, 'm'));
		expect(smoke.stdout).toMatch(new RegExp(`^ {2}\\(e\\) .* +${figure}: e/b = \\d`, 'm'));
		expect(smoke.stdout).toMatch(new RegExp(`^ {2}\\(f\\) .* +${figure}: f/e = \\d`, 'm'));
		// 250 models in pages of 100.
		expect(smoke.stdout).toContain('every run: 3 requests, one per page;');
		expect(smoke.stdout).toContain('not judged with --smoke');
		expect(stoppedProcesses(smoke.stdout)).toEqual([{ name: 'sandbox', running: false }]);
	},
	TEST_TIME_LIMIT_MS,
);

it(
	'node --expose-gc bench/records-held.bench.js --smoke: a line of figures for each combination',
	() => {
		const smoke = runBench(BENCHES.recordsHeld, ['--smoke']);

		expect(smoke.stderr).toBe('');
		expect(smoke.status).toBe(0);
		const rows = smoke.stdout.split('\n').filter((line) => line.startsWith('  2,000 clients'));
		expect(rows.map((row) => row.split(/ {2,}/)[2])).toEqual(['0', '1']);
		for (const row of rows) expect(row.match(/\d+\.\d+ (MB|KB)/g)).toHaveLength(5);
	},
	TEST_TIME_LIMIT_MS,
);

it(
	'node bench/cpu-profile.js --smoke: a profile of its own work summed up, the work found',
	() => {
		const smoke = runBench(BENCHES.cpuProfile, ['--smoke']);

		expect(smoke.stderr).toBe('');
		expect(smoke.status).toBe(0);
		expect(smoke.stdout).toMatch(/^1 profiles: \d+ ms profiled, \d+ ms busy/);
		expect(smoke.stdout).toMatch(/^ {2}smokeWork bench\/cpu-profile\.js:\d+ .* bench$/m);
	},
	TEST_TIME_LIMIT_MS,
);

function escaped(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
