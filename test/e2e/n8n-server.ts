/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/require-node-api-error,
	@n8n/community-nodes/no-hardcoded-secrets
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * A running n8n (`n8n start`) on the suite's user folder, signed in as its owner through the REST
 * API the editor uses: for what `n8n execute` cannot show, workflows that their own triggers start
 * once activated.
 */
import * as path from 'node:path';

import { BROWSER_ID, type Json, rt, waitFor } from './support';

const OWNER = {
	email: 'e2e-owner@example.com',
	firstName: 'E2E',
	lastName: 'Owner',
	password: 'E2e-Owner-Passw0rd',
};
/** The statuses of an execution that has not ended yet. */
export const RUNNING_STATUSES = ['new', 'running'];
/** Enough of n8n's log to explain a failure. */
const LOG_TAIL_CHARS = 8000;

export interface ExecutionSummary {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
}

/**
 * An execution with its run data (`data.resultData.runData`), as `n8n execute --rawOutput` prints
 * one.
 */
export type Execution = ExecutionSummary & { data: Json };

export interface N8nServer {
	url: string;
	/** n8n's process id, also the id of its process group (its task runner is in it). */
	pid: number;
	/**
	 * Publishes the workflow as the editor's Publish button does: its triggers start (a poller polls
	 * once).
	 */
	activate(workflowId: string): Promise<void>;
	/**
	 * Runs the workflow from its trigger as the editor's Fetch Test Event button does (a poller polls
	 * once, in manual mode) and returns the finished execution.
	 */
	fetchTestEvent(workflowId: string, triggerName: string): Promise<Execution>;
	/** The workflow's executions, newest first, without their data. */
	executions(workflowId: string): Promise<ExecutionSummary[]>;
	execution(id: string): Promise<Execution>;
	/** The execution once recorded as `status` (by default: as ended), with its run data. */
	finishedExecution(
		id: string,
		until?: { status?: string; timeoutMs?: number },
	): Promise<Execution>;
	/** The end of n8n's log output. */
	logTail(): string;
	/** Calls n8n's REST API as the signed-in owner and returns the answer's `data`. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- n8n's JSON, read field by field
	rest(method: string, route: string, body?: Json): Promise<any>;
	/** Stops n8n and every process it started. */
	stop(): Promise<void>;
}

/** n8n keeps execution data in the `flatted` format; its own copy of the library reads it. */
function parseFlatted(text: string): Json {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const flatted = require(
		require.resolve('flatted', { paths: [path.join(rt.cacheDir(), 'node_modules', 'n8n')] }),
	);
	return flatted.parse(text);
}

/** Whether fetch failed because the connection was reset or closed under it. */
function wasReset(error: unknown): boolean {
	const code = (error as { cause?: { code?: string } })?.cause?.code;
	return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET';
}

export async function startN8nServer(
	userFolder: string,
	{ port, env }: { port?: number; env?: Record<string, string> } = {},
): Promise<N8nServer> {
	const server = await rt.startN8nServer(userFolder, {
		port: port ?? (await rt.getFreePort()),
		output: 'quiet',
		env,
	});
	const logTail = () => server.logTail(LOG_TAIL_CHARS);
	let cookie: string;
	try {
		await rt.setupOwner(server.url, OWNER);
		cookie = await rt.login(server.url, OWNER);
	} catch (error) {
		await server.stop();
		throw error;
	}

	async function send(method: string, route: string, body?: Json): Promise<Response> {
		const request = () =>
			fetch(`${server.url}/rest${route}`, {
				method,
				headers: { cookie, 'browser-id': BROWSER_ID, 'content-type': 'application/json' },
				body: body && JSON.stringify(body),
			});
		// Node's HTTP server, which n8n runs on, closes a kept-alive connection after it idles
		// (keepAliveTimeout, 5 s by default); a request sent on it as it closes is reset (a GET was,
		// while a 1,000-row execution kept n8n busy). A GET changes nothing, so it is sent again.
		for (let resets = 0; ; resets++) {
			try {
				return await request();
			} catch (error) {
				if (method !== 'GET' || resets >= 2 || !wasReset(error)) throw error;
			}
		}
	}

	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- n8n's JSON, read field by field
	async function dataOf(response: Response, what: string): Promise<any> {
		const text = await response.text();
		if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${text}\n${logTail()}`);
		return JSON.parse(text).data;
	}

	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- n8n's JSON, read field by field
	async function rest(method: string, route: string, body?: Json): Promise<any> {
		return dataOf(await send(method, route, body), `${method} /rest${route}`);
	}

	async function execution(id: string): Promise<Execution> {
		const found = await rest('GET', `/executions/${id}`);
		return { ...found, data: parseFlatted(found.data) };
	}

	/**
	 * Waits until n8n has recorded the execution as `status` (by default: as ended) and stored its
	 * run data, which n8n 1.123 does a moment after the status.
	 */
	function finishedExecution(
		id: string,
		{ status, timeoutMs = 60_000 }: { status?: string; timeoutMs?: number } = {},
	): Promise<Execution> {
		return waitFor(
			`n8n to record execution ${id} as ${status ?? 'ended'}`,
			async () => {
				const run = await execution(id);
				const recorded = status ? run.status === status : !RUNNING_STATUSES.includes(run.status);
				return recorded && run.data?.resultData ? run : undefined;
			},
			{ timeoutMs, explain: logTail },
		);
	}

	return {
		url: server.url,
		pid: server.child.pid as number,
		async activate(workflowId) {
			const { versionId } = await rest('GET', `/workflows/${workflowId}`);
			const route = `/workflows/${workflowId}/activate`;
			const activated = await send('POST', route, { versionId });
			// n8n 1.85 has no activate route: its editor saves the workflow with active: true.
			if (activated.status === 404) {
				await rest('PATCH', `/workflows/${workflowId}`, { active: true, versionId });
			} else await dataOf(activated, `POST /rest${route}`);
		},
		async fetchTestEvent(workflowId, triggerName) {
			const workflowData = await rest('GET', `/workflows/${workflowId}`);
			const { executionId } = await rest('POST', `/workflows/${workflowId}/run`, {
				workflowData,
				triggerToStartFrom: { name: triggerName },
			});
			return finishedExecution(executionId);
		},
		async executions(workflowId) {
			const filter = encodeURIComponent(JSON.stringify({ workflowId }));
			return (await rest('GET', `/executions?filter=${filter}`)).results;
		},
		execution,
		finishedExecution,
		logTail,
		rest,
		stop: () => server.stop(),
	};
}
