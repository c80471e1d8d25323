/* eslint-disable
	@n8n/community-nodes/no-restricted-imports
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * Evidence about the order of a run's requests that holds however slowly a busy machine runs: the
 * sandbox holds requests until what the test waits for has arrived, and the client's own events say
 * what it knew when it sent each request.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Sandbox, SandboxRequest } from './sandbox';

/**
 * How long a held request waits at most for the condition: far longer than any machine takes to
 * send a run's next requests, and shorter than a test's time limit.
 */
const HOLD_AT_MOST_MS = 15_000;

/**
 * Holds each request the sandbox accepts (after its latency, before it is answered) until
 * `released(request)` is true, e.g. once a number of requests are in flight at once or one was
 * refused: whether a run gets there then depends on the requests it sends, not on how fast the
 * machine prepares them. A request the run must have answered before it can send more (a read every
 * item waits for) is one `released` lets go at once. Returns the hook's remover, which throws if a
 * request was let go unreleased, after HOLD_AT_MOST_MS: the run never met the condition while its
 * requests were held (a defect, or a request held that the run waits for).
 */
export function holdRequestsUntil(
	sandbox: Pick<Sandbox, 'onRequest'>,
	released: (request: SandboxRequest) => boolean,
): () => void {
	const givingUpAt = Date.now() + HOLD_AT_MOST_MS;
	let gaveUp = false;
	const removeHook = sandbox.onRequest(async (request) => {
		while (!released(request)) {
			if (Date.now() >= givingUpAt) {
				gaveUp = true;
				return;
			}
			await sleep(5);
		}
	});
	return () => {
		removeHook();
		if (gaveUp)
			throw new Error(
				`Requests were held ${HOLD_AT_MOST_MS} ms without the condition to let them go being met`,
			);
	};
}

/** What the HTTP client of this process did: started a request, or read an answer to its end. */
export interface ClientEvent {
	kind: 'sent' | 'read';
	method: string;
	path: string;
	/** The answer's status (`read` only). */
	status?: number;
	/** Date.now() when it happened. */
	at: number;
}

/**
 * Records, in order, each request the process's HTTP client (n8n's, through Node's http module)
 * starts and each answer it has read to its end, from Node's diagnostics channels. The sandbox sees a
 * request when it arrives, which on a busy machine can be well after the client sent it; these
 * events say what the client had read before it sent each one. `onRead` is told of each answer read,
 * before the client acts on it. `stop()` ends the recording.
 */
export function recordClientRequests(onRead?: (read: ClientEvent) => void): {
	events: ClientEvent[];
	stop: () => void;
} {
	const events: ClientEvent[] = [];
	const started = (message: unknown) => {
		const { request } = message as { request: ClientRequest };
		events.push({ kind: 'sent', method: request.method, path: request.path, at: Date.now() });
	};
	// Published when the answer's headers arrive; its end comes later, once the client read it all.
	const answered = (message: unknown) => {
		const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
		response.once('end', () => {
			const read: ClientEvent = {
				kind: 'read',
				method: request.method,
				path: request.path,
				status: response.statusCode,
				at: Date.now(),
			};
			events.push(read);
			onRead?.(read);
		});
	};
	subscribe('http.client.request.start', started);
	subscribe('http.client.response.finish', answered);
	return {
		events,
		stop() {
			unsubscribe('http.client.request.start', started);
			unsubscribe('http.client.response.finish', answered);
		},
	};
}
