'use strict';

/**
 * The benchmarks' command lines: every benchmark takes --help (its usage on stdout, exit code 0,
 * nothing started) and --smoke (a small run of a few seconds: few records, one round, no goal
 * judged, but its results checked), and refuses an unknown option with the error and its usage on
 * stderr (exit code 2). Required before anything heavy, so that --help answers at once. And what
 * a smoke run checks of the processes it started: none still running once it is done.
 */

const { setTimeout: sleep } = require('node:timers/promises');
const { parseArgs } = require('node:util');

const COMMON_OPTIONS = {
	help: { type: 'boolean', short: 'h' },
	smoke: { type: 'boolean' },
};

/** Text wrapped at 100 characters, the lines after the first indented by `indent`. */
function wrapped(text, indent, firstWidth) {
	const lines = [''];
	for (const word of text.split(' ')) {
		const width = lines.length === 1 ? firstWidth : 100 - indent;
		const line = lines[lines.length - 1];
		if (line && line.length + 1 + word.length > width) lines.push(word);
		else lines[lines.length - 1] = line ? `${line} ${word}` : word;
	}
	return lines.map((line, index) => (index === 0 ? line : `${' '.repeat(indent)}${line}`));
}

/**
 * The usage's lines for --smoke (`smoke`: what it runs) and --help, which every benchmark takes,
 * their descriptions in the column `column` as the benchmark's own options'.
 */
function commonUsage(smoke, column) {
	const line = (flag, text) => {
		const start = `  ${flag}`.padEnd(column);
		return wrapped(text, column, 100 - column)
			.map((part, index) => (index === 0 ? `${start}${part}` : part))
			.join('\n');
	};
	return [line('--smoke', smoke), line('--help, -h', 'prints this and exits')];
}

/**
 * Parses the command line with `options` (as node:util's parseArgs takes them) besides --help and
 * --smoke; prints `usage` and exits with 0 for --help, with 2 after the error for an option it
 * does not know or a value it cannot take. Answers parseArgs' { values, positionals }.
 */
function commandLine(usage, options, { allowPositionals = false } = {}) {
	let parsed;
	try {
		parsed = parseArgs({ options: { ...options, ...COMMON_OPTIONS }, allowPositionals });
	} catch (error) {
		usageError(usage, error.message);
	}
	if (parsed.values.help) {
		console.log(usage);
		process.exit(0);
	}
	return parsed;
}

/** A usage error: the message and the usage on stderr, exit code 2. */
function usageError(usage, message) {
	console.error(`${message}\n\n${usage}`);
	process.exit(2);
}

/** Whether a process (or, with `group`, a process group) of that ID is still there. */
function isRunning(pid, { group = false } = {}) {
	try {
		process.kill(group ? -pid : pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

/**
 * How long a process stopped by its PID may take to be gone: a process group's members that its
 * leader leaves behind are killed and reaped by the system a moment later.
 */
const GONE_WITHIN_MS = 10_000;

/**
 * The line a run ends with about the processes it started (`started`: [{ name, pid, group }]), each
 * stopped by its PID before: named with their PIDs, and those still running (after GONE_WITHIN_MS)
 * named apart. Answers { line, allStopped }: the caller fails the run when one is left.
 */
async function stoppedProcesses(started) {
	const deadline = Date.now() + GONE_WITHIN_MS;
	const stillRunning = () => started.filter(({ pid, group }) => isRunning(pid, { group }));
	while (stillRunning().length > 0 && Date.now() < deadline) await sleep(100);
	const running = stillRunning();
	const named = (list) =>
		list
			.map(({ name, pid, group }) => `${name} (${group ? 'process group ' : 'PID '}${pid})`)
			.join(', ');
	return {
		allStopped: running.length === 0,
		line:
			running.length === 0
				? `Processes started, all stopped: ${named(started) || 'none'}.`
				: `PROCESSES STILL RUNNING: ${named(running)}.`,
	};
}

module.exports = { commandLine, commonUsage, usageError, isRunning, stoppedProcesses };
