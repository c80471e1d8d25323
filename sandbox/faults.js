'use strict';

const { createRandom } = require('./random');
const FAULT_KINDS = Object.freeze(['500', '503', '429', 'malformed', 'drop', 'slow', 'hang']);
/**
 * Kinds drawn only when asked for:
 * - 'soft-failure' answers 200 with a body that says the request failed, as some servers do (the
 *   node must not take it for a success);
 * - 'lost-answer' carries the request out (a write changes the store) and then closes the
 *   connection without an answer, as when a proxy times out or the connection breaks after the
 *   server committed: a client cannot tell it from 'drop', and one that retries a create must meet
 *   what its first attempt did. With `methods` it hits only writes.
 */
const EXTRA_FAULT_KINDS = Object.freeze(['soft-failure', 'lost-answer']);

/** @type {Readonly<FaultOptions>} what a fault option left out is */
const DEFAULT_FAULT_OPTIONS = Object.freeze({
	rate: 0,
	kinds: FAULT_KINDS,
	seed: 1,
	retryAfterSeconds: 1,
	slowMs: 2000,
	methods: undefined,
	externalIds: undefined,
});

/** A JSON text cut short, as a connection broken mid-body would deliver it. */
const TRUNCATED_JSON = '{"content":[{"id":"3f0c';

/**
 * @typedef {'500' | '503' | '429' | 'malformed' | 'drop' | 'slow' | 'hang' | 'soft-failure' | 'lost-answer' | string} FaultKind any
 * other HTTP error status (e.g. '403') is answered with that status
 *
 * @typedef {object} FaultOptions
 * @property {number} [rate] share of the eligible requests that get a fault, 0..1 (default 0)
 * @property {FaultKind[]} [kinds] kinds to choose from, uniformly (default: those of FAULT_KINDS)
 * @property {number} [seed] seed of the choice, so a run is reproducible (default 1)
 * @property {number} [retryAfterSeconds] Retry-After of '429' (default 1)
 * @property {number} [slowMs] delay of 'slow' (default 2000)
 * @property {string[]} [methods] HTTP methods whose requests are eligible (default all)
 * @property {string[]} [externalIds] only requests whose JSON body holds one of these
 * `externalId`s are eligible (default all): with rate 1, the writes of exactly those records fail
 */

/**
 * Decides, request by request and in arrival order, which fault (if any) to inject.
 * @param {FaultOptions | null} [options]
 */
function createFaultInjector(options) {
	const settings = { ...DEFAULT_FAULT_OPTIONS, kinds: [...FAULT_KINDS], ...options };
	if (!(settings.rate >= 0 && settings.rate <= 1))
		throw new RangeError('faults.rate must be between 0 and 1');
	const unknownKinds = settings.kinds.filter(
		(kind) => ![...FAULT_KINDS, ...EXTRA_FAULT_KINDS].includes(kind) && !isErrorStatus(kind),
	);
	if (unknownKinds.length > 0 || settings.kinds.length === 0) {
		throw new RangeError(
			`faults.kinds must be a non-empty list of ${[...FAULT_KINDS, ...EXTRA_FAULT_KINDS].join(', ')} or other HTTP error statuses (400-599)`,
		);
	}
	const eligibleMethods = settings.methods?.map((method) => method.toUpperCase());
	if (
		settings.externalIds !== undefined &&
		(!Array.isArray(settings.externalIds) ||
			settings.externalIds.some((externalId) => typeof externalId !== 'string'))
	) {
		throw new RangeError('faults.externalIds must be a list of external IDs');
	}
	const random = createRandom(settings.seed);

	return {
		settings,
		/**
		 * @param {string} method
		 * @param {unknown} [body] the request's JSON body, as parsed for the log
		 * @returns {FaultKind | undefined}
		 */
		draw(method, body) {
			if (
				settings.rate === 0 ||
				(eligibleMethods && !eligibleMethods.includes(method.toUpperCase())) ||
				(settings.externalIds && !settings.externalIds.includes(externalIdOf(body)))
			) {
				return undefined;
			}
			return random.next() < settings.rate ? random.pick(settings.kinds) : undefined;
		},
	};
}

/** The `externalId` a request's JSON body holds, if any. */
function externalIdOf(body) {
	return typeof body === 'object' && body !== null && typeof body.externalId === 'string'
		? body.externalId
		: undefined;
}

/** Whether the request is carried out and its answer then lost ('lost-answer'). */
function losesAnswer(kind) {
	return kind === 'lost-answer';
}

/** A kind that is an HTTP error status of its own, e.g. '403': answered with that status. */
function isErrorStatus(kind) {
	return /^[45]\d\d$/.test(kind);
}

/**
 * Answers the request as the fault dictates, or (for 'slow') delays it. 'lost-answer' leaves the
 * request to be carried out: the server then drops its answer (losesAnswer).
 * @param {FaultKind} kind
 * @param {import('fastify').FastifyReply} reply
 * @param {{ retryAfterSeconds: number, slowMs: number, wait: (ms: number) => Promise<void>,
 * sendError: (statusCode: number, message: string) => void }} settings wait: a delay that ends when
 * the sandbox closes; sendError: answers an error in the sandbox's dialect
 * @returns {Promise<boolean>} whether the request still needs its normal answer
 */
async function applyFault(kind, reply, { retryAfterSeconds, slowMs, wait, sendError }) {
	switch (kind) {
		case 'slow':
			await wait(slowMs);
			return true;
		case 'lost-answer':
			return true;
		case '429':
			reply.header('retry-after', String(retryAfterSeconds));
			sendError(429, 'Too many requests');
			return false;
		case 'soft-failure':
			reply
				.code(200)
				.send({ success: false, message: 'Injected soft failure: nothing was changed' });
			return false;
		case 'malformed':
			reply.code(200).type('application/json').send(TRUNCATED_JSON);
			return false;
		case 'drop':
			reply.hijack();
			reply.raw.destroy();
			return false;
		case 'hang':
			// Never answered: close() ends the connection.
			reply.hijack();
			return false;
		default:
			sendError(Number(kind), 'Injected fault');
			return false;
	}
}

module.exports = {
	FAULT_KINDS,
	EXTRA_FAULT_KINDS,
	DEFAULT_FAULT_OPTIONS,
	createFaultInjector,
	applyFault,
	losesAnswer,
};
