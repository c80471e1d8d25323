'use strict';

/**
 * A real n8n for the benchmarks that run inside one (bench/n8n-responsiveness.bench.js,
 * bench/n8n-return-all.bench.js): `n8n start` of the pinned version, headless, SQLite (or queue
 * mode: PostgreSQL, Redis, a main and a worker), a package
 * installed in its user folder as n8n installs a community package, the owner signed in, and
 * workflows run from their Manual Trigger as the editor's "Execute workflow" button does, or, as
 * production executions (as a Schedule Trigger's runs are), from a Webhook trigger of an active
 * workflow.
 */

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { setTimeout: sleep } = require('node:timers/promises');

const rt = require('../scripts/n8n-runtime');
const services = require('../scripts/runtime/services');

/** The name of the Manual Trigger every benchmark workflow starts from. */
const TRIGGER = 'Execute workflow';
/** The name of the Webhook trigger a workflow run as a production execution starts from. */
const WEBHOOK_TRIGGER = 'Webhook';

const OWNER = {
	email: 'bench-owner@example.com',
	firstName: 'Bench',
	lastName: 'Owner',
	password: 'Bench-Owner-Passw0rd',
};
// The browser-id rt.login signs in with: n8n accepts the session cookie only with it.
const BROWSER_ID = 'n8n-runtime';

const POLL_EVERY_MS = 250;
// A run that has not ended by then is stopped and counts as wrong.
const RUN_TIMEOUT_MS = 15 * 60_000;
// How often an ended run's data is asked for without an answer before the run is taken as ended
// with its data unreadable.
const DATA_ATTEMPTS = 3;
/** The statuses of an execution that has not ended yet. */
const RUNNING_STATUSES = ['new', 'running'];

/** The sandbox credential (imported by rt.prepareUserFolder) as a node references it. */
const SANDBOX_CREDENTIAL = {
	[rt.CREDENTIAL_TYPE]: { id: rt.CREDENTIAL_ID, name: rt.CREDENTIAL_NAME },
};

/** A Header Auth credential sending the sandbox's bearer token, for n8n's HTTP Request node. */
function headerAuthCredential(token) {
	return {
		id: 'benchHeaderAuth1',
		name: 'Header Auth account',
		type: 'httpHeaderAuth',
		data: { name: 'Authorization', value: `Bearer ${token}` },
	};
}

/** The Manual Trigger node a workflow starts from. */
const manualTrigger = (position = [-400, 0]) => ({
	id: 'trigger',
	name: TRIGGER,
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position,
	parameters: {},
});

/**
 * A Webhook trigger at `path` that answers a POST when the run has ended (Respond: When Last Node
 * Finishes), with no body. n8n answers after its workflowExecuteAfter hooks, the execution's save
 * among them, have run.
 */
const webhookTrigger = (path, position = [-400, 0]) => ({
	id: 'webhook',
	name: WEBHOOK_TRIGGER,
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	position,
	webhookId: crypto.randomUUID(),
	parameters: {
		httpMethod: 'POST',
		path,
		responseMode: 'lastNode',
		responseData: 'noData',
		options: {},
	},
});

/**
 * n8n's REST API as the signed-in owner (the account is created first): rest(method, route, body)
 * answers the `data` of the answer, or throws with its status, which `status` carries.
 */
async function signIn(url) {
	await rt.setupOwner(url, OWNER);
	const cookie = await rt.login(url, OWNER);
	return async function rest(method, route, body) {
		const response = await fetch(`${url}/rest${route}`, {
			method,
			headers: { cookie, 'browser-id': BROWSER_ID, 'content-type': 'application/json' },
			body: body && JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw Object.assign(
				new Error(`${method} /rest${route}: HTTP ${response.status} ${text.slice(0, 300)}`),
				{ status: response.status },
			);
		return JSON.parse(text).data;
	};
}

/**
 * Starts n8n on a fresh folder with the package of `packageDir` (default: this repository, built)
 * and those of `packageDirs` installed, the sandbox credential, `credentials` and `workflows`
 * imported, and signs in. With `queue`, n8n in queue mode as users deploy it (docs/queue-mode.md):
 * PostgreSQL and Redis (Debian's, scripts/runtime/services.js), a main that hands every execution,
 * manual ones too, to one `n8n worker`, each process with the packages in its own user folder.
 * Resolves with { url (the main's), pid (the main's, which leads its process group), logFile (the
 * main's), rest, n8nProcesses ([{ name, pid }], each leading its process group), processes (those
 * and the servers, [{ name, pid, group }]), stop() }; stop() ends them by their process groups, n8n
 * first, and removes the folder.
 */
async function startN8n({
	sandboxUrl,
	token,
	workflows,
	credentials = [],
	packageDir,
	packageDirs = [],
	queue = false,
}) {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-'));
	// PostgreSQL runs as its own user, which must reach its data folder inside.
	fs.chmodSync(root, 0o755);
	const started = [];
	const stop = async () => {
		for (const { stop: stopOne } of [...started].reverse()) await stopOne();
		fs.rmSync(root, { recursive: true, force: true });
	};
	const userFolder = async (name) => {
		const folder = path.join(root, name);
		fs.mkdirSync(folder);
		for (const dir of packageDirs) await withPackageDir(dir, () => rt.installPackageInto(folder));
		return folder;
	};
	try {
		const env = queue ? await startQueueServers(root, started) : {};
		const mainFolder = await userFolder('main');
		await withPackageDir(packageDir, () =>
			rt.prepareUserFolder(mainFolder, {
				sandboxUrl,
				token,
				examples: false,
				workflows,
				credentials,
				env,
			}),
		);
		const main = await rt.startN8nServer(mainFolder, {
			port: await rt.getFreePort(),
			output: 'quiet',
			env: queue ? { ...env, OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true' } : env,
		});
		started.push({ name: 'n8n', pid: main.child.pid, group: true, n8n: true, stop: main.stop });
		if (queue) {
			const workerFolder = await userFolder('worker');
			await withPackageDir(packageDir, () => rt.installPackageInto(workerFolder));
			const worker = await rt.startN8nServer(workerFolder, {
				port: await rt.getFreePort(),
				output: 'quiet',
				command: 'worker',
				env,
			});
			started.push({
				name: 'n8n worker',
				pid: worker.child.pid,
				group: true,
				n8n: true,
				stop: worker.stop,
			});
		}
		const rest = await signIn(main.url);
		return {
			url: main.url,
			pid: main.child.pid,
			logFile: main.logFile,
			rest,
			n8nProcesses: started.filter(({ n8n }) => n8n).map(({ name, pid }) => ({ name, pid })),
			processes: started.map(({ name, pid, group }) => ({ name, pid, group })),
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

/**
 * Starts PostgreSQL and Redis in `root` for queue mode, each pushed onto `started` as it starts;
 * answers the environment that puts an n8n process onto them.
 */
async function startQueueServers(root, started) {
	services.ensureServerPackages();
	const postgres = await services.startPostgres({ dir: root, port: await rt.getFreePort() });
	started.push({ name: 'PostgreSQL', pid: postgres.pid, group: true, stop: postgres.stop });
	const redis = await services.startRedis({ dir: root, port: await rt.getFreePort() });
	started.push({ name: 'Redis', pid: redis.pid, group: true, stop: redis.stop });
	return services.queueModeEnv(postgres, redis);
}

/** Runs `task` with rt's package folder (EQUIPMENT_RENTAL_PACKAGE_DIR) set to `packageDir`. */
async function withPackageDir(packageDir, task) {
	if (!packageDir) return await task();
	const before = process.env.EQUIPMENT_RENTAL_PACKAGE_DIR;
	process.env.EQUIPMENT_RENTAL_PACKAGE_DIR = packageDir;
	try {
		return await task();
	} finally {
		if (before === undefined) delete process.env.EQUIPMENT_RENTAL_PACKAGE_DIR;
		else process.env.EQUIPMENT_RENTAL_PACKAGE_DIR = before;
	}
}

/** n8n keeps an execution's data in the `flatted` format; its own copy of the library reads it. */
const flatted = require(
	require.resolve('flatted', { paths: [path.join(rt.cacheDir(), 'node_modules', 'n8n')] }),
);

/**
 * Runs the workflow from its Manual Trigger as the editor does and polls its execution until it
 * has ended. Answers { execution (its run data parsed), calledAt (Date.now() at the REST call),
 * endPolledAt (performance.now() when the poll that found it ended was sent), pollFailures (polls
 * refused with 503 or not answered) }; when n8n does not answer DATA_ATTEMPTS times with an ended
 * run's data, { execution (status and times, no data),
 * dataUnreadable: true, ... }. A run still going after RUN_TIMEOUT_MS is stopped and answers
 * { timedOut: true }.
 */
async function runFromEditor(rest, workflowId) {
	const workflowData = await rest('GET', `/workflows/${workflowId}`);
	const calledAt = Date.now();
	const { executionId } = await rest('POST', `/workflows/${workflowId}/run`, {
		workflowData,
		triggerToStartFrom: { name: TRIGGER },
	});
	let pollFailures = 0;
	let connectionFailures = 0;
	for (;;) {
		await sleep(POLL_EVERY_MS);
		const endPolledAt = performance.now();
		let found;
		try {
			found = await rest('GET', `/executions/${executionId}`);
			connectionFailures = 0;
		} catch (error) {
			// n8n refuses every REST call with 503 while its database ping times out: the run goes on.
			if (error.status === 503) {
				pollFailures++;
				continue;
			}
			if (error.status !== undefined) throw error;
			// No answer at all: a kept-alive connection n8n closed while its event loop was held (the
			// poll raced the close), or n8n could not send an ended run's data (tens of thousands of
			// items in several nodes). The list of executions, without data, tells whether it ended.
			const summary = await endedExecution(rest, executionId);
			if (summary && ++connectionFailures >= DATA_ATTEMPTS)
				return { execution: summary, dataUnreadable: true, calledAt, endPolledAt, pollFailures };
			pollFailures++;
			continue;
		}
		// The run data comes with the status that ends the run (n8n 1.123 stored it a moment later).
		const data = !RUNNING_STATUSES.includes(found.status) && flatted.parse(found.data);
		if (data?.resultData)
			return { execution: { ...found, data }, calledAt, endPolledAt, pollFailures };
		if (Date.now() - calledAt > RUN_TIMEOUT_MS) {
			await rest('POST', `/executions/${executionId}/stop`);
			return { timedOut: true, calledAt, endPolledAt, pollFailures };
		}
	}
}

/** The execution as n8n's list of executions has it (no run data) once it has ended, else undefined. */
async function endedExecution(rest, executionId) {
	const filter = encodeURIComponent(JSON.stringify({ id: executionId }));
	const { results } = await rest('GET', `/executions?filter=${filter}`);
	const found = results.find((execution) => execution.id === executionId);
	return found && !RUNNING_STATUSES.includes(found.status) && found.stoppedAt ? found : undefined;
}

/** Activates (publishes) a workflow through the REST API, as the editor's switch does. */
async function activate(rest, workflowId) {
	const { versionId } = await rest('GET', `/workflows/${workflowId}`);
	await rest('POST', `/workflows/${workflowId}/activate`, { versionId });
}

/**
 * Starts a production execution of an active workflow by a POST to its webhookTrigger's `path` and
 * waits for n8n's answer, which comes once the run has ended and n8n has saved it (or not, as the
 * workflow's settings say). Answers { ok (n8n answered 2xx: the run succeeded), calledAt (Date.now()
 * at the call), endedAt (Date.now() at the answer), endPolledAt (performance.now() at the answer) }.
 */
async function runFromWebhook(url, path) {
	const calledAt = Date.now();
	const answer = await fetch(`${url}/webhook/${path}`, {
		method: 'POST',
		signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
	});
	const [endedAt, endPolledAt] = [Date.now(), performance.now()];
	await answer.arrayBuffer();
	return { ok: answer.ok, calledAt, endedAt, endPolledAt };
}

/**
 * The latest execution of a workflow with its run data parsed, as n8n saved it; undefined when n8n
 * kept none (Save successful production executions: Do not save).
 */
async function savedExecution(rest, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const { results } = await rest('GET', `/executions?filter=${filter}`);
	const latest = results.reduce(
		(newest, execution) =>
			!newest || Number(execution.id) > Number(newest.id) ? execution : newest,
		undefined,
	);
	if (!latest) return undefined;
	const found = await rest('GET', `/executions/${latest.id}`);
	return { ...found, data: flatted.parse(found.data) };
}

/**
 * What n8n's save of an ended execution does on its event loop, done here on the same data: the
 * time flatted's stringify takes (n8n's ExecutionRepository runs it in one go), and the size of
 * the text it makes.
 */
function flattedSave(data) {
	const startedAt = performance.now();
	const text = flatted.stringify(data);
	return { ms: performance.now() - startedAt, bytes: Buffer.byteLength(text) };
}

/**
 * From the call that started the run to its end, in ms (NaN: no end): the execution's stoppedAt,
 * or n8n's answer to a webhook call (after the save).
 */
const runDuration = (run) =>
	run.timedOut ? NaN : (run.endedAt ?? Date.parse(run.execution.stoppedAt)) - run.calledAt;

/** The items the nodes put out, over all their runs (output 0). */
function outputItems(execution, nodeNames) {
	const { runData } = execution.data.resultData;
	return nodeNames.flatMap((name) =>
		(runData[name] ?? []).flatMap((run) => run.data?.main?.[0] ?? []),
	);
}

module.exports = {
	TRIGGER,
	WEBHOOK_TRIGGER,
	POLL_EVERY_MS,
	SANDBOX_CREDENTIAL,
	activate,
	flattedSave,
	headerAuthCredential,
	manualTrigger,
	webhookTrigger,
	startN8n,
	runFromEditor,
	runFromWebhook,
	savedExecution,
	runDuration,
	outputItems,
};
