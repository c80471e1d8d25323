'use strict';

/** What the benchmarks measure with: medians and the heap after a forced garbage collection. */

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

module.exports = { median, heapUsed, collectGarbage };
