/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-dangerous-functions,
	@n8n/community-nodes/no-hardcoded-secrets
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * The README's install without the UI, run as written (the packed package in place of its name,
 * the test's user folder in place of ~): npm leaves one n8n-workflow, n8n's own, so n8n knows the
 * node's API errors and shows their HTTP status.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { operationWorkflow, type PreparedFolder, rt, type Sandbox, start } from './support';

const ROOT = path.join(__dirname, '..', '..');
const TOKEN = 'install-e2e-token-2c8d';
const WRONG_TOKEN = { id: 'eqRentalWrongToken', name: 'Equipment Rental wrong token' };

/** The first sh block of the README's "Install in n8n" section. */
function readmeInstallCommand(): string {
	const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const section = readme.slice(readme.indexOf('## Install in n8n'));
	const command = /```sh\n([\s\S]*?)```/.exec(section)?.[1].trim();
	if (!command) throw new Error('README.md has no install command under "Install in n8n"');
	return command;
}

let tmp: string;
let sandbox: Sandbox;
let n8n: PreparedFolder;
let installOutput: string;

beforeAll(async () => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-install-e2e-'));
	sandbox = await start({ token: TOKEN });
	const tarball = path.join(
		tmp,
		execFileSync('npm', ['pack', '--silent', '--pack-destination', tmp], {
			cwd: ROOT,
			encoding: 'utf8',
		})
			.trim()
			.split('\n')
			.pop()!,
	);
	const home = path.join(tmp, 'home');
	const command = readmeInstallCommand()
		.replaceAll('~/', `${home}/`)
		.replace(/npm install n8n-nodes-equipment-rental\b/, `npm install ${tarball}`);
	const install = spawnSync('bash', ['-c', command], { encoding: 'utf8' });
	installOutput = `${command}\n${install.stdout}\n${install.stderr}`;
	if (install.status !== 0) throw new Error(`the README's install failed:\n${installOutput}`);
	n8n = await rt.prepareUserFolder(home, {
		sandboxUrl: sandbox.url,
		token: TOKEN,
		examples: false,
		installPackage: false,
		workflows: [
			operationWorkflow('installedWrongToken', 'e2e: installed package, wrong token', [
				{
					name: 'Models',
					parameters: { resource: 'equipmentModel', operation: 'getAll', limit: 1 },
					credential: WRONG_TOKEN,
				},
			]),
		],
		credentials: [
			{
				...WRONG_TOKEN,
				type: rt.CREDENTIAL_TYPE,
				data: { baseUrl: sandbox.url, accessToken: 'wrong' },
			},
		],
	});
}, 600_000);

afterAll(async () => {
	await sandbox?.close();
	if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('npm leaves the package alone in the nodes folder: no second n8n-workflow', () => {
	const installed = fs.readdirSync(path.join(n8n.userFolder, '.n8n', 'nodes', 'node_modules'));
	expect(installed.filter((entry) => !entry.startsWith('.'))).toEqual([rt.PACKAGE_NAME]);
});

test('n8n loads the installed node and shows its API errors with their HTTP status', async () => {
	const result = await n8n.run('installedWrongToken');
	expect(result.status).toBe('error');
	expect(result.error).toMatchObject({
		name: 'NodeApiError',
		httpCode: '401',
		message: expect.stringMatching(/^Authorization failed \(HTTP 401\)/),
	});
});
