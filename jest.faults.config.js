/**
 * The fault suite: list and write operations against the sandbox with injected faults (5xx, 429,
 * malformed JSON, dropped connections, slow pages). Run with `npm run test:faults`; it ends with
 * one summary line.
 */
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const unitTests = require('./jest.config');

// Each test file writes its counts here (test/faults/results.ts); print-summary.js reads them at
// the end.
process.env.FAULT_SUITE_RESULTS ??= mkdtempSync(join(tmpdir(), 'equipment-rental-fault-suite-'));

/** @type {import('jest').Config} */
module.exports = {
	...unitTests,
	roots: ['<rootDir>/test/faults'],
	testMatch: ['**/*.faults.ts'],
	testPathIgnorePatterns: ['/node_modules/'],
	globalTeardown: '<rootDir>/test/faults/print-summary.js',
	testTimeout: 240_000,
	// The three files spend most of their time waiting (retries' backoffs, slow and hanging faults,
	// poll intervals): side by side they take the time of the longest.
	maxWorkers: 3,
	verbose: true,
};
