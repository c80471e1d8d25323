/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * `npm install` must not warn that a package wants another Node.js than the README and
 * CONTRIBUTING.md give for development: every package the lockfile installs accepts that version.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import * as semver from 'semver';

const ROOT = path.join(__dirname, '..', '..');

type LockEntry = {
	engines?: { node?: unknown };
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	devDependencies?: Record<string, string>;
};
const lockPackages = (): Record<string, LockEntry> =>
	JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')).packages;

// n8n's n8n-node CLI (@n8n/node-cli) brings its AI SDK, whose n8n-workflow runs expressions in
// isolated-vm 7, which wants Node.js 24. Nothing here loads it (n8n-node's lint, build and release
// do not; on Node.js 20 it cannot even load, having no native build for it), so npm install warns
// about it alone. Each exception names the only dependency of this package that brings it: the
// exception goes when another comes to need it.
const NEVER_LOADED: Record<string, string> = {
	'node_modules/isolated-vm': '@n8n/node-cli',
};

/** The lockfile's packages that need `target`, directly or not, resolved as Node.js does. */
function packagesNeeding(packages: Record<string, LockEntry>, target: string): Set<string> {
	const resolve = (from: string, name: string): string | undefined => {
		for (let at = from; ; at = at.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
			const candidate = `${at ? `${at}/` : ''}node_modules/${name}`;
			if (candidate in packages) return candidate;
			if (!at) return undefined;
		}
	};
	const needing = new Set<string>();
	const pending = [target];
	while (pending.length) {
		const needed = pending.pop()!;
		for (const [from, entry] of Object.entries(packages)) {
			const names = Object.keys({
				...entry.dependencies,
				...entry.optionalDependencies,
				...(from === '' ? entry.devDependencies : {}),
			});
			if (needing.has(from) || !names.some((name) => resolve(from, name) === needed)) continue;
			needing.add(from);
			pending.push(from);
		}
	}
	return needing;
}

/** The Node.js version development needs, as README.md and CONTRIBUTING.md both name it. */
function readmeNodeVersion(): string {
	const versions = ['README.md', 'CONTRIBUTING.md'].map((file) => {
		const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
		const match = /Needs Node\.js (\d+\.\d+) or later/.exec(text);
		if (!match) throw new Error(`${file} does not say which Node.js development needs`);
		return match[1];
	});
	if (versions[0] !== versions[1])
		throw new Error(`README.md names Node.js ${versions[0]}, CONTRIBUTING.md ${versions[1]}`);
	return `${versions[0]}.0`;
}

it('every package of the lockfile accepts the Node.js version the README names for development', () => {
	const nodeVersion = readmeNodeVersion();
	const refusing = Object.entries(lockPackages())
		.filter(([name]) => !(name in NEVER_LOADED))
		.filter(([, entry]) => typeof entry.engines?.node === 'string')
		.filter(([, entry]) => !semver.satisfies(nodeVersion, entry.engines!.node as string))
		.map(([name, entry]) => `${name} wants Node.js ${entry.engines!.node}`);

	expect(refusing).toEqual([]);
});

it.each(Object.entries(NEVER_LOADED))(
	'%s refuses that version still, and of our dependencies only %s brings it',
	(name, bringer) => {
		const packages = lockPackages();
		const range = packages[name]?.engines?.node;
		expect(typeof range).toBe('string');
		expect(semver.satisfies(readmeNodeVersion(), range as string)).toBe(false);
		const needing = packagesNeeding(packages, name);
		expect(needing.has('')).toBe(true);
		const { dependencies = {}, devDependencies = {} } = packages[''];
		const ours = Object.keys({ ...dependencies, ...devDependencies });
		expect(ours.filter((dependency) => needing.has(`node_modules/${dependency}`))).toEqual([
			bringer,
		]);
	},
);

it("the package's own engines field allows that version too", () => {
	const { engines } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	expect(semver.satisfies(readmeNodeVersion(), engines.node)).toBe(true);
});
