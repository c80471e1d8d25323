'use strict';

/**
 * What the benchmarks measure with and report in: medians, the heap after a forced garbage
 * collection, the machine's load, their tables and goals' verdicts; and the lists their options
 * take.
 */

const os = require('node:os');
const { setTimeout: sleep } = require('node:timers/promises');

function median(values) {
	const sorted = [...values].sort((left, right) => left - right);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const heapUsed = () => process.memoryUsage().heapUsed;

/**
 * Collects garbage until the heap stops shrinking: a run's last callbacks (sockets closing,
 * promises settling) hold some of its objects for a few event-loop turns after it ended.
 */
async function collectGarbage() {
	if (typeof global.gc !== 'function')
		throw new Error('Run with node --expose-gc (the npm scripts do).');
	let heap = Infinity;
	for (let round = 0; round < 20 && heapUsed() < heap - 64 * 1024; round++) {
		heap = heapUsed();
		await sleep(20);
		global.gc();
	}
}

// Above twice as many runnable processes as cores, each waits for a core about as long as it runs:
// every figure of time is stretched by work the benchmark does not do.
const BUSY_LOAD_PER_CORE = 2;

/** The load average (1, 5 and 15 minutes), and a warning when the machine is busy. */
function loadAverage() {
	const loads = os.loadavg();
	const busyAbove = BUSY_LOAD_PER_CORE * os.availableParallelism();
	const text = loads.map((value) => value.toFixed(2)).join(', ');
	return loads[0] > busyAbove
		? `${text} (BUSY: over ${busyAbove} on ${os.availableParallelism()} cores, times are stretched)`
		: text;
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

/**
 * A table, indented by two: `columns` are [heading, format(summary)] pairs, `rows` [label,
 * summary] pairs; numbers right-aligned under their heading.
 */
function table(columns, rows) {
	const header = ['', ...columns.map(([name]) => name)];
	const lines = rows.map(([label, summary]) => [
		label,
		...columns.map(([, format]) => format(summary)),
	]);
	const widths = header.map((_, column) =>
		Math.max(...[header, ...lines].map((line) => line[column].length)),
	);
	const format = (line) =>
		line
			.map((cell, column) =>
				column === 0 ? cell.padEnd(widths[0]) : cell.padStart(widths[column]),
			)
			.join('  ');
	return [header, ...lines].map((line) => `  ${format(line)}`);
}

/**
 * The values of a comma-separated option (`flags[name]`, as parseArgs gives it), or `defaults`
 * when it is not given; a value not in `known` is a usage error: it is said, and the process exits
 * with 2.
 */
function listOption(flags, name, known, defaults) {
	const values = flags[name]?.split(',') ?? defaults;
	for (const value of values.filter((one) => !known.includes(one))) {
		console.error(`--${name} takes ${known.join(', ')}, not ${value}`);
		process.exit(2);
	}
	return values;
}

/** A goal's verdict: its line in a report (indented by two), and whether it was met. */
function verdict(description, value, met) {
	return { line: `  ${description}: ${value}: ${met ? 'met' : 'MISSED'}`, met };
}

module.exports = {
	median,
	heapUsed,
	collectGarbage,
	loadAverage,
	seconds,
	table,
	listOption,
	verdict,
};
