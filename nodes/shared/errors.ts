import type {
	IDataObject,
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INode,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { ApiProblem } from './apiErrorBody';
import { readErrorBody, saysItFailed } from './apiErrorBody';

/**
 * What the error helpers need of a node's context: the node, and the item when there is one (a
 * trigger has none).
 */
export interface ErrorContext {
	getNode(): INode;
	getItemIndex?(): number;
}

/** The " [item N]" that ends a message about one item's failure; empty where there are no items. */
export function itemSuffix(context: ErrorContext): string {
	const itemIndex = context.getItemIndex?.();
	return itemIndex === undefined ? '' : ` [item ${itemIndex}]`;
}

/** `message` ending with the item it is about (see itemSuffix), once. */
function aboutItem(context: ErrorContext, message: string): string {
	const suffix = itemSuffix(context);
	return message.endsWith(suffix) ? message : `${message}${suffix}`;
}

/**
 * The form's label of each field an operation sends, by the name the API knows it under (a path
 * parameter, query parameter or body field): the API names the field at fault by that name.
 */
export type FieldLabels = Readonly<Record<string, { displayName: string }>>;

/** `text` ending with a full stop, unless it already ends a sentence. */
export function asSentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

const CREDENTIAL_HINT =
	"Check the Access Token and Base URL in the node's Equipment Rental API credential.";

function firstOf(header: unknown): string | undefined {
	const value = Array.isArray(header) ? header[0] : header;
	return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : undefined;
}

/**
 * How many seconds an answer's Retry-After asks to wait: given in seconds, or as an HTTP date,
 * counted from the answer's own Date (the API's clock may differ from n8n's), else from now.
 */
function retryAfterSecondsOf(headers: IDataObject): number | undefined {
	const retryAfter = firstOf(headers['retry-after']);
	if (retryAfter === undefined || retryAfter === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(retryAfter)) return Number(retryAfter);
	const until = Date.parse(retryAfter);
	if (Number.isNaN(until)) return undefined;
	const answeredAt = Date.parse(firstOf(headers.date) ?? '');
	return Math.max(0, (until - (Number.isNaN(answeredAt) ? Date.now() : answeredAt)) / 1000);
}

/** What the node knows of a failed request beyond its answer. */
export interface FailedRequest {
	/** The access token, kept out of the error should the API quote it. */
	accessToken?: string;
	/** The credential's Base URL, checked for a part that belongs to the API's paths. */
	baseUrl?: string;
	/** Whether the request's path holds IDs the user gave: only then can a 404 be an ID's fault. */
	pathHasIds?: boolean;
	fieldLabels?: FieldLabels;
}

// A 404 a router or web server gives for an address it does not serve (NestJS/Express "Cannot GET
// /x", the sandbox's "No operation GET /x", Apache's "The requested URL was not found"), rather
// than one an operation gives for a record it lacks.
const NO_SUCH_ADDRESS_PATTERN =
	/\b(cannot|can't) (get|post|put|patch|delete)\b|\bno (operation|route|handler)\b|\brequested url\b|\b(route|endpoint|page) not found\b/i;
const NO_SUCH_ADDRESS = 'Not found (HTTP 404): the API has no such address';
// What a gateway's own error page says (nginx, Cloudflare, ...): its status, and maybe its name.
const BARE_STATUS_PAGE_TEXT = /^(404\.?\s*)?not found[.!]?(\s+[\w./-]+\.?)?$/i;
// The API's paths start with these; a Base URL ending in one makes every path double it.
const API_PATH_PART_PATTERN = /\/(master-data|analytics)(\/v\d+)?\/?$/i;

function baseUrlHint(baseUrl: string | undefined): string {
	const part = baseUrl ? API_PATH_PART_PATTERN.exec(baseUrl)?.[0].replace(/\/$/, '') : undefined;
	return `Check the Base URL in the node's Equipment Rental API credential: it is the address of the Integration API without /master-data or /analytics, e.g. https://integration-api.ram.syniotec.com${part ? `; it ends in ${part}, which belongs to the API's paths` : ''}.`;
}

/**
 * A gateway's or proxy's page for an address nothing behind it serves: a web page that says no
 * more than its status. (An API that answers errors as web pages explains a missing record there.)
 */
function isGatewayPage(body: unknown, explanation: string | undefined): boolean {
	return (
		typeof body === 'string' &&
		/^\s*<(!doctype html|html|head|body|title)\b/i.test(body) &&
		(explanation === undefined || BARE_STATUS_PAGE_TEXT.test(explanation))
	);
}

/**
 * A 404 is told by what the API answered: a router's or gateway's answer (or a Base URL that
 * doubles the API's paths) means the address is wrong; a message about a record means the record
 * is missing, and names the field it belongs to where the API does. Without any explanation, a
 * request that names records in its path can be either.
 */
function notFound(
	request: FailedRequest,
	explanation: string | undefined,
	body: unknown,
	fieldsAtFault: string[],
) {
	const noSuchAddress = {
		message: NO_SUCH_ADDRESS,
		hint: baseUrlHint(request.baseUrl),
	};
	if (
		(request.baseUrl && API_PATH_PART_PATTERN.test(request.baseUrl)) ||
		(explanation && NO_SUCH_ADDRESS_PATTERN.test(explanation)) ||
		isGatewayPage(body, explanation)
	)
		return noSuchAddress;
	const message = 'Not found (HTTP 404): no record has the ID you gave';
	if (explanation) {
		return {
			message,
			hint:
				fieldsAtFault.length > 0
					? `Check ${fieldsAtFault.join(' and ')} in the node.`
					: 'Check the IDs in the node.',
		};
	}
	if (!request.pathHasIds) return noSuchAddress;
	return {
		message,
		hint: `Check the IDs in the node. If they are right, ${baseUrlHint(request.baseUrl).replace(/^C/, 'c')}`,
	};
}

function messageForStatus(
	status: number,
	headers: IDataObject,
	request: FailedRequest,
	answer: { explanation?: string; body: unknown; fieldsAtFault: string[] },
	retryAfterSeconds?: number,
): { message: string; hint?: string } {
	if (status < 400) {
		const location = typeof headers.location === 'string' ? headers.location : undefined;
		return {
			message: `The API answered with a redirect (HTTP ${status}) instead of data`,
			hint: `${location ? `It points to ${location}. ` : ''}Set the Base URL in the node's Equipment Rental API credential to the address the API now answers at (for example https:// rather than http://). Redirects are not followed, so that the access token is only ever sent to the Base URL.`,
		};
	}
	if (status === 401)
		return {
			message: 'Authorization failed (HTTP 401): the API did not accept the access token',
			hint: CREDENTIAL_HINT,
		};
	if (status === 403)
		return {
			message: 'Access forbidden (HTTP 403): the access token may not do this',
			hint: CREDENTIAL_HINT,
		};
	if (status === 404)
		return notFound(request, answer.explanation, answer.body, answer.fieldsAtFault);
	if (status === 429) {
		const wait =
			retryAfterSeconds === undefined
				? 'a little while'
				: `${Math.ceil(retryAfterSeconds)} second${Math.ceil(retryAfterSeconds) === 1 ? '' : 's'}`;
		return {
			message: `The API's rate limit was reached (HTTP 429); retry after ${wait}`,
			hint: "Lower 'Parallel Requests' under Request Options.",
		};
	}
	if (status >= 500) {
		return {
			message: `The Equipment Rental API failed to process the request (HTTP ${status})`,
			hint: "Try again later, or turn on 'Retry On Fail' in the node's settings.",
		};
	}
	return { message: `The API rejected the request (HTTP ${status})` };
}

/**
 * Whether an answer is an error or a redirect, which the node refuses rather than follows (see
 * apiError).
 */
function isFailedResponse(response: IN8nHttpFullResponse): boolean {
	return response.statusCode >= 300;
}

/**
 * Whether an answer is a failure: an error or redirect status, or a success status whose body says
 * the request failed (apiErrorBody.ts, saysItFailed), which must never be output as a success.
 */
export function isFailure(response: IN8nHttpFullResponse): boolean {
	return isFailedResponse(response) || saysItFailed(response.body);
}

const REDACTED = '[redacted]';

/**
 * `value` with `secret` replaced in all its strings: an API may quote the token it refused in its
 * error.
 */
function withoutSecret(value: unknown, secret: string | undefined): unknown {
	if (!secret) return value;
	if (typeof value === 'string') return value.split(secret).join(REDACTED);
	if (Array.isArray(value)) return value.map((entry) => withoutSecret(entry, secret));
	if (typeof value !== 'object' || value === null) return value;
	return Object.fromEntries(
		Object.entries(value).map(([key, entry]) => [key, withoutSecret(entry, secret)]),
	);
}

/**
 * The API's name of a field the form has, matched without regard to case; a message that names no
 * field but starts with one the request sent (NestJS: "amount must be a number", "property
 * calculationType should not exist") names that one.
 */
function formFieldOf(problem: ApiProblem, fieldLabels: FieldLabels): string | undefined {
	const names = Object.keys(fieldLabels);
	const known = (name: string | undefined) =>
		name === undefined
			? undefined
			: names.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
	if (problem.field !== undefined) return known(problem.field) ?? problem.field;
	return known(/^(?:property\s+)?([A-Za-z_][\w-]*)\b/.exec(problem.text)?.[1]);
}

function namesField(text: string, field: string): boolean {
	return new RegExp(`(^|[^\\w])${field.replace(/[^\w]/g, '\\$&')}($|[^\\w])`, 'i').test(text);
}

/** The sentences of the API's explanation, and the fields at fault by the form's labels. */
function explanation(
	body: unknown,
	fieldLabels: FieldLabels,
): { text?: string; fieldsAtFault: string[] } {
	const problems = readErrorBody(body).map((problem) => ({
		...problem,
		field: formFieldOf(problem, fieldLabels),
	}));
	const label = (field: string) =>
		Object.hasOwn(fieldLabels, field)
			? `'${fieldLabels[field].displayName}'`
			: `the API's '${field}'`;
	// A fragment ("must be >= 1", as maps of errors per field give them) reads after its field's name.
	const sentences = problems.map(({ text, field }) =>
		asSentence(
			field === undefined || namesField(text, field) || !/^[a-z]/.test(text)
				? text
				: `${label(field)} ${text}`,
		),
	);
	const fields = [...new Set(problems.flatMap(({ field }) => (field ? [field] : [])))];
	return { text: sentences.join(' ') || undefined, fieldsAtFault: fields.map(label) };
}

function fieldsAtFaultSentence(fields: string[]): string | undefined {
	if (fields.length === 0) return undefined;
	if (fields.length === 1) return `The field at fault is ${fields[0]}.`;
	return `The fields at fault are ${fields.slice(0, -1).join(', ')} and ${fields[fields.length - 1]}.`;
}

/**
 * What a failed answer (an HTTP error, a redirect, or a success status whose body says it failed)
 * says, for the user: a message naming the HTTP status (n8n does not show the error code
 * everywhere), and a description with the API's own explanation in any of the common error
 * dialects (apiErrorBody.ts), the fields at fault by the form's labels where the request's
 * `fieldLabels` know them, and how to fix it; never the access token, should the API quote it.
 */
export function describeFailedResponse(
	response: IN8nHttpFullResponse,
	request: FailedRequest = {},
) {
	const { accessToken, fieldLabels = {} } = request;
	const status = response.statusCode;
	const headers = withoutSecret(response.headers ?? {}, accessToken) as IDataObject;
	const retryAfterSeconds = retryAfterSecondsOf(headers);
	const body = withoutSecret(response.body, accessToken);
	const { text, fieldsAtFault } = explanation(body, fieldLabels);
	const { message, hint } = isFailedResponse(response)
		? messageForStatus(
				status,
				headers,
				request,
				{ explanation: text, body, fieldsAtFault },
				retryAfterSeconds,
			)
		: {
				message: `The API answered HTTP ${status} but said the request failed`,
				hint: 'Nothing was output as a success: check in the rental system whether the change was made.',
			};
	const description = [text && `The API said: ${text}`, fieldsAtFaultSentence(fieldsAtFault), hint]
		.filter(Boolean)
		.join(' ');
	return { message, description: description || undefined, status, retryAfterSeconds, body };
}

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

/**
 * The postReceive of every operation: fails the item on an HTTP error status or an answer that says
 * it failed (see apiError), or on an answer that is not JSON. Where the spec does not
 * show a success body (create quote, attach, update release), an empty answer becomes
 * `{ "success": true }` so that the item still says what happened.
 */
export function checkApiResponse(request: Pick<FailedRequest, 'fieldLabels' | 'pathHasIds'>) {
	return async function (
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		if (isFailure(response)) {
			const { accessToken, baseUrl } = await this.getCredentials<{
				accessToken?: string;
				baseUrl?: string;
			}>('equipmentRentalApi');
			throw apiError(this, response, { ...request, accessToken, baseUrl });
		}
		if (response.body === undefined || response.body === null || response.body === '')
			return [{ json: { success: true } }];
		if (typeof response.body !== 'object')
			throw malformedResponseError(this, 'a JSON object or array');
		return items;
	};
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
