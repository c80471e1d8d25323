/**
 * The e2e suite once per n8n version of scripts/runtime/versions.js (npm run test:compat): a Jest
 * project per version, whose test names start with "n8n <version>" so that a failure says where.
 * Its global setup installs every version first (side by side, cached).
 * @type {import('jest').Config}
 */
const { VERSIONS } = require('./scripts/runtime/versions');
const realN8nSuite = require('./jest.e2e.config');

// COMPAT_VERSIONS (comma-separated) runs only those versions: CI leaves out the one its e2e step has
// just run.
const only = process.env.COMPAT_VERSIONS?.split(',').map((version) => version.trim());
const versions = only ? VERSIONS.filter(({ version }) => only.includes(version)) : VERSIONS;
if (only && versions.length !== only.length)
	throw new Error(`COMPAT_VERSIONS names a version not in scripts/runtime/versions.js: ${only}`);

const { maxWorkers, testTimeout, verbose, ...projectSettings } = realN8nSuite;

module.exports = {
	// One version after the other: side by side, under CI's other lane, n8n 1.123's execute once printed
	// its run cut short.
	maxWorkers,
	testTimeout,
	verbose,
	globalSetup: '<rootDir>/test/e2e/compat-setup.js',
	projects: versions.map(({ version }) => ({
		...projectSettings,
		displayName: `n8n ${version}`,
		// The runtime reads the version from the environment (test/e2e/on-version.js sets it).
		globals: { n8nVersion: version },
		setupFiles: ['<rootDir>/test/e2e/on-version.js'],
		// npm run dev's own tests run once, in npm run test:e2e.
		testMatch: ['**/n8n.e2e.test.ts', '**/*.compat.ts'],
		globalSetup: undefined,
	})),
};
