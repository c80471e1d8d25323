'use strict';

const { randomUUID } = require('node:crypto');
const { setMaxListeners } = require('node:events');
const Fastify = require('fastify');
const { validateRequest } = require('./contract');
const { createStore } = require('./seed');
const { apiNow, handlers } = require('./handlers');
const { writeHandlers } = require('./writes');
const { createFaultInjector, applyFault, losesAnswer } = require('./faults');
const { createRateLimiter, rateLimitSettings } = require('./rateLimit');
const { HttpError, passedCheck } = require('./general-error');
const { ERROR_DIALECTS, renderError } = require('./error-dialects');
const { registerAdminRoutes, isAdminRequest } = require('./admin');

const HANDLED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const START_OPTIONS = [
	'port',
	'host',
	'logger',
	'seed',
	'models',
	'equipment',
	'days',
	'today',
	'adminToken',
	'backlog',
];
const DEFAULT_RUNTIME_OPTIONS = Object.freeze({
	token: 'sandbox-token',
	latencyMs: 0,
	maxPageSize: undefined,
	faults: null,
	rateLimit: null,
	clockOffsetMs: 0,
	errorDialect: 'message',
	strict: false,
});

/**
 * @typedef {object} RuntimeOptions options that setOptions can change while the sandbox runs
 * @property {string} [token] the accepted bearer token (default 'sandbox-token')
 * @property {number} [latencyMs] delay before each request is handled (default 0)
 * @property {number} [maxPageSize] silent ceiling of `limit` in lists (default none)
 * @property {import('./faults').FaultOptions | null} [faults] fault injection (default none)
 * @property {import('./rateLimit').RateLimitOptions | null} [rateLimit] the API's rate limit: a
 * request beyond it is answered 429 after the latency, and never handled (default none)
 * @property {number} [clockOffsetMs] how far the API's clock runs ahead of the machine's (negative:
 * behind; default 0). It sets the timestamps the sandbox writes (updatedAt and createdAt, the
 * Date header) and so what `updatedAfter` matches, since that is compared with them.
 * @property {string} [errorDialect] the shape of error answers, one of error-dialects.js's
 * ERROR_DIALECTS (default 'message'); the administration paths always answer in 'message'
 * @property {boolean} [strict] refuse body properties that the vendor's reference does not list
 * (marked `x-not-in-reference` in openapi.yaml), as servers that whitelist bodies do (default false)
 *
 * @typedef {RuntimeOptions & import('./seed').SeedOptions & {
 *   port?: number, host?: string, logger?: boolean, adminToken?: string, backlog?: number
 * }} SandboxOptions port 0 (default) picks a free port; host defaults to 127.0.0.1; adminToken
 * opens the administration paths (admin.js), which are not answered without one; backlog is the
 * length of the queue of connections not yet accepted (Node's default 511; the kernel caps it at
 * net.core.somaxconn): a client opening thousands of connections at once overflows the default,
 * and its connections then wait for the kernel to retry them (1 s, then 3 s, ...) or are reset
 *
 * @typedef {object} RequestLogEntry
 * @property {string} method
 * @property {string} url path and query as received
 * @property {string} path path as received, not decoded
 * @property {Record<string, unknown>} query
 * @property {Record<string, string | string[] | undefined>} headers
 * @property {unknown} body parsed JSON, the raw text when it is not JSON, undefined when none was
 * sent
 * @property {number | null} status null while unanswered, and for dropped or hanging requests
 * @property {number} receivedAt when it arrived, in milliseconds since the epoch
 * @property {import('./faults').FaultKind} [fault] the injected fault, if any
 * @property {boolean} [rateLimited] refused by the rate limit (answered 429, never handled)
 *
 * @typedef {(request: RequestLogEntry) => Promise<void> | void} RequestHook
 */

/**
 * Starts the local sandbox of the Integration API.
 * @param {SandboxOptions} [options]
 */
async function startSandbox(options = {}) {
	const unknownOptions = Object.keys(options).filter(
		(key) => !START_OPTIONS.includes(key) && !(key in DEFAULT_RUNTIME_OPTIONS),
	);
	if (unknownOptions.length > 0)
		throw new TypeError(`Unknown sandbox options: ${unknownOptions.join(', ')}`);
	const {
		port = 0,
		host = '127.0.0.1',
		logger = false,
		seed,
		models,
		equipment,
		days,
		today,
		adminToken,
		backlog,
	} = options;
	const runtime = createRuntime(options);
	const store = createStore({
		seed,
		models,
		equipment,
		days,
		today: today ?? apiNow(runtime.settings),
	});
	const log = createRequestLog();
	/** @type {Set<RequestHook>} */
	const hooks = new Set();
	const closing = new AbortController();
	// Every request waiting out its latency listens on it: thousands at once are no leak.
	setMaxListeners(0, closing.signal);
	/**
	 * Waits `ms` (a latency, a slow answer), or until close(). On the global setTimeout, which a
	 * test can fake to end the waits when it says rather than when a busy machine gets to them.
	 */
	const wait = (ms) =>
		ms > 0
			? new Promise((resolve, reject) => {
					const abort = () => {
						clearTimeout(timer);
						reject(closing.signal.reason);
					};
					const timer = setTimeout(() => {
						closing.signal.removeEventListener('abort', abort);
						resolve();
					}, ms);
					closing.signal.addEventListener('abort', abort, { once: true });
				})
			: Promise.resolve();

	const app = Fastify({
		logger,
		// close() must also end the connections of hanging requests.
		forceCloseConnections: true,
		// Requests the router refuses (e.g. malformed percent-encoding) skip the hooks.
		frameworkErrors: (error, request, reply) => {
			log.track(request, reply).status = 400;
			sendError(request, reply, new HttpError(400, error.message, undefined, []));
		},
	});
	// The body stays raw text: the contract check decides about Content-Type and JSON.
	app.removeAllContentTypeParsers();
	app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
	app.decorateRequest('logEntry', null);
	app.addHook('onRequest', async (request, reply) => {
		if (!isAdminRequest(request)) request.logEntry = log.track(request, reply);
	});
	app.addHook('onSend', async (request, reply) => {
		if (request.logEntry) request.logEntry.status = reply.statusCode;
		reply.header('date', apiNow(runtime.settings).toUTCString());
	});
	/**
	 * Answers `error` in the dialect the sandbox speaks (the administration paths always speak the
	 * default one).
	 * @param {import('fastify').FastifyRequest} request
	 * @param {import('fastify').FastifyReply} reply
	 * @param {{ statusCode?: number, message: string, field?: string, problems?: import('./contract').Problem[] }} error
	 */
	function sendError(request, reply, error) {
		const statusCode = error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
		const { type, body } = renderError(
			isAdminRequest(request) ? 'message' : runtime.settings.errorDialect,
			{
				statusCode,
				message: error.message,
				field: error.field,
				problems: error.problems ?? [],
				path: request.url.split('?')[0],
			},
		);
		return reply.code(statusCode).type(type).send(body);
	}
	app.setErrorHandler((error, request, reply) => {
		sendError(request, reply, error);
	});
	app.setNotFoundHandler((request, reply) => {
		sendError(
			request,
			reply,
			new HttpError(
				404,
				`No operation ${request.method} ${request.url.split('?')[0]}`,
				undefined,
				[],
			),
		);
	});

	if (adminToken !== undefined)
		registerAdminRoutes(app, {
			adminToken,
			apiToken: runtime.settings.token,
			store,
			setOptions: runtime.setOptions,
			now: () => apiNow(runtime.settings),
		});
	app.route({
		method: HANDLED_METHODS,
		url: '*',
		handler: async (request, reply) => {
			const entry = request.logEntry;
			entry.body = parseForLog(request.body);
			const admission = runtime.rateLimiter.admit();
			reply.headers(admission.headers);
			if (admission.accepted) reply.raw.once('close', admission.answered);
			else entry.rateLimited = true;
			await wait(runtime.settings.latencyMs);
			if (!admission.accepted) {
				reply.header('retry-after', admission.retryAfter(apiNow(runtime.settings)));
				return sendError(
					request,
					reply,
					new HttpError(admission.status, admission.message, undefined, []),
				);
			}
			for (const hook of hooks) await hook(entry);

			const fault = runtime.faultInjector.draw(request.method, entry.body);
			if (fault) {
				entry.fault = fault;
				const stillToAnswer = await applyFault(fault, reply, {
					...runtime.faultInjector.settings,
					wait,
					sendError: (statusCode, message) =>
						sendError(request, reply, new HttpError(statusCode, message, undefined, [])),
				});
				if (!stillToAnswer) return reply;
			}
			const authorized = request.headers.authorization === `Bearer ${runtime.settings.token}`;
			if (losesAnswer(fault)) {
				try {
					if (authorized) handleOperation(store, request, runtime.settings);
				} catch {
					// A refused request's answer is lost as well.
				}
				reply.hijack();
				reply.raw.destroy();
				return reply;
			}
			if (!authorized) {
				reply.header('www-authenticate', 'Bearer');
				return sendError(
					request,
					reply,
					new HttpError(401, 'Invalid or missing access token', undefined, []),
				);
			}
			const result = handleOperation(store, request, runtime.settings);
			return reply.code(result.status).send(result.body);
		},
	});

	await app.listen({ port, host, ...(backlog === undefined ? {} : { backlog }) });
	const address = app.server.address();
	const boundPort = typeof address === 'object' && address ? address.port : port;

	return {
		url: `http://${host}:${boundPort}`,
		port: boundPort,
		store,
		requests: log.requests,
		get inFlight() {
			return log.inFlight;
		},
		/**
		 * Highest number of requests received and not yet answered at the same time since the start
		 * or resetStats(), those the rate limit refuses included.
		 */
		get maxInFlight() {
			return log.maxInFlight;
		},
		/**
		 * Highest number of requests accepted (not refused by the rate limit) and not yet answered at
		 * the same time since the start or resetStats(): what the rate limit's maxInFlight bounds.
		 */
		get maxAcceptedInFlight() {
			return runtime.rateLimiter.maxInFlight;
		},
		setOptions: runtime.setOptions,
		/** The API's clock: the machine's, moved by clockOffsetMs. */
		now: () => apiNow(runtime.settings),
		/**
		 * Changes a model as an edit in the API would: the given fields, and updatedAt by the API's
		 * clock. The sandbox offers no operation that edits models; tests and tools change them here.
		 * @param {string} id
		 * @param {Record<string, unknown>} [changes]
		 */
		updateModel(id, changes = {}) {
			const model = store.models.find((candidate) => candidate.id === id);
			if (!model) throw new RangeError(`No model has the id ${id}`);
			return Object.assign(model, changes, { updatedAt: apiNow(runtime.settings).toISOString() });
		},
		/**
		 * Adds a model as a create in the API would: a copy of `fields` with a new id, and createdAt and
		 * updatedAt by the API's clock.
		 * @param {Omit<import('./seed').ModelEntity, 'id' | 'createdAt' | 'updatedAt'>} fields
		 */
		createModel(fields) {
			const now = apiNow(runtime.settings).toISOString();
			const model = { ...fields, id: randomUUID(), createdAt: now, updatedAt: now };
			store.models.push(model);
			return model;
		},
		/**
		 * Empties the request log (in place) and restarts maxInFlight and maxAcceptedInFlight from the
		 * current counts.
		 */
		resetStats() {
			log.reset();
			runtime.rateLimiter.resetPeak();
		},
		/**
		 * Runs the hook before each request is handled (after latency, before faults and auth); not
		 * for those the rate limit refuses, which are never handled.
		 * @param {RequestHook} hook
		 * @returns {() => void} removes the hook
		 */
		onRequest(hook) {
			hooks.add(hook);
			return () => hooks.delete(hook);
		},
		async close() {
			closing.abort();
			await app.close();
		},
	};
}

const operationHandlers = { ...handlers, ...writeHandlers };

/** Validates the request against the document, then lets the operation's handler answer it. */
function handleOperation(store, request, settings) {
	const check = passedCheck(
		validateRequest(
			{
				method: request.method,
				path: request.url,
				headers: request.headers,
				body: request.body,
			},
			{ strict: settings.strict },
		),
	);
	return operationHandlers[check.operationId](store, check, settings);
}

/** @param {RuntimeOptions} initialOptions */
function createRuntime(initialOptions) {
	// Filled from the defaults and the initial options by the setOptions call below.
	/** @type {{ token: string, latencyMs: number, maxPageSize?: number, clockOffsetMs: number, errorDialect: string, strict: boolean }} */
	const settings = {};
	/** @type {ReturnType<typeof createFaultInjector>} */
	let faultInjector;
	const rateLimiter = createRateLimiter();

	/**
	 * Changes runtime options; a key given as undefined goes back to its default.
	 * @param {RuntimeOptions} partialOptions
	 */
	function setOptions(partialOptions) {
		const changes = Object.fromEntries(
			Object.entries(partialOptions).map(([key, value]) => {
				if (!(key in DEFAULT_RUNTIME_OPTIONS))
					throw new TypeError(`${key} cannot be changed after the sandbox started`);
				return [key, value === undefined ? DEFAULT_RUNTIME_OPTIONS[key] : value];
			}),
		);
		checkRuntimeOptions(changes);
		const { faults, rateLimit, ...settingChanges } = changes;
		if ('faults' in changes) faultInjector = createFaultInjector(faults);
		if ('rateLimit' in changes) rateLimiter.configure(rateLimit);
		Object.assign(settings, settingChanges);
	}
	setOptions(
		Object.fromEntries(
			Object.keys(DEFAULT_RUNTIME_OPTIONS).map((key) => [key, initialOptions[key]]),
		),
	);

	return {
		settings,
		get faultInjector() {
			return faultInjector;
		},
		rateLimiter,
		setOptions,
	};
}

/**
 * The log of received requests, and the count of those in flight (until their connection answers or
 * closes).
 */
function createRequestLog() {
	/** @type {RequestLogEntry[]} */
	const requests = [];
	const log = {
		requests,
		inFlight: 0,
		maxInFlight: 0,
		/** @returns {RequestLogEntry} */
		track(request, reply) {
			const entry = {
				method: request.method,
				url: request.url,
				path: request.url.split('?')[0],
				query: { ...request.query },
				headers: request.headers,
				body: undefined,
				status: null,
				receivedAt: Date.now(),
			};
			requests.push(entry);
			log.inFlight += 1;
			log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
			reply.raw.once('close', () => {
				log.inFlight -= 1;
			});
			return entry;
		},
		reset() {
			requests.length = 0;
			log.maxInFlight = log.inFlight;
		},
	};
	return log;
}

/**
 * Throws what setOptions would throw for these runtime options (undefined: the default), without a
 * sandbox: cli.js and `npm run dev` check their flags with it before starting anything.
 * @param {RuntimeOptions} options
 */
function checkRuntimeOptions(options) {
	for (const [key, value] of Object.entries(options)) {
		if (!(key in DEFAULT_RUNTIME_OPTIONS)) throw new TypeError(`${key} is not a runtime option`);
		if (value === undefined) continue;
		if (key === 'faults') createFaultInjector(value);
		else if (key === 'rateLimit') {
			if (value !== null) rateLimitSettings(value);
		} else checkRuntimeSetting(key, value);
	}
}

function checkRuntimeSetting(key, value) {
	if (key === 'token' && (typeof value !== 'string' || value === ''))
		throw new TypeError('token must be a non-empty string');
	if (key === 'latencyMs' && !(value >= 0)) throw new RangeError('latencyMs must be >= 0');
	if (key === 'clockOffsetMs' && !Number.isFinite(value))
		throw new RangeError('clockOffsetMs must be a finite number of milliseconds');
	if (key === 'errorDialect' && !ERROR_DIALECTS.includes(value))
		throw new RangeError(`errorDialect must be one of ${ERROR_DIALECTS.join(', ')}`);
	if (key === 'strict' && typeof value !== 'boolean')
		throw new TypeError('strict must be true or false');
	if (key === 'maxPageSize' && value !== undefined && !(Number.isInteger(value) && value > 0)) {
		throw new RangeError('maxPageSize must be a positive integer');
	}
}

function parseForLog(rawBody) {
	if (rawBody === undefined || rawBody === '') return undefined;
	try {
		return JSON.parse(rawBody);
	} catch {
		return rawBody;
	}
}

/** The options setOptions (and PUT /_sandbox/options) can change while the sandbox runs. */
const RUNTIME_OPTIONS = Object.freeze(Object.keys(DEFAULT_RUNTIME_OPTIONS));

module.exports = { startSandbox, checkRuntimeOptions, RUNTIME_OPTIONS };
