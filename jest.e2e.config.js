/**
 * End-to-end tests: the built package inside a real n8n (pinned, installed into a cache folder by
 * scripts/n8n-runtime.js), executing workflows headlessly against the sandbox.
 * Run with `npm run test:e2e` (needs `npm run build` first).
 * @type {import('jest').Config}
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { transpilation: true, tsconfig: '<rootDir>/test/tsconfig.json' }],
	},
	globalSetup: '<rootDir>/test/e2e/global-setup.js',
	// One n8n user folder (SQLite) and one sandbox: workflows run one after the other.
	maxWorkers: 1,
	testTimeout: 120_000,
	verbose: true,
};
