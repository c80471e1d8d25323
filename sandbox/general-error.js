'use strict';

const { STATUS_CODES } = require('node:http');

/**
 * Body of a failing answer. Part 7 of the specification names the GeneralError schema without
 * showing it; the sandbox assumes the shape documented in openapi.yaml.
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

/** A failure an operation handler reports; the server answers it as a GeneralError. */
class HttpError extends Error {
	/**
	 * @param {number} statusCode
	 * @param {string} message
	 * @param {string} [field]
	 */
	constructor(statusCode, message, field) {
		super(message);
		this.statusCode = statusCode;
		this.field = field;
	}
}

/**
 * The request check (contract.js) when it passed; otherwise the HttpError to answer with: 404 when
 * no operation has the path and method, 400 with the problems (naming the field when one is at
 * fault).
 * @param {import('./contract').RequestCheck} check
 */
function passedCheck(check) {
	if (!check.operationId) throw new HttpError(404, check.errors.join('; '));
	if (!check.ok)
		throw new HttpError(
			400,
			check.errors.join('; '),
			check.fields.length === 1 ? check.fields[0] : undefined,
		);
	return check;
}

module.exports = { generalError, HttpError, passedCheck };
