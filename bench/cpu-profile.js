'use strict';

/**
 * Sums up V8 CPU profiles (.cpuprofile, as `node --cpu-prof` and bench/sync.bench.js's
 * --cpu-prof-dir write them): where the CPU went, by origin (this package's code, n8n-core,
 * n8n-workflow, n8n-nodes-base, other packages, Node.js, V8's garbage collector) and by function,
 * both as self time (the samples in the function itself) and as total time (the samples in it and
 * in what it called, counted once where it calls itself). Several files are added up, e.g. the
 * rounds of one contender. Shares are of the busy time (the samples that are not idle).
 *
 * A profile holds stacks as V8 saw them: an async function's total covers the parts it ran without
 * awaiting, not what ran after an await resumed it (that is in the resuming callback's stack).
 *
 * Run with `node bench/cpu-profile.js FILE... [--rows N] [--top N] [--origin NAME,...]`: --rows
 * prints the time per row as well (the rows of one run; the files' time is divided by rows x
 * files), --top how many functions each list shows (default 25), --origin which origins the list of
 * total times shows (default: package, n8n-core, n8n-workflow). `--smoke` profiles a moment of its
 * own work instead (SMOKE_WORK_MS, into a temporary folder, removed after) and sums that up,
 * checking that the busy function is found.
 */

const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { commandLine, commonUsage, usageError } = require('./command-line');
const { table } = require('./measuring');

const PROJECT_ROOT = path.join(__dirname, '..');
/** The folders of this repository whose code is the package's (the sources, or their build). */
const PACKAGE_FOLDERS = ['nodes', 'credentials', 'dist'];
/** V8's names of the samples that are no JavaScript function. */
const V8_ENTRIES = new Set(['(program)', '(garbage collector)', '(root)']);
const IDLE = '(idle)';

const USAGE = [
	'Usage: node bench/cpu-profile.js FILE... [options]',
	'Sums up V8 CPU profiles (.cpuprofile: node --cpu-prof, bench/sync.bench.js --cpu-prof-dir DIR): the',
	'busy time by origin, and the functions with the most self time and total time.',
	"  --rows N          also the time per row (the rows of one run; the files' time / rows x files)",
	'  --top N           functions each list shows (default 25)',
	'  --origin NAME,... origins the list of total times shows (default package,n8n-core,n8n-workflow)',
	...commonUsage(
		'profiles a moment of its own work (no FILE), sums it up and checks that its busy function is found',
		20,
	),
].join('\n');
const { values: flags, positionals } = commandLine(
	USAGE,
	{ rows: { type: 'string' }, top: { type: 'string' }, origin: { type: 'string' } },
	{ allowPositionals: true },
);
const SMOKE = flags.smoke === true;
const TOP = Number(flags.top ?? 25);
const ROWS = flags.rows === undefined ? undefined : Number(flags.rows);
const TOTAL_ORIGINS =
	flags.origin?.split(',') ?? (SMOKE ? ['bench'] : ['package', 'n8n-core', 'n8n-workflow']);
if (positionals.length === 0 && !SMOKE) usageError(USAGE, 'No profile given.');
if (
	!(Number.isInteger(TOP) && TOP > 0) ||
	!(ROWS === undefined || (Number.isInteger(ROWS) && ROWS > 0))
)
	usageError(USAGE, '--top and --rows take whole numbers above 0');

/** Where a function's code comes from, by its script's URL. */
function originOf({ url, functionName }) {
	if (url === '') return V8_ENTRIES.has(functionName) || functionName === IDLE ? 'V8' : 'native';
	if (url.startsWith('node:')) return 'Node.js';
	const file = url.startsWith('file://') ? new URL(url).pathname : url;
	const inPackage = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
	if (inPackage) return inPackage[1];
	const relative = path.relative(PROJECT_ROOT, file);
	if (relative.startsWith('..')) return 'other';
	return PACKAGE_FOLDERS.includes(relative.split(path.sep)[0])
		? 'package'
		: relative.split(path.sep)[0];
}

/** A function's name and place, as the lists show it: its file shortened to what tells it apart. */
function placeOf({ url, lineNumber }) {
	const file = url.startsWith('file://') ? new URL(url).pathname : url;
	const inPackage = file.lastIndexOf('/node_modules/');
	const shown =
		inPackage >= 0
			? file.slice(inPackage + '/node_modules/'.length)
			: path.relative(PROJECT_ROOT, file) || file;
	return `${shown}:${lineNumber + 1}`;
}

const keyOf = (callFrame) => `${callFrame.functionName || '(anonymous)'} ${placeOf(callFrame)}`;

/**
 * Adds one profile to `sums`: the time of each sample (the delta to the next one) to its function's
 * self time, and to the total time of each function on its stack (once per function).
 */
function addProfile(sums, profile) {
	const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
	const parents = new Map();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parents.set(child, node);
	const { samples, timeDeltas } = profile;
	for (let index = 0; index < samples.length; index++) {
		const micros = timeDeltas[index + 1] ?? 0;
		const leaf = nodes.get(samples[index]);
		const leafFrame = leaf.callFrame;
		if (leafFrame.functionName === IDLE) {
			sums.idle += micros;
			continue;
		}
		sums.busy += micros;
		const leafKey = keyOf(leafFrame);
		const self = (sums.self[leafKey] ??= { micros: 0, origin: originOf(leafFrame) });
		self.micros += micros;
		sums.byOrigin[self.origin] = (sums.byOrigin[self.origin] ?? 0) + micros;
		const onStack = new Set();
		for (let node = leaf; node; node = parents.get(node.id)) {
			const key = keyOf(node.callFrame);
			if (onStack.has(key)) continue;
			onStack.add(key);
			const total = (sums.total[key] ??= { micros: 0, origin: originOf(node.callFrame) });
			total.micros += micros;
		}
	}
	sums.wall += profile.endTime - profile.startTime;
}

const SMOKE_WORK_MS = 300;

/** What --smoke profiles: SMOKE_WORK_MS of arithmetic. */
function smokeWork() {
	let sum = 0;
	for (const until = Date.now() + SMOKE_WORK_MS; Date.now() < until;)
		for (let step = 0; step < 10_000; step++) sum += Math.sqrt(step + sum);
	return sum;
}

/** smokeWork profiled by V8's sampling profiler, as --cpu-prof-dir profiles, into `dir`. */
async function smokeProfile(dir) {
	const { Session } = require('node:inspector/promises');
	const session = new Session();
	session.connect();
	try {
		await session.post('Profiler.enable');
		await session.post('Profiler.setSamplingInterval', { interval: 250 });
		await session.post('Profiler.start');
		smokeWork();
		const { profile } = await session.post('Profiler.stop');
		const file = path.join(dir, 'smoke.cpuprofile');
		writeFileSync(file, JSON.stringify(profile));
		return file;
	} finally {
		session.disconnect();
	}
}

const sums = { busy: 0, idle: 0, wall: 0, self: {}, total: {}, byOrigin: {} };

const ms = (micros) => `${(micros / 1000).toFixed(0)} ms`;
const share = (micros) => `${((micros / sums.busy) * 100).toFixed(1)}%`;
let fileCount = 0;
const perRow = (micros) => `${(micros / 1000 / (ROWS * fileCount)).toFixed(3)} ms`;
const columns = [
	['time', (entry) => ms(entry.micros)],
	['share of busy', (entry) => share(entry.micros)],
	...(ROWS ? [['per row', (entry) => perRow(entry.micros)]] : []),
	['origin', (entry) => entry.origin],
];
const ranked = (entries) =>
	Object.entries(entries)
		.sort(([, left], [, right]) => right.micros - left.micros)
		.slice(0, TOP);

function report(files) {
	console.log(
		[
			`${files.length} profiles: ${ms(sums.wall)} profiled, ${ms(sums.busy)} busy (${ms(sums.idle)} idle)${ROWS ? `, busy ${perRow(sums.busy)} per row` : ''}.`,
			'Busy time by origin:',
			...table(
				columns,
				Object.entries(sums.byOrigin)
					.sort(([, left], [, right]) => right - left)
					.map(([origin, micros]) => [origin, { micros, origin }]),
			),
			`Self time, the top ${TOP} functions:`,
			...table(columns, ranked(sums.self)),
			`Total time (with what they call), the top ${TOP} functions of ${TOTAL_ORIGINS.join(', ')}:`,
			...table(
				columns,
				ranked(
					Object.fromEntries(
						Object.entries(sums.total).filter(([, entry]) => TOTAL_ORIGINS.includes(entry.origin)),
					),
				),
			),
		].join('\n'),
	);
}

async function main() {
	const smokeDir = SMOKE && mkdtempSync(path.join(os.tmpdir(), 'cpu-profile-smoke-'));
	try {
		const files = SMOKE ? [await smokeProfile(smokeDir)] : positionals;
		fileCount = files.length;
		for (const file of files) addProfile(sums, JSON.parse(readFileSync(file, 'utf8')));
		report(files);
		if (SMOKE) {
			// The profile found the work: most of its busy time, in smokeWork of this file.
			const work = Object.entries(sums.self).find(([key]) => key.startsWith('smokeWork '));
			if (!(sums.busy > 0 && work && work[1].micros > sums.busy / 2)) {
				console.error('SMOKE: the profile does not show smokeWork as the busiest function');
				process.exitCode = 1;
			}
		}
	} finally {
		if (smokeDir) rmSync(smokeDir, { recursive: true, force: true });
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
