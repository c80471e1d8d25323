'use strict';
/**
 * Jest global setup of the browser suite: installs Debian's chromium when it is missing (apt-get,
 * as root; no npm package may download a browser) and the pinned n8n (first use only), and checks
 * that the package is built.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');

const rt = require('../../scripts/n8n-runtime');

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function aptGet(args) {
	const result = spawnSync('apt-get', args, {
		stdio: 'inherit',
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
	});
	return result.status === 0;
}

function ensureChromium() {
	if (fs.existsSync(CHROMIUM)) return;
	console.log(`\n[ui] ${CHROMIUM} is missing: installing Debian's chromium`);
	// A fresh machine has no package lists yet.
	if (!aptGet(['install', '-y', '--no-install-recommends', 'chromium'])) {
		aptGet(['update']);
		aptGet(['install', '-y', '--no-install-recommends', 'chromium']);
	}
	if (!fs.existsSync(CHROMIUM)) {
		throw new Error(
			`Chromium is not at ${CHROMIUM} and could not be installed (apt-get install -y chromium, ` +
				'as root); set CHROMIUM_PATH to a Chromium binary.',
		);
	}
}

module.exports = async () => {
	if (!rt.isPackageBuilt()) {
		throw new Error('dist/ is missing: run `npm run build` before the browser tests.');
	}
	ensureChromium();
	await rt.ensureN8n();
};
// .ci/run installs every Debian package before suites run side by side (apt-get takes one at a time).
module.exports.ensureChromium = ensureChromium;
