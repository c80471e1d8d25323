/**
 * The editor in a browser: the built package in a real n8n, driven in Debian's Chromium with
 * playwright-core. Run with `npm run test:ui` (builds first) for n8n 2.8.4, or with
 * EQUIPMENT_RENTAL_N8N_VERSION=2.41.1 (any version of scripts/runtime/versions.js that
 * test/ui/versions.ts knows) for another; the global setup installs what is missing (Chromium, that
 * n8n).
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
