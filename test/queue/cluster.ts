/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/require-node-api-error,
	@n8n/community-nodes/no-hardcoded-secrets
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * n8n in queue mode, deployed as users deploy it: PostgreSQL and Redis (Debian's, as child
 * processes on loopback ports), one main and two `n8n worker` processes of the pinned n8n sharing
 * one encryption key, each with its own user folder in which the package is installed as a
 * community package (<user folder>/.n8n/nodes/node_modules). The sandbox runs in the suite's own
 * process, with its administration paths open.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { type N8nServer, startN8nServer } from '../e2e/n8n-server';
import { type Json, rt, type RuntimeServer, waitFor } from '../e2e/support';
import type { Sandbox } from '../harness/sandbox';
import type { CredentialRef } from './workflows';

// Plain JavaScript modules, shared with scripts and the suite's global setup.
/* eslint-disable @typescript-eslint/no-require-imports */
const { startSandbox } = require('../../sandbox/server');
const services = require('../../scripts/runtime/services');
const runFolder = require('./run-folder');
/* eslint-enable @typescript-eslint/no-require-imports */

export const API_TOKEN = 'queue-api-token-61d2';
export const ADMIN_TOKEN = 'queue-admin-token-9b7e';

export type QueueSandbox = Sandbox & {
	store: Sandbox['store'] & {
		models: Json[];
		quotes: Map<string, Json>;
		distances: Map<string, Json[]>;
	};
};

export interface Worker {
	name: string;
	pid: number;
	isRunning(): boolean;
	stop(): Promise<void>;
}

interface StartedProcess {
	name: string;
	pid: number;
	ports: number[];
}

export interface Cluster {
	sandbox: QueueSandbox;
	/** The current main process (a restart replaces it). */
	readonly main: N8nServer;
	readonly workers: Worker[];
	credential: CredentialRef;
	/** Saves a workflow through the REST API, as the editor does; returns its id. */
	createWorkflow(workflow: Json): Promise<string>;
	/**
	 * Stops the main (SIGTERM: n8n's own shutdown; SIGKILL: at once), runs `whileStopped` once it
	 * has exited, starts it again and waits until it has activated the named workflows again (each
	 * polls once on activation). Resolves with how long the old main took to exit.
	 */
	restartMain(
		signal: 'SIGTERM' | 'SIGKILL',
		activeWorkflows: string[],
		whileStopped?: () => void | Promise<void>,
	): Promise<{ stopMs: number }>;
	/** Kills a worker's whole process group with SIGKILL. */
	killWorker(worker: Worker): Promise<void>;
	/** Stops a worker with n8n's own shutdown (SIGTERM). */
	stopWorker(worker: Worker): Promise<void>;
	startWorker(name: string): Promise<Worker>;
	/** Which worker started each execution, from the workers' logs (ids started twice: twice). */
	workersByExecution(): Map<string, string[]>;
	/** Stops everything the suite started, n8n first, and removes the run folder. */
	stop(): Promise<void>;
	/** What is left after stop(): running process groups, ports in use, the run folder. */
	leftovers(): Promise<string[]>;
}

/** Lines of an n8n JSON log file (N8N_LOG_OUTPUT=file) from a byte offset on. */
function logMessages(file: string, fromByte = 0): string[] {
	let text: string;
	try {
		text = fs.readFileSync(file).subarray(fromByte).toString('utf8');
	} catch {
		return [];
	}
	return text.split('\n').flatMap((line) => {
		try {
			return [String(JSON.parse(line).message)];
		} catch {
			return [];
		}
	});
}

function fileSize(file: string): number {
	try {
		return fs.statSync(file).size;
	} catch {
		return 0;
	}
}

export async function startCluster({ models }: { models: number }): Promise<Cluster> {
	const root = process.env.QUEUE_SUITE_ROOT;
	if (!root) throw new Error('QUEUE_SUITE_ROOT is not set: run the suite with npm run test:queue');
	const logs = path.join(root, 'logs');
	fs.mkdirSync(logs);
	const recorded: StartedProcess[] = [];
	const record = (
		name: string,
		pid: number,
		kind: 'n8n' | 'service',
		ports: number[],
		stopSignal = 'SIGTERM',
	) => {
		recorded.push({ name, pid, ports });
		runFolder.recordProcess(root, { name, pid, kind, ports, stopSignal });
	};

	const sandbox = (await startSandbox({
		token: API_TOKEN,
		adminToken: ADMIN_TOKEN,
		models,
	})) as QueueSandbox;
	let stopped = false;
	const stop = async () => {
		if (stopped) return;
		stopped = true;
		await runFolder.stopEverything(root);
		await sandbox.close();
	};

	try {
		const postgres = await services.startPostgres({ dir: root, port: await rt.getFreePort() });
		record('PostgreSQL', postgres.pid, 'service', [postgres.port], 'SIGINT');
		const redis = await services.startRedis({ dir: root, port: await rt.getFreePort() });
		record('Redis', redis.pid, 'service', [redis.port]);

		const queueEnv = (name: string): Record<string, string> => ({
			...services.queueModeEnv(postgres, redis),
			N8N_LOG_OUTPUT: 'console,file',
			N8N_LOG_FILE_LOCATION: path.join(logs, `${name}.log`),
		});
		const userFolder = (name: string) => {
			const folder = path.join(root, name);
			fs.mkdirSync(folder, { recursive: true });
			// What a user does on every process: install the package into its nodes folder.
			rt.installPackageInto(folder);
			return folder;
		};

		const mainPort = await rt.getFreePort();
		const mainFolder = userFolder('main');
		const startMain = async () => {
			const server = await startN8nServer(mainFolder, { port: mainPort, env: queueEnv('main') });
			record('n8n main', server.pid, 'n8n', [mainPort]);
			return server;
		};
		let main = await startMain();

		const workers: Worker[] = [];
		const startWorker = async (name: string): Promise<Worker> => {
			const healthPort = await rt.getFreePort();
			const server: RuntimeServer = await rt.startN8nServer(userFolder(name), {
				port: healthPort,
				output: 'quiet',
				command: 'worker',
				env: queueEnv(name),
			});
			const worker = {
				name,
				pid: server.child.pid as number,
				isRunning: server.isRunning,
				stop: server.stop,
			};
			record(`n8n ${name}`, worker.pid, 'n8n', [healthPort]);
			const index = workers.findIndex((candidate) => candidate.name === name);
			workers.splice(index === -1 ? workers.length : index, index === -1 ? 0 : 1, worker);
			return worker;
		};
		await Promise.all([startWorker('worker-1'), startWorker('worker-2')]);

		const credential = await main.rest('POST', '/credentials', {
			name: 'Equipment Rental sandbox',
			type: rt.CREDENTIAL_TYPE,
			data: { baseUrl: sandbox.url, accessToken: API_TOKEN },
		});

		return {
			sandbox,
			get main() {
				return main;
			},
			workers,
			credential: { id: credential.id, name: credential.name },
			async createWorkflow(workflow) {
				return (await main.rest('POST', '/workflows', { ...workflow, active: false })).id;
			},
			async restartMain(signal, activeWorkflows, whileStopped) {
				const mainLog = path.join(logs, 'main.log');
				const from = fileSize(mainLog);
				const previous = main;
				const stopping = Date.now();
				if (signal === 'SIGTERM') await previous.stop();
				else rt.killGroup(previous.pid, 'SIGKILL');
				runFolder.markStopped(root, previous.pid);
				await waitFor(
					'the main port to be free',
					async () => ((await rt.isPortFree(mainPort)) ? true : undefined),
					{ timeoutMs: 30000 },
				);
				const stopMs = Date.now() - stopping;
				await whileStopped?.();
				main = await startMain();
				await waitFor(
					`the main to activate ${activeWorkflows.join(', ')}`,
					async () => {
						const messages = logMessages(mainLog, from);
						const activated = activeWorkflows.every((name) =>
							messages.some((message) => message.startsWith(`Activated workflow "${name}"`)),
						);
						return activated ? true : undefined;
					},
					{ timeoutMs: 120000, explain: () => main.logTail() },
				);
				return { stopMs };
			},
			async killWorker(worker) {
				rt.killGroup(worker.pid, 'SIGKILL');
				runFolder.markStopped(root, worker.pid);
				await waitFor(
					`${worker.name} to exit`,
					async () => (worker.isRunning() ? undefined : true),
					{
						timeoutMs: 10000,
					},
				);
			},
			async stopWorker(worker) {
				await worker.stop();
				runFolder.markStopped(root, worker.pid);
			},
			startWorker,
			workersByExecution() {
				const byExecution = new Map<string, string[]>();
				for (const worker of ['worker-1', 'worker-2']) {
					for (const message of logMessages(path.join(logs, `${worker}.log`))) {
						const started = /^Worker started execution (\d+) /.exec(message);
						if (started)
							byExecution.set(started[1], [...(byExecution.get(started[1]) ?? []), worker]);
					}
				}
				return byExecution;
			},
			stop,
			async leftovers() {
				return await runFolder.leftovers(root, recorded, [Number(new URL(sandbox.url).port)]);
			},
		};
	} catch (error) {
		await stop();
		throw error;
	}
}
