'use strict';
/**
 * Jest global setup of the e2e suite: installs the pinned n8n into its cache folder before any
 * test starts (first use only: several minutes cold, instant warm), and builds nothing: the suite
 * runs the package as built in dist/ (npm run build).
 */
const rt = require('../../scripts/n8n-runtime');

module.exports = async () => {
	if (!rt.isPackageBuilt()) {
		throw new Error('dist/ is missing: run `npm run build` before `npm run test:e2e`.');
	}
	const started = Date.now();
	const wasInstalled = rt.isInstalled();
	await rt.ensureN8n();
	if (!wasInstalled) {
		console.log(
			`\n[e2e] n8n ${rt.n8nVersion()} installed in ${Math.round((Date.now() - started) / 1000)} s`,
		);
	}
};
