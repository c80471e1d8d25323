/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * Helpers of the e2e suite: typed access to scripts/n8n-runtime.js and the sandbox, and builders of
 * workflows that use the Equipment Rental node as a user would save them.
 */
import type { ChildProcess } from 'node:child_process';

import { CURRENT_VERSION } from '../../nodes/EquipmentRental/engine/nodeVersions';
import type { Sandbox } from '../harness/sandbox';

export { contractViolations, type Sandbox, type SandboxRequest } from '../harness/sandbox';

// The runtime and the sandbox are plain JavaScript so that they run without a build step.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtime = require('../../scripts/n8n-runtime');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startSandbox } = require('../../sandbox/server');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- workflow and API JSON, read field by field
export type Json = Record<string, any>;

export interface NodeError {
	message: string;
	description?: string;
	httpCode?: string;
	node?: { name: string };
	[key: string]: unknown;
}

export interface RunResult {
	run: Json;
	status: string;
	error?: NodeError;
	lastNodeExecuted?: string;
	items: Json[];
	node(name: string, output?: number): Json[] | undefined;
	exitCode: number | string;
	ms: number;
	stdout: string;
	stderr: string;
}

export interface PreparedFolder {
	userFolder: string;
	examples: Array<Json & { file: string; id: string; name: string }>;
	run(id: string, options?: { env?: Record<string, string> }): Promise<RunResult>;
	execute(id: string): Promise<Json[]>;
}

/** A running `n8n start`, as scripts/n8n-runtime.js's startN8nServer returns it. */
export interface RuntimeServer {
	url: string;
	child: ChildProcess;
	/** Where n8n writes its output (n8n.log in the user folder unless told). */
	logFile: string;
	/** The last maxChars characters of n8n's log. */
	logTail(maxChars: number): string;
	stop(): Promise<void>;
	isRunning(): boolean;
}

export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

export interface Runtime {
	/** The n8n version this process runs (EQUIPMENT_RENTAL_N8N_VERSION, else the default). */
	n8nVersion(): string;
	/** The version the suites run on unless told otherwise (2.8.4). */
	DEFAULT_VERSION: string;
	PACKAGE_NAME: string;
	NODE_TYPE: string;
	CREDENTIAL_TYPE: string;
	CREDENTIAL_ID: string;
	CREDENTIAL_NAME: string;
	EXAMPLE_FILES_DIR: string;
	loadExamples(): Array<Json & { file: string; id: string; name: string }>;
	prepareUserFolder(
		dir: string,
		options: {
			sandboxUrl: string;
			token: string;
			examples?: boolean;
			workflows?: Json[];
			credentials?: Json[];
			/** false: the package is installed otherwise (default: copied as npm leaves it). */
			installPackage?: boolean;
		},
	): Promise<PreparedFolder>;
	/** Where this n8n version is installed. */
	cacheDir(): string;
	/** The Node.js binary this n8n version runs on. */
	nodeBinary(): string;
	/** Installs the built package into <userFolder>/.n8n/nodes/node_modules, as n8n would. */
	installPackageInto(userFolder: string): string;
	getFreePort(): Promise<number>;
	isPortFree(port: number): Promise<boolean>;
	/** Signals a whole process group; false if it is gone. */
	killGroup(pid: number, signal?: NodeJS.Signals): boolean;
	nodeItems(run: Json, nodeName: string, outputIndex?: number): Json[] | undefined;
	startN8nServer(
		userFolder: string,
		options: {
			port: number;
			output?: 'forward' | 'quiet';
			env?: Record<string, string>;
			/** 'worker' starts a queue-mode worker, whose health check listens on `port`. */
			command?: 'start' | 'worker';
		},
	): Promise<RuntimeServer>;
	setupOwner(url: string, owner: Owner): Promise<boolean>;
	/**
	 * Returns the session cookie, bound to the `browser-id` header n8n-runtime sends ({@link
	 * BROWSER_ID}).
	 */
	login(url: string, owner: Pick<Owner, 'email' | 'password'>): Promise<string>;
	isPortFree(port: number): Promise<boolean>;
	/** Starts a guard that stops the process group of pid if this process dies. */
	guardProcessGroup(pid: number): ChildProcess;
	processStat(pid: number): ProcessStat | undefined;
	isProcessRunning(pid: number, startTime?: string): boolean;
	commandLine(pid: number): string | undefined;
	allProcesses(): ProcessStat[];
	descendants(pid: number): ProcessStat[];
}

/** A process as Linux's /proc/<pid>/stat describes it (scripts/runtime/process-info.js). */
export interface ProcessStat {
	pid: number;
	ppid: number;
	pgid: number;
	state: string;
	startTime: string;
}

/**
 * The `browser-id` header rt.login signs in with: n8n accepts the session cookie only with the same
 * header.
 */
export const BROWSER_ID = 'n8n-runtime';

export const rt = runtime as Runtime;

/** A describe title that names the n8n version the tests run on (npm run test:compat runs several). */
export function onN8n(title: string): string {
	return `n8n ${rt.n8nVersion()}: ${title}`;
}

/**
 * `it` for a test of the node's own logic (a field's validation, a page's edge, a workflow's recipe), which
 * meets n8n's engine the way other tests already do on every version. With COMPAT_SCOPE=engine (CI's compat
 * steps) it runs on the default n8n version only and is reported skipped on the others, so that CI's time
 * goes to what differs between versions; `npm run test:compat` runs it everywhere.
 */
export const nodeLogicTest: jest.It =
	process.env.COMPAT_SCOPE === 'engine' && rt.n8nVersion() !== rt.DEFAULT_VERSION ? it.skip : it;

/**
 * The sandbox in strict mode: it refuses body properties the vendor's reference does not list, as
 * the real API's whitelisting validation may, so every example and operation is shown to pass it.
 */
export function start(options: { token: string }): Promise<Sandbox> {
	return startSandbox({ port: 0, strict: true, ...options });
}

export interface NodeSpec {
	name: string;
	parameters: Json;
	/** Id and name of the credential to use; the sandbox credential unless told. */
	credential?: { id: string; name: string };
}

/**
 * A workflow as the editor saves it: a Manual Trigger (what `n8n execute` starts from) connected to
 * each Equipment Rental node given, as parallel branches run top to bottom.
 */
export function operationWorkflow(id: string, name: string, nodes: NodeSpec[]): Json {
	const trigger = {
		id: `${id}-trigger`,
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const rentalNodes = nodes.map((spec, index) => ({
		id: `${id}-node-${index}`,
		name: spec.name,
		type: rt.NODE_TYPE,
		typeVersion: CURRENT_VERSION,
		position: [300, index * 200],
		parameters: spec.parameters,
		credentials: {
			[rt.CREDENTIAL_TYPE]: spec.credential ?? { id: rt.CREDENTIAL_ID, name: rt.CREDENTIAL_NAME },
		},
	}));
	return {
		id,
		name,
		active: false,
		nodes: [trigger, ...rentalNodes],
		connections: {
			Start: { main: [rentalNodes.map((node) => ({ node: node.name, type: 'main', index: 0 }))] },
		},
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * A sheet fed to one Equipment Rental node, as users build it: a Manual Trigger, a "Sheet" Code node
 * that outputs `rows` (one item per row, as a spreadsheet node would), and the node, which goes on
 * with the other rows when one fails (On Error: Continue) unless `onError` says otherwise ('stop':
 * n8n's default, Stop Workflow).
 */
export function sheetWorkflow(
	id: string,
	name: string,
	rows: Json[],
	node: NodeSpec,
	{ onError = 'continueRegularOutput' }: { onError?: string } = {},
): Json {
	const workflow = operationWorkflow(id, name, [node]);
	const [trigger, rental] = workflow.nodes;
	const sheet = {
		id: `${id}-sheet`,
		name: 'Sheet',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [150, 0],
		parameters: { jsCode: `return ${JSON.stringify(rows)}.map((json) => ({ json }));` },
	};
	return {
		...workflow,
		nodes: [trigger, sheet, onError === 'stop' ? rental : { ...rental, onError }],
		connections: {
			Start: { main: [[{ node: 'Sheet', type: 'main', index: 0 }]] },
			Sheet: { main: [[{ node: node.name, type: 'main', index: 0 }]] },
		},
	};
}

/**
 * `workflow` (a sheetWorkflow) with its sheet fed through n8n's Loop Over Items (SplitInBatches 3)
 * of `batchSize`: its `loop` output to the node `node`, and the node back to it, as the editor
 * builds a loop; n8n runs the node once per batch, in one execution.
 */
export function inLoop(workflow: Json, node: string, batchSize: number): Json {
	const loop = {
		id: `${workflow.id}-loop`,
		name: 'Loop Over Items',
		type: 'n8n-nodes-base.splitInBatches',
		typeVersion: 3,
		position: [225, 0],
		parameters: { batchSize, options: {} },
	};
	const to = (name: string) => ({ node: name, type: 'main', index: 0 });
	return {
		...workflow,
		nodes: [...workflow.nodes, loop],
		connections: {
			...workflow.connections,
			Sheet: { main: [[to(loop.name)]] },
			[loop.name]: { main: [[], [to(node)]] },
			[node]: { main: [[to(loop.name)]] },
		},
	};
}

/**
 * A workflow as the editor saves it: a Manual Trigger followed by each Equipment Rental node given,
 * one after the other, each run once (Settings > Execute Once), so that a later node can use what
 * an earlier one wrote (`$('Create client').first().json.id`) whatever the number of items between.
 */
export function chainWorkflow(id: string, name: string, nodes: NodeSpec[]): Json {
	const parallel = operationWorkflow(id, name, nodes);
	const [trigger, ...rentalNodes] = parallel.nodes as Json[];
	const chain: Json[] = rentalNodes.map((node, index) => ({
		...node,
		position: [300 + index * 250, 0],
		executeOnce: true,
	}));
	const connections = Object.fromEntries(
		[trigger, ...chain.slice(0, -1)].map((node, index) => [
			node.name,
			{ main: [[{ node: chain[index].name, type: 'main', index: 0 }]] },
		]),
	);
	return { ...parallel, nodes: [trigger, ...chain], connections };
}

/** Marks the requests the tests send themselves, to tell them from those n8n sent. */
export const EXPECTATION_HEADER = 'x-e2e-expectation';

/**
 * Calls the sandbox directly (not through n8n), to learn what the node should have produced, or,
 * with a body, to create a record as another client of the API would (POST).
 */
export async function api(
	sandbox: Sandbox,
	token: string,
	path: string,
	body?: Json,
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the sandbox's JSON, read field by field
): Promise<any> {
	const method = body === undefined ? 'GET' : 'POST';
	const res = await fetch(`${sandbox.url}${path}`, {
		method,
		headers: {
			authorization: `Bearer ${token}`,
			accept: 'application/json',
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
			[EXPECTATION_HEADER]: '1',
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${await res.text()}`);
	return res.json();
}

/** Rows of a CSV text (RFC 4180 quoting), header row included. */
export function parseCsv(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	let quoted = false;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (quoted) {
			if (c === '"' && text[i + 1] === '"') {
				field += '"';
				i++;
			} else if (c === '"') quoted = false;
			else field += c;
		} else if (c === '"') quoted = true;
		else if (c === ',') {
			row.push(field);
			field = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && text[i + 1] === '\n') i++;
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
		} else field += c;
	}
	if (field !== '' || row.length) {
		row.push(field);
		rows.push(row);
	}
	return rows;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Asks `check` once a second until it returns something other than undefined, and returns that;
 * fails with `explain()` after timeoutMs.
 */
export async function waitFor<T>(
	what: string,
	check: () => Promise<T | undefined>,
	{ timeoutMs, explain = () => '' }: { timeoutMs: number; explain?: () => string },
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await check();
		if (value !== undefined) return value;
		if (Date.now() > deadline)
			throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}\n${explain()}`);
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}
