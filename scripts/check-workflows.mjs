#!/usr/bin/env node
/**
 * npm run check:workflows: validates the GitHub Actions workflows offline against GitHub's workflow
 * schema (@action-validator/core, WebAssembly, no network), then checks what n8n requires to
 * verify a community node: it is published from GitHub Actions with npm provenance, so a job that
 * runs `npm publish` passes --provenance, may request an OIDC token (permissions id-token: write),
 * points setup-node at the npm registry and gives npm its token.
 *
 *   node scripts/check-workflows.mjs [workflow.yml ...]   (default: .github/workflows/*.yml, of
 *                                                           which one must publish)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { validateWorkflow } from '@action-validator/core';
import { parse } from 'yaml';

const WORKFLOWS_DIR = path.join(
	path.dirname(fileURLToPath(import.meta.url)),
	'..',
	'.github',
	'workflows',
);

/** The innermost errors of a schema error (a "one of" error nests the errors of each branch). */
function leafErrors(error) {
	const nested = (error.states || []).flatMap((state) => state.errors.flatMap(leafErrors));
	return nested.length ? nested : [error];
}

/** The path as the user would type it: relative inside the current folder, absolute outside. */
function shortPath(file) {
	const relative = path.relative(process.cwd(), file);
	return relative && !relative.startsWith('..') ? relative : path.resolve(file);
}

function schemaProblems(source) {
	const problems = [];
	for (const error of validateWorkflow(source).errors) {
		const where = error.path ?? `line ${error.location?.line ?? '?'}`;
		problems.push(`${where}: ${error.title}${error.detail ? ` (${error.detail})` : ''}`);
		const leaves = new Set(
			leafErrors(error)
				.filter((leaf) => leaf !== error)
				.map((leaf) => `    ${leaf.path}: ${leaf.detail || leaf.title}`),
		);
		problems.push(...leaves);
	}
	return problems;
}

function permissionOf(permissions, scope) {
	if (permissions === 'write-all') return 'write';
	return permissions && typeof permissions === 'object' ? permissions[scope] : undefined;
}

/** What a job that publishes to npm lacks for a provenance-signed, verifiable release. */
function publishProblems(workflow) {
	const problems = [];
	let publishes = false;
	for (const [name, job] of Object.entries(workflow.jobs || {})) {
		const steps = job.steps || [];
		const publishSteps = steps.filter((step) => /\bnpm publish\b/.test(step.run || ''));
		if (!publishSteps.length) continue;
		publishes = true;
		const idToken = permissionOf(job.permissions ?? workflow.permissions, 'id-token');
		if (idToken !== 'write') {
			problems.push(
				`job "${name}" publishes without permissions id-token: write (needed for provenance)`,
			);
		}
		const setupNode = steps.find((step) => /^actions\/setup-node@/.test(step.uses || ''));
		if (!setupNode?.with?.['registry-url']) {
			problems.push(`job "${name}" publishes without actions/setup-node and its registry-url`);
		}
		for (const step of publishSteps) {
			const label = step.name ? `"${step.name}"` : step.run.trim();
			if (!/--provenance\b/.test(step.run)) {
				problems.push(`job "${name}", step ${label}: npm publish without --provenance`);
			}
			if (!{ ...job.env, ...step.env }.NODE_AUTH_TOKEN) {
				problems.push(`job "${name}", step ${label}: npm publish without NODE_AUTH_TOKEN in env`);
			}
		}
	}
	return { publishes, problems };
}

const args = process.argv.slice(2);
const files = args.length
	? args
	: fs
			.readdirSync(WORKFLOWS_DIR)
			.filter((file) => /\.ya?ml$/.test(file))
			.map((file) => path.join(WORKFLOWS_DIR, file));
let failed = false;
let anyPublishes = false;
for (const file of files) {
	const source = fs.readFileSync(file, 'utf8');
	const problems = schemaProblems(source);
	if (!problems.length) {
		const { publishes, problems: publishing } = publishProblems(parse(source));
		anyPublishes ||= publishes;
		problems.push(...publishing);
	}
	const name = shortPath(file);
	if (problems.length) {
		failed = true;
		console.error(`${name}: invalid`);
		for (const problem of problems) console.error(`  ${problem}`);
	} else {
		console.log(`${name}: valid`);
	}
}
if (!args.length && !anyPublishes) {
	failed = true;
	console.error(`no workflow in ${shortPath(WORKFLOWS_DIR)} runs npm publish`);
}
process.exit(failed ? 1 : 0);
