/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/', '<rootDir>/test/ui/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { transpilation: true, tsconfig: '<rootDir>/test/tsconfig.json' }],
	},
	setupFiles: ['<rootDir>/test/harness/environment.js'],
	setupFilesAfterEnv: ['<rootDir>/test/harness/teardown.ts'],
	testTimeout: 30_000,
	// Jest's default on two cores is one worker, which leaves a core idle: the suites wait on their
	// servers and timers much of the time.
	maxWorkers: 2,
};
