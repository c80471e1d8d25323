/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-dangerous-functions,
	@n8n/community-nodes/no-hardcoded-secrets
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * What a version difference would break, found on the version it breaks: every n8n-workflow export
 * the built package uses exists in this n8n's own n8n-workflow, and a copy of the package broken on
 * purpose (its node needs an export only 2.x has) fails on 1.x loudly: the export check names the
 * export, and n8n refuses the workflow.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { onN8n, operationWorkflow, rt, type Sandbox, start } from './support';

const TOKEN = 'compat-token-3e1a';
const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
/** A function n8n-workflow has from 2.x on; the broken copy's node uses it when it loads. */
const EXPORT_ONLY_IN_2X = 'isNodeConnected';

/** The runtime exports of n8n-workflow, as this n8n resolves it, read on this n8n's own Node. */
function engineExports(): string[] {
	const n8nDir = path.join(rt.cacheDir(), 'node_modules', 'n8n');
	const list = spawnSync(
		rt.nodeBinary(),
		['-e', "console.log(JSON.stringify(Object.keys(require('n8n-workflow'))))"],
		{ cwd: n8nDir, encoding: 'utf8' },
	);
	if (list.status !== 0) throw new Error(`cannot load n8n-workflow of n8n: ${list.stderr}`);
	return JSON.parse(list.stdout);
}

/**
 * The n8n-workflow exports a built package uses (tsc writes them as `n8n_workflow_1.Name`),
 * leaving out those it only uses after checking `typeof n8n_workflow_1.Name`.
 */
function exportsUsedBy(distDir: string): { required: string[]; optional: string[] } {
	const used = new Set<string>();
	const checked = new Set<string>();
	for (const file of fs.readdirSync(distDir, { recursive: true, encoding: 'utf8' })) {
		if (!file.endsWith('.js')) continue;
		const code = fs.readFileSync(path.join(distDir, file), 'utf8');
		// Under any other name its uses would escape the check.
		const requires = code.match(/require\("n8n-workflow"\)/g)?.length ?? 0;
		const asExpected = code.match(/const n8n_workflow_1 = require\("n8n-workflow"\)/g)?.length ?? 0;
		if (requires !== asExpected)
			throw new Error(`${file} imports n8n-workflow in a form this check does not read`);
		for (const [, name] of code.matchAll(/n8n_workflow_1\.(\w+)/g)) used.add(name);
		for (const [, name] of code.matchAll(/typeof n8n_workflow_1\.(\w+)/g)) checked.add(name);
	}
	return {
		required: [...used].filter((name) => !checked.has(name)).sort(),
		optional: [...checked].sort(),
	};
}

/** A copy of the built package whose node needs EXPORT_ONLY_IN_2X as soon as n8n loads it. */
function brokenPackage(dir: string): string {
	for (const entry of ['package.json', 'dist']) {
		fs.cpSync(path.join(PACKAGE_ROOT, entry), path.join(dir, entry), { recursive: true });
	}
	const nodeFile = path.join(dir, 'dist', 'nodes', 'EquipmentRental', 'EquipmentRental.node.js');
	// As tsc compiles a use of the import: the property of undefined fails where it is missing.
	fs.appendFileSync(nodeFile, `\nn8n_workflow_1.${EXPORT_ONLY_IN_2X}.length;\n`);
	return dir;
}

let sandbox: Sandbox;
let tmp: string;
let available: string[];

beforeAll(async () => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-compat-'));
	sandbox = await start({ token: TOKEN });
	available = engineExports();
});

afterAll(async () => {
	await sandbox?.close();
	if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe(onN8n('the package against this n8n'), () => {
	it("every n8n-workflow export the built package needs is in this n8n's n8n-workflow", () => {
		const { required, optional } = exportsUsedBy(path.join(PACKAGE_ROOT, 'dist'));
		expect(required).toContain('NodeApiError');
		expect(required.filter((name) => !available.includes(name))).toEqual([]);
		// Used only where present (retry.ts); reported so that a run shows which path it took.
		// eslint-disable-next-line no-console -- the report described above
		console.log(
			`[compat] n8n ${rt.n8nVersion()}: optional exports present: ` +
				`${optional.filter((name) => available.includes(name)).join(', ') || 'none'}`,
		);
	});

	it('a copy broken for n8n 1.x runs where the export exists, and elsewhere fails with its node type unrecognized', async () => {
		const broken = brokenPackage(fs.mkdtempSync(path.join(tmp, 'package-')));
		const { required } = exportsUsedBy(path.join(broken, 'dist'));
		// What the export check above would report for this copy: the export, by name, on 1.x.
		expect(required.filter((name) => !available.includes(name))).toEqual(
			available.includes(EXPORT_ONLY_IN_2X) ? [] : [EXPORT_ONLY_IN_2X],
		);
		const previous = process.env.EQUIPMENT_RENTAL_PACKAGE_DIR;
		process.env.EQUIPMENT_RENTAL_PACKAGE_DIR = broken;
		try {
			const n8n = await rt.prepareUserFolder(path.join(tmp, 'user'), {
				sandboxUrl: sandbox.url,
				token: TOKEN,
				examples: false,
				workflows: [
					operationWorkflow('compatBroken', 'compat: broken package', [
						{
							name: 'One model',
							parameters: {
								resource: 'equipmentModel',
								operation: 'getAll',
								returnAll: false,
								limit: 1,
							},
						},
					]),
				],
			});
			// Where the node cannot load, n8n prints no run at all: the runtime rejects with its output.
			const result = await n8n.run('compatBroken').catch((error: Error) => error);
			if (available.includes(EXPORT_ONLY_IN_2X)) {
				expect(result).toMatchObject({ status: 'success', items: [expect.any(Object)] });
			} else {
				expect(result).toBeInstanceOf(Error);
				expect((result as Error).message).toContain(`Unrecognized node type: ${rt.NODE_TYPE}`);
			}
		} finally {
			if (previous === undefined) delete process.env.EQUIPMENT_RENTAL_PACKAGE_DIR;
			else process.env.EQUIPMENT_RENTAL_PACKAGE_DIR = previous;
		}
	});
});
