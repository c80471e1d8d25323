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

module.exports = { generalError, HttpError };
