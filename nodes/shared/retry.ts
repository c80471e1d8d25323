import { NodeApiError, sleep, sleepWithAbort } from 'n8n-workflow';

import { transportErrorCode } from './errors';

const MAX_RETRIES = 4;
const FIRST_BACKOFF_MS = 100;
const MAX_WAIT_MS = 30_000;
const RETRYABLE_HTTP_CODES = new Set(['429', '500', '502', '503', '504', 'malformed']);
const RETRYABLE_TRANSPORT_CODES = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Waits before a retry; cancelling the execution ends the wait. n8n-workflow has sleepWithAbort
 * from n8n 1.101 to 2.33; from n8n 2.34 on it is gone, and sleep itself takes the signal.
 */
export async function waitBeforeRetry(ms: number, signal?: AbortSignal): Promise<void> {
	if (typeof sleepWithAbort === 'function') return await sleepWithAbort(ms, signal);
	// sleep as n8n 2.34 declares it; this package builds against an older n8n-workflow.
	const abortableSleep = sleep as (ms: number, signal?: AbortSignal) => Promise<void>;
	await abortableSleep(ms, signal);
}

/**
 * How long to wait before the `retry`th retry of a read, or undefined when the failure is not worth
 * a retry or the retries are spent.
 */
export function retryDelayMs(error: unknown, retry: number): number | undefined {
	if (retry >= MAX_RETRIES) return undefined;
	const httpCode = error instanceof NodeApiError ? (error.httpCode ?? undefined) : undefined;
	const retryable =
		(httpCode !== undefined && RETRYABLE_HTTP_CODES.has(httpCode)) ||
		RETRYABLE_TRANSPORT_CODES.has(transportErrorCode(error) ?? '');
	if (!retryable) return undefined;
	const retryAfterSeconds = (error as NodeApiError).context?.retryAfterSeconds;
	const backoff = FIRST_BACKOFF_MS * 2 ** retry * (1 + Math.random() / 2);
	const delay = typeof retryAfterSeconds === 'number' ? retryAfterSeconds * 1000 : backoff;
	return delay <= MAX_WAIT_MS ? delay : undefined;
}
