import type { IDataObject, IN8nHttpFullResponse } from 'n8n-workflow';

import type { ApiProblem } from './apiErrorBody';
import { readErrorBody, saysItFailed } from './apiErrorBody';
import type { FieldLabels } from './errorText';
import { asSentence } from './errorText';

/*
 * What a failed answer of the API says, for the user: its HTTP status as a message, the API's own
 * explanation in any of the common error dialects, the fields at fault by their labels, and how to
 * fix it; never the access token.
 */

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
export const NO_SUCH_ADDRESS = 'Not found (HTTP 404): the API has no such address';
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
