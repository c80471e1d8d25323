import type { IN8nHttpFullResponse, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ErrorContext } from './errorText';
import { aboutItem, asSentence } from './errorText';
import type { FailedRequest } from './failedAnswers';
import { NO_SUCH_ADDRESS, describeFailedResponse } from './failedAnswers';

export type { ErrorContext, FieldLabels } from './errorText';
export { asSentence, itemSuffix } from './errorText';
export type { FailedRequest } from './failedAnswers';
export { describeFailedResponse, isFailure } from './failedAnswers';

/**
 * A failed answer as the item's NodeApiError (see describeFailedResponse), its message ending with
 * the item as the node's checks end theirs, its HTTP status as the error code. The engine hands
 * such answers over instead of throwing (apiRequestOptions.ts).
 */
export function apiError(
	context: ErrorContext,
	response: IN8nHttpFullResponse,
	request: FailedRequest = {},
): NodeApiError {
	const { message, description, status, retryAfterSeconds, body } = describeFailedResponse(
		response,
		request,
	);
	const error = new NodeApiError(
		context.getNode(),
		(typeof body === 'object' && body !== null ? body : {}) as JsonObject,
		{
			message: aboutItem(context, message),
			description,
			httpCode: String(status),
			itemIndex: context.getItemIndex?.(),
		},
	);
	if (retryAfterSeconds !== undefined) error.context.retryAfterSeconds = retryAfterSeconds;
	if (message === NO_SUCH_ADDRESS) error.context.noSuchAddress = true;
	return error;
}

/** Whether `error` is the API's answer that the record asked for does not exist (see notFound). */
export function isMissingRecord(error: unknown): boolean {
	return error instanceof NodeApiError && error.httpCode === '404' && !error.context.noSuchAddress;
}

/**
 * Whether a write that failed with `error` may have been done all the same: its answer never came
 * (a dropped connection, a timeout), came cut off, or the server failed (5xx) after it may have
 * written.
 */
export function mayHaveBeenDone(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const httpCode = error.httpCode ?? undefined;
	return (
		httpCode === undefined ||
		httpCode === 'malformed' ||
		(/^\d{3}$/.test(httpCode) && Number(httpCode) >= 500)
	);
}

export function malformedResponseError(context: ErrorContext, expected: string): NodeApiError {
	return new NodeApiError(
		context.getNode(),
		{},
		{
			message: aboutItem(context, `The API returned an unreadable response: expected ${expected}`),
			description:
				'The answer was cut off or was not JSON. Try again; if it persists, the API may be failing.',
			httpCode: 'malformed',
			itemIndex: context.getItemIndex?.(),
		},
	);
}

const TRANSPORT_MESSAGES: Record<string, string> = {
	ECONNREFUSED: 'Could not connect to the Equipment Rental API: the connection was refused',
	ENOTFOUND: "Could not find the Equipment Rental API's host",
	ECONNRESET: 'The connection to the Equipment Rental API was dropped before it answered',
	EPIPE: 'The connection to the Equipment Rental API was dropped before it answered',
	ETIMEDOUT: 'The Equipment Rental API did not answer in time',
	ECONNABORTED: 'The Equipment Rental API did not answer in time',
};

type ErrorChain = {
	code?: unknown;
	httpCode?: unknown;
	message?: unknown;
	cause?: unknown;
	errorResponse?: unknown;
};

/** The transport failure's code (ECONNRESET, ...), looking through n8n's wrappers. */
export function transportErrorCode(error: unknown): string | undefined {
	let link = error as ErrorChain | undefined;
	for (let depth = 0; link && typeof link === 'object' && depth < 5; depth++) {
		const code = [link.code, link.httpCode].find(
			(value) => typeof value === 'string' && value in TRANSPORT_MESSAGES,
		);
		if (code) return code as string;
		if (/socket hang up/i.test(String(link.message))) return 'ECONNRESET';
		link = (link.cause ?? link.errorResponse) as ErrorChain | undefined;
	}
	return undefined;
}

/** What a failure to reach the API says (no answer, a dropped connection), or undefined. */
export function describeTransportFailure(
	error: unknown,
): { message: string; description: string } | undefined {
	const code = transportErrorCode(error);
	if (!code) return undefined;
	const timedOut = code === 'ETIMEDOUT' || code === 'ECONNABORTED';
	return {
		message: TRANSPORT_MESSAGES[code],
		description: timedOut
			? 'Raise the timeout under Request Options > Timeout, or try again later.'
			: 'Check the Base URL in the credential and that the API is reachable from n8n.',
	};
}

/**
 * Gives every failure of an item one clean shape, its message ending with the item. Transport
 * errors are rebuilt without their cause, because the HTTP client's error carries the request's
 * headers, and with them the access token.
 */
export function toItemError(
	context: ErrorContext,
	error: unknown,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeOperationError) return error;
	const transportFailure = describeTransportFailure(error);
	if (transportFailure) {
		return new NodeApiError(
			context.getNode(),
			{},
			{
				...transportFailure,
				message: aboutItem(context, transportFailure.message),
				// No httpCode: n8n would replace the message with its generic text for that code.
				itemIndex: context.getItemIndex?.(),
			},
		);
	}
	// Errors built from the API's answer carry no cause; any other may hold the request (see above).
	if (error instanceof NodeApiError && !error.cause) return error;
	return new NodeOperationError(
		context.getNode(),
		aboutItem(context, error instanceof Error ? error.message : String(error)),
		{
			itemIndex: context.getItemIndex?.(),
		},
	);
}

/**
 * What a failed item says, in sentences: the error's message, then its description (the API's
 * explanation and the field at fault, or what was expected, and how to fix it).
 */
export function failureSentences(error: NodeApiError | NodeOperationError): string {
	return [error.message, error.description]
		.filter((text): text is string => typeof text === 'string' && text.trim() !== '')
		.map(asSentence)
		.join(' ');
}
