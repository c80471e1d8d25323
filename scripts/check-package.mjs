#!/usr/bin/env node
// Checks what `npm publish` would ship, the way n8n's verification does: the tarball holds only the
// built nodes and credentials (dist/nodes, dist/credentials), README and package.json (`n8n-node
// build` copies every PNG and SVG of the project into dist/, our docs/ screenshots too;
// package.json's files leaves them out); the n8n section points at built files; and n8n's scanner
// passes on the sources and on the tarball (its CLI scans only published packages, so its
// analyzePackage runs here on local folders).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const problems = [];
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

const [{ files, filename }] = JSON.parse(
	execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: root, encoding: 'utf8' }),
);
const unexpected = files
	.map(({ path }) => path)
	.filter((path) => !/^(dist\/(nodes|credentials)\/|README\.md$|package\.json$)/.test(path));
if (unexpected.length)
	problems.push(
		`the package would ship files outside dist/nodes and dist/credentials: ${unexpected.join(', ')}`,
	);
if (!files.some(({ path }) => path === 'README.md'))
	problems.push('the package would ship without README.md');

for (const path of [...packageJson.n8n.nodes, ...packageJson.n8n.credentials]) {
	if (!files.some((file) => file.path === path))
		problems.push(`package.json names ${path}, which the package lacks`);
}
if (Object.keys(packageJson.dependencies ?? {}).length)
	problems.push('community nodes must have no runtime dependencies');
for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) {
	if (packageJson.scripts?.[script])
		problems.push(`install lifecycle script "${script}" is not allowed`);
}

const unpacked = mkdtempSync(join(tmpdir(), 'equipment-rental-pack-'));
try {
	execFileSync('npm', ['pack', '--pack-destination', unpacked], { cwd: root, stdio: 'ignore' });
	execFileSync('tar', ['xzf', join(unpacked, filename), '-C', unpacked]);
	for (const [label, dir, patterns] of [
		['sources', root, SOURCE_FILE_PATTERNS],
		['tarball', join(unpacked, 'package'), undefined],
	]) {
		if (!existsSync(dir)) throw new Error(`missing ${dir}`);
		const result = await analyzePackage(dir, patterns);
		console.log(`n8n scanner on the ${label}: ${result.passed ? 'passed' : 'FAILED'}`);
		if (!result.passed)
			problems.push(`n8n scanner on the ${label}: ${result.message}\n${result.details ?? ''}`);
	}
} finally {
	rmSync(unpacked, { recursive: true, force: true });
}

console.log(
	`package contents: ${files.length} files, ${problems.length ? 'problems found' : 'as expected'}`,
);
for (const problem of problems) console.error(`- ${problem}`);
process.exit(problems.length ? 1 : 0);
