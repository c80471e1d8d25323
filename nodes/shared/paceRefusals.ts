import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { ErrorContext } from './errors';
import { asSentence, itemSuffix } from './errors';
import { maxRateLimitWaitField, parallelRequestsField } from './requestOptionFields';

/**
 * A run that gave up on an API that kept refusing its requests: for how long it was refused, since
 * when and until when the API asked it to wait (as the system clock's dates, for a user to read),
 * and the API's last refusal. Every item left gets the same.
 */
export interface GaveUp {
	refusedForMs: number;
	since: Date;
	until: Date;
	error: NodeApiError;
}

/** The give-up at `now`, from the pace's moments (its monotonic clock's). */
export function gaveUpAt(now: number, since: number, until: number, error: NodeApiError): GaveUp {
	const asDate = (moment: number) => new Date(Date.now() - (now - moment));
	return { refusedForMs: now - since, since: asDate(since), until: asDate(until), error };
}

/**
 * A refusal of the API: a 429, or a 503 with Retry-After. The API did nothing with the request and
 * asks the client to slow down (a 503 without Retry-After is a failure like any 5xx, after which a
 * write may have been done). Undefined for any other failure; otherwise how long the API asked to
 * wait, if it said.
 */
export function refusalOf(error: unknown): { waitMs?: number } | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const retryAfterSeconds = error.context?.retryAfterSeconds;
	const waitMs = typeof retryAfterSeconds === 'number' ? retryAfterSeconds * 1000 : undefined;
	if (error.httpCode === '429' || (error.httpCode === '503' && waitMs !== undefined))
		return { waitMs };
	return undefined;
}

function describeDuration(ms: number): string {
	const seconds = Math.round(ms / 1000);
	if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
	return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * The error of every item a run gave up on (requestPace.ts): how long the API kept refusing, that
 * nothing more was sent for the item, and what to change.
 */
export function givenUpError(
	context: ErrorContext,
	{ refusedForMs: refusedFor, since, until, error }: GaveUp,
	maxRateLimitWaitMs: number,
): NodeApiError {
	const refused = `refus${refusedFor < 1000 ? 'ed' : 'ing'} requests as rate-limited (HTTP ${error.httpCode})`;
	return new NodeApiError(context.getNode(), (error.errorResponse ?? {}) as IDataObject as never, {
		message:
			refusedFor < 1000
				? `The API ${refused}${itemSuffix(context)}`
				: `The API kept ${refused} for ${describeDuration(refusedFor)}${itemSuffix(context)}`,
		description: [
			`It refused every request from ${since.toISOString()} on, and asked to wait until ${until.toISOString()}: past '${maxRateLimitWaitField.displayName}' (${describeDuration(maxRateLimitWaitMs)}).`,
			'Nothing more was sent for this item, and nothing was written for it.',
			`Run it again later, lower '${parallelRequestsField.displayName}' under Request Options, or raise '${maxRateLimitWaitField.displayName}' there.`,
			error.message &&
				`The API's last answer: ${asSentence(error.message.replace(/ \[item \d+\]$/, ''))}`,
		]
			.filter(Boolean)
			.join(' '),
		httpCode: error.httpCode ?? undefined,
		itemIndex: context.getItemIndex?.(),
	});
}
