/**
 * `npm install` must not warn that a package wants another Node.js than the README gives for
 * development: every package the lockfile installs accepts that version.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import * as semver from 'semver';

const ROOT = path.join(__dirname, '..');

function readmeNodeVersion(): string {
	const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const match = /Needs Node\.js (\d+\.\d+) or later/.exec(readme);
	if (!match) throw new Error('README.md does not say which Node.js development needs');
	return `${match[1]}.0`;
}

it('every package of the lockfile accepts the Node.js version the README names for development', () => {
	const nodeVersion = readmeNodeVersion();
	const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
	const refusing = Object.entries(lock.packages as Record<string, { engines?: { node?: unknown } }>)
		.filter(([, entry]) => typeof entry.engines?.node === 'string')
		.filter(([, entry]) => !semver.satisfies(nodeVersion, entry.engines!.node as string))
		.map(([name, entry]) => `${name} wants Node.js ${entry.engines!.node}`);

	expect(refusing).toEqual([]);
});

it("the package's own engines field allows that version too", () => {
	const { engines } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	expect(semver.satisfies(readmeNodeVersion(), engines.node)).toBe(true);
});
