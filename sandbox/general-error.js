'use strict';

const { STATUS_CODES } = require('node:http');

/**
 * Body of a failing answer in the sandbox's default dialect ('message', see error-dialects.js).
 * Part 7 of the specification names the GeneralError schema without showing it, and the vendor's
 * reference never shows it either; the sandbox assumes the shape documented in openapi.yaml.
 * @param {number} statusCode
 * @param {string} message
 * @param {string} [field] the one request field at fault, when exactly one is
 */
function generalError(statusCode, message, field) {
	return {
		statusCode,
		error: STATUS_CODES[statusCode] ?? 'Error',
		message,
		...(field === undefined ? {} : { field }),
	};
}

/** A failure an operation handler reports; the server answers it in its error dialect. */
class HttpError extends Error {
	/**
	 * @param {number} statusCode
	 * @param {string} message
	 * @param {string} [field] the one request field at fault, when exactly one is
	 * @param {import('./contract').Problem[]} [problems] each thing wrong, when a check found several
	 */
	constructor(statusCode, message, field, problems) {
		super(message);
		this.statusCode = statusCode;
		this.field = field;
		this.problems = problems ?? [{ message, field, location: 'body' }];
	}
}

/**
 * An HttpError about a path parameter (a record the path names and the store lacks).
 * @param {number} statusCode
 * @param {string} message
 * @param {string} name the path parameter
 */
function pathError(statusCode, message, name) {
	return new HttpError(statusCode, message, name, [{ message, field: name, location: 'path' }]);
}

/**
 * The request check (contract.js) when it passed; otherwise the HttpError to answer with: 404 when
 * no operation has the path and method, 400 with the problems (naming the field when one is at
 * fault).
 * @param {import('./contract').RequestCheck} check
 */
function passedCheck(check) {
	if (!check.operationId) throw new HttpError(404, check.errors.join('; '), undefined, []);
	if (!check.ok)
		throw new HttpError(
			400,
			check.errors.join('; '),
			check.fields.length === 1 ? check.fields[0] : undefined,
			check.problems,
		);
	return check;
}

module.exports = { generalError, HttpError, pathError, passedCheck };
