'use strict';
/**
 * Global setup of the queue suite: stops what a killed earlier run left, installs what it needs on
 * first use (Debian's PostgreSQL and Redis when missing, the pinned n8n), creates the run folder,
 * and makes an interrupted run stop every process the suite started and remove the folder before
 * it exits.
 */
const fs = require('node:fs');

const rt = require('../../scripts/n8n-runtime');
const { ensureServerPackages } = require('../../scripts/runtime/services');
const { figuresFile } = require('./figures');
const { createRunFolder, stopEverything, stopOrphanedRuns } = require('./run-folder');

module.exports = async () => {
	if (!rt.isPackageBuilt()) {
		throw new Error('dist/ is missing: run `npm run build` before the queue suite.');
	}
	for (const root of await stopOrphanedRuns())
		process.stdout.write(`\n[queue] stopped what a killed earlier run left in ${root}\n`);
	const started = Date.now();
	ensureServerPackages();
	await rt.ensureN8n();
	const root = createRunFolder();
	process.env.QUEUE_SUITE_ROOT = root;
	process.stdout.write(
		`\n[queue] PostgreSQL, Redis and n8n ${rt.n8nVersion()} ready in ${Math.round((Date.now() - started) / 1000)} s; run folder ${root}\n`,
	);
	stopEverythingWhenInterrupted(root);
};

/**
 * On SIGINT or SIGTERM, or when the process that started jest is gone (`npm run` passes SIGTERM
 * on to its shell only, which leaves jest running), stops everything and exits.
 */
function stopEverythingWhenInterrupted(root) {
	let interrupted = false;
	const interrupt = (reason, exitCode) => {
		if (interrupted) return;
		interrupted = true;
		process.stderr.write(`\n[queue] ${reason}: stopping everything the suite started\n`);
		stopEverything(root)
			.then(() => fs.rmSync(figuresFile(), { force: true }))
			.finally(() => process.exit(exitCode));
	};
	// `on`, not `once`: a second signal (npm passes Ctrl-C on as well) must not end the process
	// before the cleanup has.
	process.on('SIGINT', () => interrupt('SIGINT', 130));
	process.on('SIGTERM', () => interrupt('SIGTERM', 143));
	const parent = process.ppid;
	setInterval(() => {
		if (process.ppid !== parent) interrupt('the parent process is gone', 143);
	}, 1000).unref();
}
