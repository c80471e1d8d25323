'use strict';

/**
 * Contract check of requests (and responses) against sandbox/openapi.yaml.
 *
 * The sandbox server validates every request with validateRequest, and tests call it on every
 * request the node sends, so both agree on one reading of the document.
 */

const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default;

const DOCUMENT_ID = 'https://sandbox.invalid/openapi.yaml';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const BEARER_CREDENTIALS = /^Bearer [A-Za-z0-9\-._~+/]+=*$/;
/** RFC 3986 pchar: what a path segment may hold without percent-encoding. */
const PATH_SEGMENT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})*$/;
const NUMERIC = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** @type {any} */
const document = YAML.parse(fs.readFileSync(path.join(__dirname, 'openapi.yaml'), 'utf8'));
const ajv = createAjv();
const operations = indexOperations();
/** The sandbox's own administration, marked `x-sandbox-admin`: never an Integration API operation. */
const apiOperations = operations.filter((operation) => !operation.admin);
const adminOperations = operations.filter((operation) => operation.admin);
/** @type {Map<string, import('ajv').ValidateFunction | null>} */
const responseValidators = new Map();

function createAjv() {
	const instance = new Ajv2020({
		allErrors: true,
		strict: true,
		strictRequired: false,
		allowUnionTypes: true,
	});
	addFormats(instance);
	// ajv-formats also accepts a `urn:uuid:` prefix; the API's identifiers are bare UUIDs.
	instance.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
	// ajv-formats's email takes ASCII only. The reference shows no rule of the API's, so the sandbox
	// checks the node's (shared/parameters.ts), which takes letters of any script (RFC 6531, IDN).
	instance.addFormat(
		'email',
		/^[^\s@\p{Cc}\p{Cf}\p{Cs}]+@[\p{L}\p{M}\p{N}-]+(?:\.[\p{L}\p{M}\p{N}-]+)+$/u,
	);
	// The document is registered as one schema resource so that its `#/components/...` references
	// resolve; its OpenAPI containers and extensions are declared as annotations for strict mode.
	instance.addVocabulary(['paths', 'components', 'x-assumed', 'x-reference', 'x-not-in-reference']);
	instance.addSchema({ $id: DOCUMENT_ID, paths: document.paths, components: document.components });
	return instance;
}

/**
 * @typedef {object} Operation
 * @property {string} operationId
 * @property {string} method upper case
 * @property {string} template
 * @property {string} pointer JSON pointer of the operation in the document
 * @property {Record<string, any>} responses
 * @property {Array<{ literal: string } | { parameter: string }>} segments
 * @property {import('ajv').ValidateFunction} validatePath
 * @property {import('ajv').ValidateFunction} validateQuery
 * @property {Map<string, any>} querySchemas
 * @property {import('ajv').ValidateFunction | undefined} validateBody
 * @property {boolean} bodyRequired
 * @property {string[]} bodyPropertiesNotInReference body properties the description has and the
 * vendor's reference does not list (marked `x-not-in-reference`): refused in strict mode
 * @property {boolean} secured
 * @property {boolean} admin
 */

/**
 * The document's operations. Their validators are compiled when first used: all of them take about a
 * second of CPU, which a process that checks a few operations (a test file, `npm run sandbox --
 * --help`) need not spend.
 * @returns {Operation[]}
 */
function indexOperations() {
	const indexed = [];
	for (const [template, pathItem] of Object.entries(document.paths)) {
		for (const method of HTTP_METHODS.filter((name) => pathItem[name])) {
			const operation = pathItem[method];
			const pointer = `/paths/${escapePointer(template)}/${method}`;
			const parameters = (operation.parameters ?? []).map((parameter, index) => ({
				...parameter,
				pointer: `${pointer}/parameters/${index}/schema`,
			}));
			const requestBody = operation.requestBody;
			const indexedOperation = {
				operationId: operation.operationId,
				method: method.toUpperCase(),
				template,
				pointer,
				responses: operation.responses,
				segments: template
					.split('/')
					.slice(1)
					.map((segment) =>
						/^\{.+\}$/.test(segment) ? { parameter: segment.slice(1, -1) } : { literal: segment },
					),
				querySchemas: new Map(
					parameters
						.filter((parameter) => parameter.in === 'query')
						.map((parameter) => [parameter.name, resolveSchema(parameter.schema)]),
				),
				bodyRequired: Boolean(requestBody?.required),
				bodyPropertiesNotInReference: Object.entries(
					listedProperties(requestBody?.content['application/json'].schema),
				)
					.filter(([, schema]) => schema['x-not-in-reference'])
					.map(([name]) => name),
				secured: (operation.security ?? document.security ?? []).length > 0,
				admin: operation['x-sandbox-admin'] === true,
			};
			compiledOnFirstUse(indexedOperation, {
				validatePath: () =>
					compileParameters(parameters.filter((parameter) => parameter.in === 'path')),
				validateQuery: () =>
					compileParameters(parameters.filter((parameter) => parameter.in === 'query')),
				validateBody: () =>
					requestBody
						? ajv.compile({
								$ref: `${DOCUMENT_ID}#${pointer}/requestBody/content/application~1json/schema`,
							})
						: undefined,
			});
			indexed.push(indexedOperation);
		}
	}
	return indexed;
}

/** Defines each of `compilers` on `target` as a property compiled when first read, then kept. */
function compiledOnFirstUse(target, compilers) {
	for (const [name, compile] of Object.entries(compilers)) {
		Object.defineProperty(target, name, {
			configurable: true,
			enumerable: true,
			get() {
				const value = compile();
				Object.defineProperty(target, name, { value, enumerable: true });
				return value;
			},
		});
	}
}

function compileParameters(parameters) {
	return ajv.compile({
		type: 'object',
		properties: Object.fromEntries(
			parameters.map(({ name, pointer }) => [name, { $ref: `${DOCUMENT_ID}#${pointer}` }]),
		),
		required: parameters.filter((parameter) => parameter.required).map(({ name }) => name),
		additionalProperties: false,
	});
}

/** Follows the local `$ref`s of a parameter schema, to read its type and default. */
function resolveSchema(node) {
	let resolved = node;
	while (resolved?.$ref?.startsWith('#/')) resolved = resolvePointer(resolved.$ref);
	return resolved;
}

/** The node a local reference (`#/components/...`) points to. */
function resolvePointer(reference) {
	return reference
		.slice(2)
		.split('/')
		.reduce((parent, part) => parent[part.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/**
 * The properties a body schema lists: its own and those of the schemas it refers to (`$ref`), as
 * a create's body that adds fields to shared ones (`$ref` and `unevaluatedProperties: false`).
 */
function listedProperties(node) {
	if (!node) return {};
	const referred = node.$ref?.startsWith('#/') ? resolvePointer(node.$ref) : undefined;
	return { ...listedProperties(referred), ...node.properties };
}

function escapePointer(token) {
	return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * @typedef {object} RequestToCheck
 * @property {string} method
 * @property {string} path path, optionally with a query string, or an absolute URL; as sent (not
 * decoded)
 * @property {Record<string, unknown>} [query] query parameters besides the path's query string, as
 * axios `params`
 *   or n8n `qs` (null and undefined values are not sent); one that repeats a parameter of the path's query string
 *   with the same value is that parameter, so a sandbox log entry's `url` and `query` can be passed together
 * @property {Record<string, string | string[] | undefined>} [headers]
 * @property {unknown} [body] parsed JSON, or the raw text (parsed when Content-Type is JSON)
 */

/**
 * @typedef {object} RequestCheck
 * @property {boolean} ok
 * @property {string} [operationId] the operation the path and method designate
 * @property {string[]} errors
 * @property {string[]} fields distinct top-level names of the parameters and body fields at fault
 * @property {Problem[]} problems each error with where it is
 * @property {Record<string, string>} [pathParams] decoded path parameters
 * @property {Record<string, unknown>} [query] query parameters coerced to their types, with
 * defaults
 * @property {unknown} [body] parsed body
 */

/**
 * Checks one request against the Integration API operations of the document.
 * @param {RequestToCheck} request
 * @param {{ strict?: boolean }} [options] strict: also refuse body properties that the vendor's
 * reference does not list, as a server that whitelists its bodies does
 * @returns {RequestCheck}
 */
function validateRequest(request, options = {}) {
	return checkRequest(request, apiOperations, options);
}

/**
 * Checks one request against the sandbox's administration paths of the document.
 * @param {RequestToCheck} request
 * @returns {RequestCheck}
 */
function validateAdminRequest(request) {
	return checkRequest(request, adminOperations);
}

/**
 * @param {RequestToCheck} request
 * @param {Operation[]} operationsToMatch
 * @returns {RequestCheck}
 */
function checkRequest(
	{ method, path: target, query = {}, headers = {}, body },
	operationsToMatch,
	{ strict = false } = {},
) {
	const problems = new Problems();
	const { rawPath, rawQuery } = splitTarget(target);
	const decodedSegments = decodePathSegments(rawPath, problems);
	if (!decodedSegments) return problems.result();

	// As OpenAPI matches paths: a concrete segment before a templated one, so that
	// /clients/external-id/{externalId} wins over /clients/{clientId}/contact-persons.
	const candidates = operationsToMatch
		.filter((operation) => matchSegments(operation, decodedSegments))
		.sort(bySpecificity);
	const operation = candidates.find((candidate) => candidate.method === method.toUpperCase());
	if (!operation) {
		problems.add(
			candidates.length === 0
				? `no operation has the path ${rawPath}`
				: `${method.toUpperCase()} is not an operation of ${candidates[0].template}`,
		);
		return problems.result();
	}

	const pathParams = Object.fromEntries(
		operation.segments.flatMap((segment, index) =>
			'parameter' in segment ? [[segment.parameter, decodedSegments[index]]] : [],
		),
	);
	problems.addSchemaErrors('path', operation.validatePath, pathParams);

	const queryParams = collectQuery(rawQuery, query, operation, problems);
	problems.addSchemaErrors('query', operation.validateQuery, queryParams);

	const headerValues = normalizeHeaders(headers);
	if (operation.secured && !BEARER_CREDENTIALS.test(headerValues.authorization ?? '')) {
		problems.add(
			"headers/authorization must have the form 'Bearer <ACCESS_TOKEN>'",
			'authorization',
			{ location: 'header', detail: "must have the form 'Bearer <ACCESS_TOKEN>'" },
		);
	}

	const parsedBody = checkBody(operation, body, headerValues['content-type'], problems);
	if (strict) refuseUnlistedProperties(operation, parsedBody, problems);
	return {
		...problems.result(operation.operationId),
		pathParams,
		query: queryParams,
		body: parsedBody,
	};
}

/**
 * @typedef {object} Problem one thing wrong with a request, as the error dialects (error-dialects.js)
 * render it
 * @property {string} message the whole sentence, e.g. "body/amount must be <= 100000000"
 * @property {string} [field] the top-level parameter or body field at fault
 * @property {'path' | 'query' | 'body' | 'header'} [location] where the field was sent
 * @property {string} [pointer] JSON pointer of the value at fault within its location, e.g.
 * "/bookingIds/0"
 * @property {string} [detail] what is wrong with it, without its location, e.g. "must be <= 100000000"
 */

class Problems {
	constructor() {
		/** @type {string[]} */
		this.errors = [];
		/** @type {Set<string>} */
		this.fields = new Set();
		/** @type {Problem[]} */
		this.details = [];
	}

	/**
	 * @param {string} message
	 * @param {string} [field]
	 * @param {Omit<Problem, 'message' | 'field'>} [where]
	 */
	add(message, field, where = {}) {
		this.errors.push(message);
		this.details.push({ message, field, ...where });
		if (field !== undefined) this.fields.add(field);
	}

	addSchemaErrors(location, validate, value) {
		if (validate(value)) return;
		for (const error of validate.errors ?? []) {
			const property =
				error.params.missingProperty ??
				error.params.additionalProperty ??
				error.params.unevaluatedProperty;
			const instancePath =
				property === undefined ? error.instancePath : `${error.instancePath}/${property}`;
			const message =
				error.params.additionalProperty !== undefined ||
				error.params.unevaluatedProperty !== undefined
					? 'is unknown'
					: error.keyword === 'required'
						? 'is required'
						: error.message;
			this.add(`${location}${instancePath} ${message}`, instancePath.split('/')[1], {
				location,
				pointer: instancePath,
				detail: message,
			});
		}
	}

	/** @returns {RequestCheck} */
	result(operationId) {
		return {
			ok: this.errors.length === 0,
			operationId,
			errors: this.errors,
			fields: [...this.fields],
			problems: this.details,
		};
	}
}

function splitTarget(target) {
	const withoutOrigin = target.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, '');
	const [beforeFragment] = withoutOrigin.split('#');
	const queryStart = beforeFragment.indexOf('?');
	return queryStart === -1
		? { rawPath: beforeFragment, rawQuery: '' }
		: {
				rawPath: beforeFragment.slice(0, queryStart),
				rawQuery: beforeFragment.slice(queryStart + 1),
			};
}

/**
 * Decodes each segment once; a segment that URL normalisation would change or remove cannot carry
 * an ID.
 */
function decodePathSegments(rawPath, problems) {
	if (!rawPath.startsWith('/')) {
		problems.add(`path ${rawPath} must start with /`);
		return undefined;
	}
	const decoded = [];
	for (const segment of rawPath.slice(1).split('/')) {
		if (!PATH_SEGMENT.test(segment)) {
			problems.add(`path segment "${segment}" holds characters that must be percent-encoded`);
			return undefined;
		}
		const value = decodeOnce(segment);
		if (value === undefined) {
			problems.add(`path segment "${segment}" does not decode to UTF-8 text`);
			return undefined;
		}
		if (value === '.' || value === '..') {
			problems.add(`path segment "${segment}" is a dot segment, which URL normalisation removes`);
			return undefined;
		}
		decoded.push(value);
	}
	return decoded;
}

function decodeOnce(segment) {
	try {
		return decodeURIComponent(segment);
	} catch {
		return undefined;
	}
}

function matchSegments(operation, decodedSegments) {
	return (
		operation.segments.length === decodedSegments.length &&
		operation.segments.every((segment, index) =>
			'literal' in segment
				? segment.literal === decodedSegments[index]
				: decodedSegments[index] !== '',
		)
	);
}

/** Literal segments first, compared from the left: the more concrete template sorts before. */
function bySpecificity(left, right) {
	for (let index = 0; index < left.segments.length; index++) {
		const difference =
			Number('parameter' in left.segments[index]) - Number('parameter' in right.segments[index]);
		if (difference !== 0) return difference;
	}
	return 0;
}

function collectQuery(rawQuery, extraQuery, operation, problems) {
	/** @type {Map<string, string[]>} */
	const values = new Map();
	const append = (name, value) => values.set(name, [...(values.get(name) ?? []), value]);
	for (const [name, value] of new URLSearchParams(rawQuery)) append(name, value);
	for (const [name, value] of Object.entries(extraQuery)) {
		if (value === undefined || value === null) continue;
		const texts = (Array.isArray(value) ? value : [value]).map(String);
		// The parsed form of the path's own query string (as in a sandbox log entry) is the same
		// parameter.
		const fromPath = values.get(name);
		if (fromPath && JSON.stringify(fromPath) === JSON.stringify(texts)) continue;
		for (const text of texts) append(name, text);
	}

	const coerced = {};
	for (const [name, [first, ...repeats]] of values) {
		if (repeats.length > 0) {
			problems.add(`query/${name} must not be repeated`, name, {
				location: 'query',
				pointer: `/${name}`,
				detail: 'must not be repeated',
			});
		}
		coerced[name] = coerce(first, operation.querySchemas.get(name));
	}
	for (const [name, schema] of operation.querySchemas) {
		if (!(name in coerced) && schema.default !== undefined) coerced[name] = schema.default;
	}
	return coerced;
}

/**
 * Query values arrive as text; numeric text becomes a number so that the schema judges the value.
 */
function coerce(text, schema) {
	const numeric = schema?.type === 'integer' || schema?.type === 'number';
	return numeric && NUMERIC.test(text) ? Number(text) : text;
}

function normalizeHeaders(headers) {
	return Object.fromEntries(
		Object.entries(headers)
			.filter(([, value]) => value !== undefined)
			.map(([name, value]) => [
				name.toLowerCase(),
				Array.isArray(value) ? value.join(', ') : String(value),
			]),
	);
}

function checkBody(operation, body, contentType, problems) {
	const sent = body !== undefined && body !== '' && !(Buffer.isBuffer(body) && body.length === 0);
	if (!sent) {
		if (operation.bodyRequired) problems.add('body is required');
		return undefined;
	}
	if (!operation.validateBody) {
		problems.add(`${operation.operationId} takes no request body`);
		return undefined;
	}
	const mediaType = contentType?.split(';')[0].trim().toLowerCase();
	if (mediaType !== 'application/json') {
		problems.add(
			`headers/content-type must be application/json when a body is sent (got ${contentType ?? 'none'})`,
		);
	}
	const parsed = parseBody(body, problems);
	if (parsed.ok) problems.addSchemaErrors('body', operation.validateBody, parsed.value);
	return parsed.value;
}

/** The words of NestJS's whitelisting validation (forbidNonWhitelisted), a common server of this kind. */
function refuseUnlistedProperties(operation, body, problems) {
	if (typeof body !== 'object' || body === null) return;
	for (const name of operation.bodyPropertiesNotInReference.filter((key) =>
		Object.hasOwn(body, key),
	)) {
		problems.add(`property ${name} should not exist`, name, {
			location: 'body',
			pointer: `/${name}`,
			detail: 'should not exist',
		});
	}
}

function parseBody(body, problems) {
	if (typeof body !== 'string' && !Buffer.isBuffer(body)) return { ok: true, value: body };
	try {
		return { ok: true, value: JSON.parse(body.toString()) };
	} catch {
		problems.add('body is not valid JSON');
		return { ok: false, value: body };
	}
}

/**
 * Checks a response body against the document.
 * @param {{ operationId: string, status: number, body: unknown }} response
 * @returns {{ ok: boolean, errors: string[] }}
 */
function validateResponse({ operationId, status, body }) {
	const key = `${operationId} ${status}`;
	if (!responseValidators.has(key))
		responseValidators.set(key, compileResponse(operationId, status));
	const validate = responseValidators.get(key);
	if (!validate)
		return { ok: false, errors: [`status ${status} is not documented for ${operationId}`] };
	const problems = new Problems();
	problems.addSchemaErrors('response', validate, body);
	return { ok: problems.errors.length === 0, errors: problems.errors };
}

function compileResponse(operationId, status) {
	const operation = operations.find((candidate) => candidate.operationId === operationId);
	const response = operation?.responses[status];
	if (!response) return null;
	const responsePointer = response.$ref
		? response.$ref.slice(1)
		: `${operation.pointer}/responses/${status}`;
	return ajv.compile({
		$ref: `${DOCUMENT_ID}#${responsePointer}/content/application~1json/schema`,
	});
}

module.exports = { validateRequest, validateAdminRequest, validateResponse, document };
