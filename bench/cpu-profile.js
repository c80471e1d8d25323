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
 * total times shows (default: package, n8n-core, n8n-workflow).
 */

const { readFileSync } = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const { table } = require('./measuring');

const PROJECT_ROOT = path.join(__dirname, '..');
/** The folders of this repository whose code is the package's (the sources, or their build). */
const PACKAGE_FOLDERS = ['nodes', 'credentials', 'dist'];
/** V8's names of the samples that are no JavaScript function. */
const V8_ENTRIES = new Set(['(program)', '(garbage collector)', '(root)']);
const IDLE = '(idle)';

const { values: flags, positionals: files } = parseArgs({
	allowPositionals: true,
	options: {
		rows: { type: 'string' },
		top: { type: 'string' },
		origin: { type: 'string' },
	},
});
const TOP = Number(flags.top ?? 25);
const ROWS = flags.rows === undefined ? undefined : Number(flags.rows);
const TOTAL_ORIGINS = flags.origin?.split(',') ?? ['package', 'n8n-core', 'n8n-workflow'];
if (files.length === 0) {
	console.error(
		'Usage: node bench/cpu-profile.js FILE... [--rows N] [--top N] [--origin NAME,...]',
	);
	process.exit(2);
}

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

const sums = { busy: 0, idle: 0, wall: 0, self: {}, total: {}, byOrigin: {} };
for (const file of files) addProfile(sums, JSON.parse(readFileSync(file, 'utf8')));

const ms = (micros) => `${(micros / 1000).toFixed(0)} ms`;
const share = (micros) => `${((micros / sums.busy) * 100).toFixed(1)}%`;
const perRow = (micros) => `${(micros / 1000 / (ROWS * files.length)).toFixed(3)} ms`;
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
