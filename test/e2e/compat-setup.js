'use strict';
/**
 * Global setup of npm run test:compat: the built package must exist, and every n8n version of
 * scripts/runtime/versions.js is installed (side by side on first use, cached after) before any
 * test starts, so that no test's time goes to an install.
 */
const rt = require('../../scripts/n8n-runtime');

module.exports = async () => {
	if (!rt.isPackageBuilt()) {
		throw new Error('dist/ is missing: run `npm run build` before `npm run test:compat`.');
	}
	const missing = rt.VERSIONS.map((spec) => spec.version).filter((v) => !rt.isInstalled(v));
	if (!missing.length) return;
	const started = Date.now();
	await Promise.all(missing.map((version) => rt.ensureN8n(version)));
	const seconds = Math.round((Date.now() - started) / 1000);
	console.log(`\n[compat] n8n ${missing.join(', ')} installed in ${seconds} s`);
};
