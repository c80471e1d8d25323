'use strict';

/**
 * The shapes in which servers of this kind answer an error. Neither the API description (part 7,
 * "GeneralError", shape not shown) nor the vendor's reference (GeneralErrorResponse, never shown)
 * shows the Integration API's, so the sandbox can answer in each common one (the `errorDialect`
 * option) and the node is tested against all of them.
 */

const { STATUS_CODES } = require('node:http');
const { generalError } = require('./general-error');

/**
 * @typedef {object} ErrorToRender
 * @property {number} statusCode
 * @property {string} message every problem in one sentence
 * @property {string} [field] the one field at fault, when exactly one is
 * @property {import('./contract').Problem[]} problems
 * @property {string} path the request's path
 *
 * @typedef {{ type: string, body: unknown }} RenderedError the Content-Type and body of the answer
 */

const JSON_TYPE = 'application/json; charset=utf-8';

/** @param {number} statusCode */
function reason(statusCode) {
	return STATUS_CODES[statusCode] ?? 'Error';
}

/** A problem's field in the words of the dialects that name it inside the text (NestJS). */
function fieldFirst(problem) {
	return problem.detail && problem.field ? `${problem.field} ${problem.detail}` : problem.message;
}

function fieldProblems(error) {
	return error.problems.filter((problem) => problem.field !== undefined);
}

/** @param {string} text */
function escapeHtml(text) {
	return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** @type {Record<string, (error: ErrorToRender) => RenderedError>} */
const DIALECTS = {
	/** The default: `{ statusCode, error, message, field }` (openapi.yaml, GeneralError). */
	message: (error) => ({
		type: JSON_TYPE,
		body: generalError(error.statusCode, error.message, error.field),
	}),

	/** NestJS's ValidationPipe: `message` is the list of messages, each starting with its field. */
	'message-list': (error) => ({
		type: JSON_TYPE,
		body: {
			statusCode: error.statusCode,
			error: reason(error.statusCode),
			message: error.problems.length > 0 ? error.problems.map(fieldFirst) : [error.message],
		},
	}),

	/** RFC 9457 problem details, no field named. */
	problem: (error) => ({
		type: 'application/problem+json',
		body: {
			type: 'about:blank',
			title: reason(error.statusCode),
			status: error.statusCode,
			detail: error.message,
			instance: error.path,
		},
	}),

	/** RFC 9457 problem details with a map of messages per field (ASP.NET's ValidationProblemDetails). */
	'problem-errors': (error) => {
		const errors = {};
		for (const problem of fieldProblems(error)) {
			errors[problem.field] = [...(errors[problem.field] ?? []), problem.detail ?? problem.message];
		}
		return {
			type: 'application/problem+json',
			body: {
				type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
				title: 'One or more validation errors occurred.',
				status: error.statusCode,
				...(Object.keys(errors).length > 0 ? { errors } : { detail: error.message }),
			},
		};
	},

	/** JSON:API: a list of error objects, each pointing at its source. */
	jsonapi: (error) => ({
		type: 'application/vnd.api+json',
		body: {
			errors: (error.problems.length > 0 ? error.problems : [{ message: error.message }]).map(
				(problem) => ({
					status: String(error.statusCode),
					title: reason(error.statusCode),
					detail: problem.message,
					...(problem.field === undefined
						? {}
						: {
								source:
									problem.location === 'body'
										? { pointer: `/data/attributes${problem.pointer ?? `/${problem.field}`}` }
										: { parameter: problem.field },
							}),
				}),
			),
		},
	}),

	/** One error object nested under `error`, with a list of details (Google's and many gateways'). */
	nested: (error) => ({
		type: JSON_TYPE,
		body: {
			error: {
				code: reason(error.statusCode).toUpperCase().replace(/\W+/g, '_'),
				message: error.message,
				details: fieldProblems(error).map((problem) => ({
					field: problem.field,
					message: problem.detail ?? problem.message,
				})),
			},
		},
	}),

	/** FastAPI: `detail` is a list of field details with their location, or a sentence. */
	'field-list': (error) => {
		const details = fieldProblems(error);
		return {
			type: JSON_TYPE,
			body: {
				detail:
					details.length > 0
						? details.map((problem) => ({
								type: 'value_error',
								loc: [
									problem.location ?? 'body',
									...(problem.pointer ?? `/${problem.field}`)
										.split('/')
										.slice(1)
										.map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
								],
								msg: problem.detail ?? problem.message,
							}))
						: error.message,
			},
		};
	},

	/** Symfony / API Platform: a list of violations by property path. */
	violations: (error) => ({
		type: 'application/problem+json',
		body: {
			title: 'An error occurred',
			detail: error.message,
			status: error.statusCode,
			violations: fieldProblems(error).map((problem) => ({
				propertyPath: (problem.pointer ?? `/${problem.field}`)
					.slice(1)
					.replace(/\/(\d+)(?=\/|$)/g, '[$1]')
					.replace(/\//g, '.'),
				message: problem.detail ?? problem.message,
			})),
		},
	}),

	/** A sentence in plain text. */
	text: (error) => ({ type: 'text/plain; charset=utf-8', body: error.message }),

	/** A gateway's or web server's error page, styled and scripted as such pages are. */
	html: (error) => {
		const title = `${error.statusCode} ${reason(error.statusCode)}`;
		return {
			type: 'text/html; charset=utf-8',
			body: `<!DOCTYPE html>
<html>
<head><title>${title}</title>
<style>body { font-family: sans-serif; } h1 { color: #c00; }</style>
<script>window.dataLayer = window.dataLayer || [];</script>
</head>
<body>
<center><h1>${title}</h1></center>
<p>${escapeHtml(error.message)}</p>
<hr><center>nginx/1.25.3</center>
</body>
</html>
`,
		};
	},
};

const ERROR_DIALECTS = Object.freeze(Object.keys(DIALECTS));

/**
 * The answer to an error in `dialect`.
 * @param {string} dialect one of ERROR_DIALECTS
 * @param {ErrorToRender} error
 * @returns {RenderedError}
 */
function renderError(dialect, error) {
	return DIALECTS[dialect](error);
}

module.exports = { ERROR_DIALECTS, renderError };
