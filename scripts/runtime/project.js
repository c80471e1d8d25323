'use strict';
/** What the runtime scripts know of this repository: its package, its node and credential, its examples. */

const path = require('node:path');

const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');

const PACKAGE_NAME = require(path.join(PACKAGE_ROOT, 'package.json')).name;

const NODE_TYPE = `${PACKAGE_NAME}.equipmentRental`;

const CREDENTIAL_TYPE = 'equipmentRentalApi';

/** Fixed id and name of the sandbox credential; the example workflows reference both. */
const CREDENTIAL_ID = 'eqRentalSandbox1';

const CREDENTIAL_NAME = 'Equipment Rental sandbox';

/** Fixed so that credentials imported into a user folder can always be decrypted. */
const DEFAULT_ENCRYPTION_KEY = 'n8n-nodes-equipment-rental-local-dev-key';

const EXAMPLES_DIR = path.join(PACKAGE_ROOT, 'examples');

/**
 * The folder that file-writing nodes may use (N8N_RESTRICT_FILE_ACCESS_TO); the examples write
 * there.
 */
const EXAMPLE_FILES_DIR = '/tmp/n8n-equipment-rental';

/**
 * Where the package to load into n8n is taken from: this repository (built with npm run build)
 * unless EQUIPMENT_RENTAL_PACKAGE_DIR names another folder with package.json and dist/ (for
 * example an unpacked `npm pack` tarball, to test exactly what gets published).
 */
function packageDir() {
	return path.resolve(process.env.EQUIPMENT_RENTAL_PACKAGE_DIR || PACKAGE_ROOT);
}

function log(...args) {
	if (process.env.N8N_RUNTIME_QUIET) return;
	console.error('[n8n-runtime]', ...args);
}

function sleep(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

module.exports = {
	PACKAGE_ROOT,
	PACKAGE_NAME,
	NODE_TYPE,
	CREDENTIAL_TYPE,
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	DEFAULT_ENCRYPTION_KEY,
	EXAMPLES_DIR,
	EXAMPLE_FILES_DIR,
	packageDir,
	log,
	sleep,
};
