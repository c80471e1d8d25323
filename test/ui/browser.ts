/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-dangerous-functions,
	@n8n/community-nodes/require-node-api-error
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * Chromium from Debian's packages, driven with playwright-core (which never downloads a browser),
 * started in its own process group so that it can be stopped by its PID whatever happens; and the
 * steps of the editor test: each saves a screenshot, also when it fails.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { type Browser, chromium, type Page } from 'playwright-core';

// The runtime is plain JavaScript (no build step).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DEFAULT_VERSION, n8nVersion } = require('../../scripts/runtime/versions');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { guardProcessGroup } = require('../../scripts/runtime/guard');

/** Where the global setup installs Debian's chromium when it is missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** One folder per n8n version, so that a run on one version keeps the other's pictures. */
export const SCREENSHOTS_DIR = path.join(__dirname, 'screenshots', `n8n-${n8nVersion()}`);
/** The README's pictures; rewritten only with UPDATE_SCREENSHOTS=1, from the default n8n version. */
export const DOCS_DIR = path.join(__dirname, '..', '..', 'docs');
export const UPDATE_DOCS =
	process.env.UPDATE_SCREENSHOTS === '1' && n8nVersion() === DEFAULT_VERSION;
/** Modest, so that the README's crops stay small. */
export const VIEWPORT = { width: 1280, height: 760 };
const DEVTOOLS_TIMEOUT_MS = 60_000;

export interface RunningBrowser {
	browser: Browser;
	page: Page;
	/** Console errors and uncaught exceptions of the page since the last call (then cleared). */
	takeConsoleErrors(): string[];
	stop(): Promise<void>;
}

/** Whether a URL points off this machine (the route below refuses those). */
function isExternal(url: string | URL): boolean {
	try {
		const { protocol, hostname } = new URL(url);
		return /^https?:$/.test(protocol) && !['localhost', '127.0.0.1'].includes(hostname);
	} catch {
		return false;
	}
}

/** Signals a whole process group (its leader and every child); one already gone is fine. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
	if (!pid) return;
	try {
		process.kill(-pid, signal);
	} catch {
		// Already gone.
	}
}

/**
 * Starts Chromium headless with a fresh profile and connects over the DevTools protocol. Chromium
 * prints the address to connect to on stderr.
 */
export async function launchChromium(): Promise<RunningBrowser> {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-ui-chromium-'));
	const child: ChildProcess = spawn(
		CHROMIUM,
		[
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--remote-debugging-port=0',
			`--user-data-dir=${profile}`,
			`--window-size=${VIEWPORT.width},${VIEWPORT.height}`,
			'about:blank',
		],
		{ stdio: ['ignore', 'ignore', 'pipe'], detached: true },
	);
	// Also when the test process ends otherwise: a detached group would outlive it. The guard stops it
	// when this process is killed (no 'exit' handler runs then), the handler when it exits.
	guardProcessGroup(child.pid!);
	const killOnExit = () => killGroup(child.pid, 'SIGKILL');
	process.once('exit', killOnExit);
	const stopProcess = async () => {
		killGroup(child.pid, 'SIGTERM');
		const deadline = Date.now() + 5000;
		while (child.exitCode === null && child.signalCode === null && Date.now() < deadline)
			await new Promise((resolve) => setTimeout(resolve, 100));
		killGroup(child.pid, 'SIGKILL');
		process.removeListener('exit', killOnExit);
		fs.rmSync(profile, { recursive: true, force: true });
	};
	let stderr = '';
	try {
		const endpoint = await new Promise<string>((resolve, reject) => {
			const timer = setTimeout(
				() => reject(new Error(`Chromium printed no DevTools address:\n${stderr}`)),
				DEVTOOLS_TIMEOUT_MS,
			);
			child.on('error', reject);
			child.on('exit', (code) => reject(new Error(`Chromium exited (${code}):\n${stderr}`)));
			// Read to the end, so that Chromium never blocks on a full pipe.
			child.stderr!.on('data', (chunk) => {
				stderr = (stderr + chunk).slice(-8000);
				const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
				if (match) {
					clearTimeout(timer);
					resolve(match[1]);
				}
			});
		});
		const browser = await chromium.connectOverCDP(endpoint);
		const context = await browser.newContext({ viewport: VIEWPORT });
		// Nothing leaves the machine: links to other sites (the Docs link) are recorded, not loaded.
		await context.route(isExternal, (route) => route.abort());
		const page = await context.newPage();
		let consoleErrors: string[] = [];
		page.on('console', (message) => {
			if (message.type() !== 'error') return;
			// What the route above refuses (this machine is offline) is not the page's fault.
			const from = message.location().url;
			if (/^Failed to load resource/.test(message.text()) && isExternal(from)) return;
			consoleErrors.push(`${message.text()} (${from})`);
		});
		page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
		return {
			browser,
			page,
			takeConsoleErrors() {
				const taken = consoleErrors;
				consoleErrors = [];
				return taken;
			},
			async stop() {
				await browser.close().catch(() => {});
				await stopProcess();
			},
		};
	} catch (error) {
		await stopProcess();
		throw error;
	}
}

/**
 * A test that saves a screenshot of the page when it ends: `NN-name.png`, or
 * `NN-name.FAILED.png` when it failed, so that a failure can be seen.
 */
export function makeStep(getPage: () => Page | undefined) {
	let count = 0;
	fs.rmSync(SCREENSHOTS_DIR, { recursive: true, force: true });
	fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
	return function step(name: string, body: () => Promise<void>, timeoutMs = 240_000): void {
		const file = `${String(++count).padStart(2, '0')}-${name.replace(/[^a-z0-9]+/gi, '-')}`;
		test(
			name,
			async () => {
				try {
					await body();
				} catch (error) {
					await getPage()
						?.screenshot({ path: path.join(SCREENSHOTS_DIR, `${file}.FAILED.png`) })
						.catch(() => {});
					throw error;
				}
				await getPage()?.screenshot({ path: path.join(SCREENSHOTS_DIR, `${file}.png`) });
			},
			timeoutMs,
		);
	};
}

/**
 * Saves a crop of one element for the README (docs/NAME.png) when UPDATE_SCREENSHOTS=1, and always
 * into the screenshots folder.
 */
export async function saveReadmePicture(
	locator: { screenshot(options: { path: string }): Promise<Buffer> },
	name: string,
): Promise<void> {
	const shot = await locator.screenshot({ path: path.join(SCREENSHOTS_DIR, `readme-${name}.png`) });
	if (UPDATE_DOCS) {
		fs.mkdirSync(DOCS_DIR, { recursive: true });
		fs.writeFileSync(path.join(DOCS_DIR, `${name}.png`), shot);
	}
}
