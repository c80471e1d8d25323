/* eslint-disable
	@n8n/community-nodes/no-restricted-imports
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingServer {
	url: string;
	/** Every request received, with its URL and headers exactly as they arrived. */
	seen: IncomingMessage[];
	server: Server;
}

/**
 * Answers every request with an empty page and records what it was asked; for URLs the sandbox
 * cannot serve.
 */
export async function recordingServer(): Promise<RecordingServer> {
	const seen: IncomingMessage[] = [];
	const server = createServer((request, response) => {
		seen.push(request);
		response.setHeader('Content-Type', 'application/json');
		response.end(JSON.stringify({ content: [], total: 0 }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

/**
 * A recording server for the calling suite, started before its tests, emptied before each and
 * closed after all.
 */
export function useRecordingServer(): RecordingServer {
	const recorder = {} as RecordingServer;
	beforeAll(async () => Object.assign(recorder, await recordingServer()));
	beforeEach(() => (recorder.seen.length = 0));
	afterAll(() => {
		recorder.server.closeAllConnections();
		recorder.server.close();
	});
	return recorder;
}

export interface RedirectingServer {
	url: string;
	/** "METHOD /path" of every request it redirected. */
	redirected: string[];
	/** Where it redirects to: a recording server, which must see nothing. */
	target: RecordingServer;
}

/**
 * Answers every request with a 301 to the same path on a recording server; for the calling suite,
 * as above.
 */
export function useRedirectingServer(): RedirectingServer {
	const target = useRecordingServer();
	const redirecting = { url: '', redirected: [] as string[], target };
	const server = createServer((request, response) => {
		redirecting.redirected.push(`${request.method} ${request.url}`);
		response.writeHead(301, { Location: `${target.url}${request.url}` }).end();
	});
	beforeAll(async () => {
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		redirecting.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	});
	beforeEach(() => (redirecting.redirected.length = 0));
	afterAll(() => {
		server.closeAllConnections();
		server.close();
	});
	return redirecting;
}

/** A server that answers every request with `status` and `body` (as HTML when it starts with "<"). */
export async function answeringServer(
	status: number,
	body: string,
): Promise<{ url: string; close(): void }> {
	const server = createServer((_request, response) => {
		response.writeHead(status, {
			'content-type': body.startsWith('<') ? 'text/html' : 'application/json',
		});
		response.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close() {
			server.closeAllConnections();
			server.close();
		},
	};
}
