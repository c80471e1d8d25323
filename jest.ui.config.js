/**
 * The editor in a browser: the built package in a real n8n 2.8.4, driven in Debian's Chromium with
 * playwright-core. Run with `npm run test:ui` (builds first); the global setup installs what is
 * missing (Chromium, n8n).
 * @type {import('jest').Config}
 */
const realN8nSuite = require('./jest.e2e.config');

module.exports = {
	...realN8nSuite,
	roots: ['<rootDir>/test/ui'],
	testMatch: ['**/*.ui.test.ts'],
	globalSetup: '<rootDir>/test/ui/global-setup.js',
	// One n8n, one browser page: the steps run one after the other.
	maxWorkers: 1,
	testTimeout: 240_000,
};
