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
	// Each test file runs in a vm context, where every read of a global goes through the context's
	// interceptor, about a hundred times slower than a local variable: these builtins are handed to
	// every module as locals instead (the sandbox's seeding, n8n's engine). Date, the timers and
	// performance stay globals, since tests fake them.
	sandboxInjectedGlobals: [
		'Math',
		'Object',
		'Array',
		'JSON',
		'String',
		'Number',
		'Symbol',
		'Reflect',
		'Promise',
		'Error',
		'RegExp',
		'Map',
		'Set',
		'WeakMap',
		'Proxy',
		'parseInt',
		'parseFloat',
		'isNaN',
		'encodeURIComponent',
		'decodeURIComponent',
	],
};
