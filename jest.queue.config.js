/**
 * The queue-mode suite: the built package in n8n's queue mode (a main and two workers of the pinned
 * n8n, PostgreSQL, Redis), against the sandbox. Run with `npm run test:queue`; it installs Debian's
 * postgresql and redis-server when they are missing (as root), and prints its figures at the end.
 * @type {import('jest').Config}
 */
const realN8nSuite = require('./jest.e2e.config');

module.exports = {
	...realN8nSuite,
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.queue.ts'],
	globalSetup: '<rootDir>/test/queue/global-setup.js',
	globalTeardown: '<rootDir>/test/queue/global-teardown.js',
	// One cluster, and the suite's own process runs the sandbox and handles SIGINT/SIGTERM.
	maxWorkers: 1,
	testTimeout: 300_000,
};
