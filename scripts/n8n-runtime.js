'use strict';
/**
 * Runs a real, pinned n8n with this package loaded, for `npm run dev` and the e2e suites. One entry
 * point over the pieces in runtime/, each of which reads on its own:
 *
 * - runtime/install.js: installs n8n into a cache folder outside the package's dependencies.
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

module.exports = {
	...project,
	...install,
	...processes,
	...userFolder,
	...guard,
	...processInfo,
};

if (require.main === module) {
	const [command] = process.argv.slice(2);
	if (command === 'ensure') {
		install.ensureN8n().then(
			(bin) => console.log(bin),
			(error) => {
				console.error(error);
				process.exit(1);
			},
		);
	} else {
		console.error(
			'usage: node scripts/n8n-runtime.js ensure   # install the pinned n8n into the cache',
		);
		process.exit(2);
	}
}
