'use strict';
/**
 * The figures the queue suite's cases measure, one line each, kept next to the run folder (which
 * the last case removes) so that the global teardown can print them at the end of the run.
 */
const fs = require('node:fs');

function figuresFile() {
	return `${process.env.QUEUE_SUITE_ROOT}-figures.txt`;
}

/** @param {string} line */
function recordFigure(line) {
	fs.appendFileSync(figuresFile(), `${line}\n`);
}

/** @returns {string[]} */
function readFigures() {
	try {
		return fs.readFileSync(figuresFile(), 'utf8').split('\n').filter(Boolean);
	} catch {
		return [];
	}
}

module.exports = { figuresFile, recordFigure, readFigures };
