'use strict';
/**
 * An n8n user folder with this package installed as a community package, the sandbox credential
 * and the example workflows imported, and the workflows in it run headlessly.
 */

const fs = require('node:fs');
const path = require('node:path');

const { ensureN8n } = require('./install');
const { ensureFilesDir, runN8n, runN8nOrThrow } = require('./processes');
const {
	CREDENTIAL_ID,
	CREDENTIAL_NAME,
	CREDENTIAL_TYPE,
	EXAMPLES_DIR,
	log,
	packageDir,
} = require('./project');

function builtNodePath() {
	return path.join(packageDir(), 'dist', 'nodes', 'EquipmentRental', 'EquipmentRental.node.js');
}

function isPackageBuilt() {
	const pkg = JSON.parse(fs.readFileSync(path.join(packageDir(), 'package.json'), 'utf8'));
	const files = [...(pkg.n8n?.nodes || []), ...(pkg.n8n?.credentials || [])];
	return files.length > 0 && files.every((f) => fs.existsSync(path.join(packageDir(), f)));
}

/**
 * Installs the built package the way n8n installs a community package from
 * Settings > Community Nodes: <userFolder>/.n8n/nodes/node_modules/<name>, so that its nodes get
 * the type prefix "<name>." exactly as for real users. The files are copied (not linked) so that
 * `require('n8n-workflow')` inside the node resolves to n8n's own copy, as it does after a real
 * install, and not to this repository's dev dependency.
 */
function installPackageInto(userFolder) {
	if (!isPackageBuilt()) {
		throw new Error(
			`The package is not built (no ${builtNodePath()}); run \`npm run build\` first.`,
		);
	}
	const root = packageDir();
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', pkg.name);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	fs.copyFileSync(path.join(packageDir(), 'package.json'), path.join(target, 'package.json'));
	for (const entry of pkg.files || ['dist']) {
		const from = path.join(packageDir(), entry);
		if (fs.existsSync(from)) fs.cpSync(from, path.join(target, entry), { recursive: true });
	}
	for (const extra of ['README.md', 'LICENSE', 'LICENSE.md']) {
		const from = path.join(packageDir(), extra);
		if (fs.existsSync(from)) fs.copyFileSync(from, path.join(target, extra));
	}
	if (pkg.dependencies && Object.keys(pkg.dependencies).length) {
		log(
			`warning: ${pkg.name} has runtime dependencies (${Object.keys(pkg.dependencies).join(', ')}); ` +
				'they are not installed into the n8n user folder',
		);
	}
	// What npm leaves in n8n's nodes folder after installing a community package.
	const manifest = path.join(nodesDir, 'package.json');
	let nodesPkg = { name: 'installed-nodes', private: true, dependencies: {} };
	try {
		nodesPkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
	} catch {}
	nodesPkg.dependencies = { ...(nodesPkg.dependencies || {}), [pkg.name]: pkg.version };
	fs.writeFileSync(manifest, JSON.stringify(nodesPkg, null, 2) + '\n');
	return target;
}

/** The credential that points at the sandbox, in the format of `n8n import:credentials`. */
function sandboxCredential({ sandboxUrl, token, id = CREDENTIAL_ID, name = CREDENTIAL_NAME }) {
	return {
		id,
		name,
		type: CREDENTIAL_TYPE,
		data: { baseUrl: sandboxUrl.replace(/\/+$/, ''), accessToken: token },
	};
}

/** The example workflows shipped in examples/ (parsed). */
function loadExamples() {
	if (!fs.existsSync(EXAMPLES_DIR)) return [];
	return fs
		.readdirSync(EXAMPLES_DIR)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((f) => ({ file: f, ...JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, f), 'utf8')) }));
}

function stripFile(wf) {
	const { file, ...rest } = wf;
	return rest;
}

async function importCredentials(userFolder, credentials, env = {}) {
	const dir = path.join(userFolder, 'import');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, `credentials-${process.pid}-${Date.now()}.json`);
	fs.writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
	try {
		return await runN8nOrThrow(['import:credentials', `--input=${file}`], { userFolder, env });
	} finally {
		fs.rmSync(file, { force: true });
	}
}

/** Imports workflows (objects with an id each) in a single n8n process. */
async function importWorkflows(userFolder, workflows, env = {}) {
	if (!workflows.length) return undefined;
	const dir = path.join(userFolder, 'import', `workflows-${process.pid}-${Date.now()}`);
	fs.mkdirSync(dir, { recursive: true });
	for (const wf of workflows) {
		if (!wf.id) throw new Error(`Workflow "${wf.name}" has no id`);
		fs.writeFileSync(path.join(dir, `${wf.id}.json`), JSON.stringify(stripFile(wf), null, 2));
	}
	try {
		return await runN8nOrThrow(['import:workflow', '--separate', `--input=${dir}`], {
			userFolder,
			env,
		});
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * `n8n execute --rawOutput` prints the run (IRun) as pretty JSON through the logger, mixed with
 * other log lines (task broker, warnings). Pretty JSON opens with a line that is exactly "{" and
 * closes with a line that is exactly "}": take the last such block that parses as a run.
 */
function parseRunOutput(stdout) {
	const lines = stdout.split(/\r?\n/);
	let found;
	for (let i = 0; i < lines.length; i++) {
		if (lines[i] !== '{') continue;
		for (let j = i + 1; j < lines.length; j++) {
			if (lines[j] !== '}') continue;
			try {
				const parsed = JSON.parse(lines.slice(i, j + 1).join('\n'));
				if (parsed && parsed.data && parsed.data.resultData) found = parsed;
			} catch {}
			i = j;
			break;
		}
	}
	return found;
}

/** The json of the items a node put out in its last run (output 0 unless told). */
function nodeItems(run, nodeName, outputIndex = 0) {
	const runs = run && run.data.resultData.runData[nodeName];
	if (!runs || !runs.length) return undefined;
	const last = runs[runs.length - 1];
	const out = last.data && last.data.main && last.data.main[outputIndex];
	return (out || []).map((item) => item.json);
}

class WorkflowExecutionError extends Error {
	constructor(message, details) {
		super(message);
		this.name = 'WorkflowExecutionError';
		Object.assign(this, details);
	}
}

/**
 * Runs a workflow headlessly (`n8n execute --id=ID --rawOutput`). Resolves with { run, status,
 * error, lastNodeExecuted, items (json of the last node's items), ms, stdout, stderr } whether the
 * workflow succeeded or not; rejects only if no run could be read from the output.
 */
async function runWorkflow(id, { userFolder, env, timeoutMs }) {
	const res = await runN8n(['execute', `--id=${id}`, '--rawOutput'], {
		userFolder,
		env,
		timeoutMs,
	});
	const run = parseRunOutput(res.stdout);
	if (!run) {
		throw new WorkflowExecutionError(
			`n8n execute --id=${id} printed no run (exit ${res.code}):\n${res.stdout}\n${res.stderr}`,
			{ stdout: res.stdout, stderr: res.stderr, exitCode: res.code },
		);
	}
	const { resultData } = run.data;
	const lastNodeExecuted = resultData.lastNodeExecuted;
	// n8n 1.85 prints the run before it records the final status (still "running"); by then the run
	// has stopped, and its result says how it ended.
	const status =
		run.status === 'running' && run.stoppedAt
			? resultData.error
				? 'error'
				: 'success'
			: run.status;
	return {
		run,
		status,
		error: resultData.error,
		lastNodeExecuted,
		items: lastNodeExecuted ? nodeItems(run, lastNodeExecuted) : [],
		node: (name, output) => nodeItems(run, name, output),
		exitCode: res.code,
		ms: res.ms,
		stdout: res.stdout,
		stderr: res.stderr,
	};
}

/**
 * Runs a workflow headlessly and returns the json of the items of the last node executed.
 * Throws (with the node's error message and n8n's output) when the execution failed.
 */
async function executeWorkflow(id, opts = {}) {
	const result = await runWorkflow(id, opts);
	if (result.error || result.status !== 'success') {
		const e = result.error || {};
		const where = e.node ? ` in node "${e.node.name}"` : '';
		throw new WorkflowExecutionError(
			`Workflow ${id} failed${where}: ${e.message || result.status}` +
				(e.description ? `\n${e.description}` : '') +
				`\n--- n8n stderr ---\n${result.stderr}`,
			{ result, nodeError: e },
		);
	}
	return result.items;
}

/**
 * Prepares an n8n user folder: installs the built package as a community package, imports the
 * sandbox credential (fixed id and name) and the example workflows (plus `workflows`, if given);
 * `env` goes to the importing n8n processes (another database than the folder's SQLite).
 * Returns { userFolder, credential, examples, run(id), execute(id) }.
 */
async function prepareUserFolder(
	dir,
	{
		sandboxUrl,
		token,
		examples = true,
		workflows = [],
		credentials = [],
		installPackage = true,
		env = {},
	} = {},
) {
	if (!sandboxUrl || !token)
		throw new Error('prepareUserFolder: sandboxUrl and token are required');
	const userFolder = path.resolve(dir);
	fs.mkdirSync(userFolder, { recursive: true });
	await ensureN8n();
	if (installPackage) installPackageInto(userFolder);
	ensureFilesDir();
	const credential = sandboxCredential({ sandboxUrl, token });
	await importCredentials(userFolder, [credential, ...credentials], env);
	const exampleList = examples ? loadExamples() : [];
	await importWorkflows(userFolder, [...exampleList, ...workflows], env);
	return {
		userFolder,
		credential,
		examples: exampleList,
		run: (id, opts) => runWorkflow(id, { userFolder, ...opts }),
		execute: (id, opts) => executeWorkflow(id, { userFolder, ...opts }),
		importWorkflows: (list) => importWorkflows(userFolder, list),
		importCredentials: (list) => importCredentials(userFolder, list),
	};
}

module.exports = {
	isPackageBuilt,
	installPackageInto,
	sandboxCredential,
	loadExamples,
	importCredentials,
	importWorkflows,
	parseRunOutput,
	nodeItems,
	WorkflowExecutionError,
	runWorkflow,
	executeWorkflow,
	prepareUserFolder,
};
