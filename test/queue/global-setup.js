'use strict';
/**
 * Global setup of the queue suite: installs what it needs on first use (Debian's PostgreSQL and
 * Redis when missing, the pinned n8n), creates the run folder, and makes an interrupted run
 * (SIGINT, SIGTERM) stop every process the suite started and remove the folder before it exits.
 */
const fs = require('node:fs');

const rt = require('../../scripts/n8n-runtime');
const { ensureServerPackages } = require('../../scripts/runtime/services');
const { figuresFile } = require('./figures');
const { createRunFolder, stopEverything } = require('./run-folder');

module.exports = async () => {
	if (!rt.isPackageBuilt()) {
		throw new Error('dist/ is missing: run `npm run build` before the queue suite.');
	}
	const started = Date.now();
	ensureServerPackages();
	await rt.ensureN8n();
	const root = createRunFolder();
	process.env.QUEUE_SUITE_ROOT = root;
	process.stdout.write(
		`\n[queue] PostgreSQL, Redis and n8n ${rt.N8N_VERSION} ready in ${Math.round((Date.now() - started) / 1000)} s; run folder ${root}\n`,
	);

	let interrupted = false;
	for (const signal of ['SIGINT', 'SIGTERM']) {
		// `on`, not `once`: a second signal (npm passes Ctrl-C on as well) must not end the process
		// before the cleanup has.
		process.on(signal, () => {
			if (interrupted) return;
			interrupted = true;
			process.stderr.write(`\n[queue] ${signal}: stopping everything the suite started\n`);
			stopEverything(root)
				.then(() => fs.rmSync(figuresFile(), { force: true }))
				.finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
		});
	}
};
