'use strict';
/**
 * Global teardown of the queue suite: stops whatever a failed run left running and removes the
 * run folder (a no-op after a clean run), then prints the figures the cases measured.
 */
const fs = require('node:fs');

const { stopEverything } = require('./run-folder');
const { readFigures, figuresFile } = require('./figures');

module.exports = async () => {
	const root = process.env.QUEUE_SUITE_ROOT;
	if (root) await stopEverything(root);
	const figures = readFigures();
	fs.rmSync(figuresFile(), { force: true });
	if (figures.length === 0) return;
	process.stdout.write(
		`\nQueue mode (n8n main + workers, PostgreSQL, Redis)\n${figures.map((line) => `  ${line}`).join('\n')}\n`,
	);
};
