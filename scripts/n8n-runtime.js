'use strict';
/**
 * Runs a real, pinned n8n with this package loaded, for `npm run dev` and the e2e suites. One entry
 * point over the pieces in runtime/, each of which reads on its own:
 *
 * - runtime/versions.js: the n8n versions the package is tested on, and what each needs.
 * - runtime/install.js: installs them into a cache folder outside the package's dependencies.
 * - runtime/user-folder.js: an n8n user folder with the package, the sandbox credential and the
 *   example workflows; workflows run headlessly (`n8n execute`).
 * - runtime/processes.js: the environment of every n8n process, CLI runs, `n8n start`.
 * - runtime/guard.js: stops an n8n's process group when the process that started it dies.
 * - runtime/process-info.js: what /proc tells about processes (who holds a port, what runs).
 * - runtime/project.js: this repository's package, node type, credential and examples.
 *
 * Plain CommonJS so it runs with bare `node` (no build step) from scripts and tests.
 */

const guard = require('./runtime/guard');
const install = require('./runtime/install');
const processInfo = require('./runtime/process-info');
const processes = require('./runtime/processes');
const project = require('./runtime/project');
const userFolder = require('./runtime/user-folder');
const versions = require('./runtime/versions');

module.exports = {
	...project,
	...versions,
	...install,
	...processes,
	...userFolder,
	...guard,
	...processInfo,
};

if (require.main === module) {
	const [command, which] = process.argv.slice(2);
	if (command === 'ensure') {
		// Several versions install side by side: each mostly waits on the registry and on compilers.
		const wanted = which === '--all' ? versions.VERSIONS.map((spec) => spec.version) : [which];
		Promise.all(wanted.map((version) => install.ensureN8n(version))).then(
			(bins) => console.log(bins.join('\n')),
			(error) => {
				console.error(error);
				process.exit(1);
			},
		);
	} else {
		const listed = versions.VERSIONS.map(
			({ version, node, role }) =>
				`  ${version.padEnd(9)} on Node.js ${node ?? 'of this machine'}: ${role}`,
		);
		console.error(
			[
				'usage: node scripts/n8n-runtime.js ensure [VERSION | --all]',
				'installs n8n into the cache (default: EQUIPMENT_RENTAL_N8N_VERSION, else ' +
					`${versions.DEFAULT_VERSION}); --all: every tested version:`,
				...listed,
			].join('\n'),
		);
		process.exit(2);
	}
}
