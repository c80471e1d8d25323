'use strict';
/**
 * The flags of `npm run dev` (scripts/dev.js): its own, in one table that both its parser and
 * its --help read, so that the usage lists every flag it takes. Kept out of dev.js, which starts
 * as soon as it is loaded, so that tests can read the table without starting anything.
 */

const path = require('node:path');

const { PACKAGE_ROOT } = require('./runtime/project');
const { DEFAULT_VERSION, VERSIONS, VERSION_VARIABLE } = require('./runtime/versions');
const { HELP_FLAG, RUNTIME_FLAGS, formatUsage } = require('../sandbox/flags');

const DEFAULT_USER_FOLDER = path.join(PACKAGE_ROOT, '.dev', 'n8n-user');

/**
 * dev's own flags (sandbox/flags.js's Flag), beside the sandbox's runtime flags. A variable set to
 * '' counts as unset here.
 * @type {Readonly<Record<string, import('../sandbox/flags').Flag>>}
 */
const DEV_FLAGS = Object.freeze({
	port: { value: 'N', default: '5678', variable: 'N8N_DEV_PORT', description: "n8n's port" },
	'sandbox-port': {
		value: 'N',
		default: '4010',
		variable: 'SANDBOX_PORT',
		description: "the sandbox's port",
	},
	token: {
		value: 'T',
		default: 'sandbox-token',
		description: 'access token the sandbox accepts and the imported credential sends',
	},
	'user-folder': {
		value: 'DIR',
		default: DEFAULT_USER_FOLDER,
		variable: null,
		description: "n8n's user folder: its database, log and settings",
	},
	'admin-token': {
		value: 'A',
		default: 'sandbox-admin-token',
		description: "token of the sandbox's /_sandbox administration paths",
	},
	'skip-build': { variable: null, description: 'start without running npm run build first' },
	reset: { variable: null, description: 'empty the user folder first: a fresh database' },
	n8n: {
		value: 'VERSION',
		default: DEFAULT_VERSION,
		variable: VERSION_VARIABLE,
		description: `the n8n to run, one of ${VERSIONS.map((spec) => spec.version).join(', ')}`,
	},
	...HELP_FLAG,
});

/** What `npm run dev -- --help` prints: every flag dev takes, from the tables it parses with. */
const DEV_USAGE = formatUsage(
	'Usage: npm run dev -- [flags]  (node scripts/dev.js [flags])\n' +
		'Builds the package and runs a pinned n8n with it loaded, against the local sandbox, until ' +
		'Ctrl-C. A flag left out is read from the variable its line names, else takes its default.',
	[
		['Flags of npm run dev:', DEV_FLAGS],
		[
			"The sandbox's runtime options, as npm run sandbox takes them (PUT /_sandbox/options " +
				'changes them while dev runs):',
			RUNTIME_FLAGS,
		],
	],
);

module.exports = { DEV_FLAGS, DEV_USAGE };
