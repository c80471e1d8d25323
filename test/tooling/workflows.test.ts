/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-dangerous-functions
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * The GitHub Actions workflows, validated offline (scripts/check-workflows.mjs): the repository's
 * own pass, and the checker catches a schema error and a publish job n8n would not verify.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const CHECKER = path.join(ROOT, 'scripts', 'check-workflows.mjs');
const PUBLISH = fs.readFileSync(path.join(ROOT, '.github', 'workflows', 'publish.yml'), 'utf8');

function check(...files: string[]) {
	const run = spawnSync(process.execPath, [CHECKER, ...files], { cwd: ROOT, encoding: 'utf8' });
	return { status: run.status, output: run.stdout + run.stderr };
}

let tmp: string;
beforeAll(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'workflows-test-'))));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function workflowFile(name: string, text: string): string {
	const file = path.join(tmp, name);
	fs.writeFileSync(file, text);
	return file;
}

test('ci.yml and publish.yml are valid workflows, and one of them publishes', () => {
	const { status, output } = check();

	expect(output).toContain('.github/workflows/ci.yml: valid');
	expect(output).toContain('.github/workflows/publish.yml: valid');
	expect(status).toBe(0);
});

test('a workflow that breaks the schema is reported with where', () => {
	const broken = workflowFile('broken.yml', PUBLISH.replace('runs-on:', 'runs_on:'));

	const { status, output } = check(broken);

	expect(status).toBe(1);
	expect(output).toContain(`${broken}: invalid`);
	expect(output).toContain("/jobs/publish: Additional property 'runs_on' is not allowed");
});

test('a publish job without provenance, OIDC token or registry is reported', () => {
	const unsigned = workflowFile(
		'unsigned.yml',
		PUBLISH.replace('npm publish --provenance', 'npm publish')
			.replace('id-token: write', 'id-token: none')
			.replace(/\n\s+registry-url: .*/, '')
			.replace(/\n\s+env:\n\s+NODE_AUTH_TOKEN: .*/, ''),
	);

	const { status, output } = check(unsigned);

	expect(status).toBe(1);
	expect(output).toContain('publishes without permissions id-token: write');
	expect(output).toContain('publishes without actions/setup-node and its registry-url');
	expect(output).toContain('npm publish without --provenance');
	expect(output).toContain('npm publish without NODE_AUTH_TOKEN in env');
});
