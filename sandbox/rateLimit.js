'use strict';

/**
 * The rate limit real APIs put in front of their operations; the vendor's reference shows none, so
 * openapi.yaml marks the 429 `x-assumed`. Two limits, either or both:
 * - a token bucket: `burst` tokens at most, refilled continuously at `requestsPerSecond`; each
 *   accepted request takes one, and a request arriving to an empty bucket is refused;
 * - `maxInFlight`: requests accepted and not yet answered (their latency included); one arriving
 *   while that many are is refused.
 * A refused request takes no token and holds no slot, as a gateway's refusal costs the API nothing,
 * so a client that retries politely does not starve itself.
 */

const RETRY_AFTER_FORMS = Object.freeze(['seconds', 'date']);

/**
 * @typedef {object} RateLimitOptions
 * @property {number} [requestsPerSecond] refill rate of the token bucket (default: no bucket)
 * @property {number} [burst] size of the bucket, the requests taken at once after a quiet spell
 * (default: one second's worth, at least 1); needs requestsPerSecond
 * @property {number} [maxInFlight] requests handled at the same time (default: no such limit)
 * @property {number} [retryAfterSeconds] the wait a 429 asks for, whole seconds (default 1)
 * @property {'seconds' | 'date'} [retryAfter] Retry-After as a number of seconds (default) or as
 * the HTTP-date that many seconds ahead on the API's clock; clients must take both
 * @property {boolean} [headers] X-RateLimit-Limit, -Remaining and -Reset on every answer, accepted
 * or refused (default false); needs requestsPerSecond, since they describe the bucket
 * @property {429 | 503} [status] the status of a refusal (default 429); some gateways answer an
 * overload with 503 and Retry-After instead
 *
 * @typedef {Required<Omit<RateLimitOptions, 'requestsPerSecond' | 'burst' | 'maxInFlight'>> &
 * Pick<RateLimitOptions, 'requestsPerSecond' | 'burst' | 'maxInFlight'>} RateLimitSettings
 *
 * @typedef {object} Admission the limiter's decision on one request
 * @property {boolean} accepted
 * @property {Record<string, string>} headers the X-RateLimit headers of its answer, if asked for
 * @property {string} [message] why it was refused
 * @property {number} [status] the status of the refusal
 * @property {(apiNow: Date) => string} [retryAfter] the Retry-After of the refusal, sent at `apiNow`
 * @property {() => void} [answered] frees its in-flight slot (an accepted request, once answered)
 */

/** @type {Readonly<RateLimitOptions>} what an option left out is */
const DEFAULT_RATE_LIMIT_OPTIONS = Object.freeze({
	requestsPerSecond: undefined,
	burst: undefined,
	maxInFlight: undefined,
	retryAfterSeconds: 1,
	retryAfter: 'seconds',
	headers: false,
	status: 429,
});

/**
 * The complete settings of a rate limit, defaults filled in; throws for options it cannot take.
 * @param {RateLimitOptions} options
 * @returns {RateLimitSettings}
 */
function rateLimitSettings(options) {
	if (typeof options !== 'object' || options === null || Array.isArray(options))
		throw new TypeError('rateLimit must be an object, or null for no limit');
	const unknown = Object.keys(options).filter((key) => !(key in DEFAULT_RATE_LIMIT_OPTIONS));
	if (unknown.length > 0)
		throw new TypeError(
			`rateLimit takes ${Object.keys(DEFAULT_RATE_LIMIT_OPTIONS).join(', ')}, not ${unknown.join(', ')}`,
		);
	const given = Object.fromEntries(
		Object.entries(options).filter(([, value]) => value !== undefined),
	);
	const settings = { ...DEFAULT_RATE_LIMIT_OPTIONS, ...given };
	const { requestsPerSecond, burst, maxInFlight, retryAfterSeconds, retryAfter, headers, status } =
		settings;
	if (
		requestsPerSecond !== undefined &&
		!(Number.isFinite(requestsPerSecond) && requestsPerSecond > 0)
	)
		throw new RangeError('rateLimit.requestsPerSecond must be a positive number');
	if (burst !== undefined && !(Number.isInteger(burst) && burst >= 1))
		throw new RangeError('rateLimit.burst must be an integer >= 1');
	if (maxInFlight !== undefined && !(Number.isInteger(maxInFlight) && maxInFlight >= 1))
		throw new RangeError('rateLimit.maxInFlight must be an integer >= 1');
	if (!(Number.isInteger(retryAfterSeconds) && retryAfterSeconds >= 0))
		throw new RangeError('rateLimit.retryAfterSeconds must be a whole number of seconds >= 0');
	if (!RETRY_AFTER_FORMS.includes(retryAfter))
		throw new RangeError(`rateLimit.retryAfter must be one of ${RETRY_AFTER_FORMS.join(', ')}`);
	if (typeof headers !== 'boolean') throw new TypeError('rateLimit.headers must be true or false');
	if (status !== 429 && status !== 503) throw new RangeError('rateLimit.status must be 429 or 503');
	if (requestsPerSecond === undefined) {
		if (burst !== undefined)
			throw new TypeError('rateLimit.burst needs rateLimit.requestsPerSecond');
		if (headers)
			throw new TypeError(
				'rateLimit.headers needs rateLimit.requestsPerSecond: the headers describe its bucket',
			);
		if (maxInFlight === undefined)
			throw new TypeError('rateLimit.requestsPerSecond or rateLimit.maxInFlight must be set');
	}
	return {
		...settings,
		burst:
			requestsPerSecond === undefined
				? undefined
				: (burst ?? Math.max(1, Math.floor(requestsPerSecond))),
	};
}

/** @param {number} count */
function requests(count) {
	return `${count} request${count === 1 ? '' : 's'}`;
}

/** The bucket's clock, in milliseconds. */
function bucketNow() {
	return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * Decides on each request as it arrives. Its count of the accepted requests in flight runs with or
 * without a limit, and across changes of the limit, since it counts requests, not settings.
 */
function createRateLimiter() {
	/** @type {RateLimitSettings | null} */
	let settings = null;
	let tokens = 0;
	let refilledAt = 0;
	const counts = { inFlight: 0, maxInFlight: 0 };

	// process.hrtime, which a test can fake to refill the bucket when it says rather than as fast as a
	// busy machine sends; not performance.now(), the clock of the node's pace, which must keep running.
	function refill() {
		const now = bucketNow();
		tokens = Math.min(
			settings.burst,
			tokens + ((now - refilledAt) / 1000) * settings.requestsPerSecond,
		);
		refilledAt = now;
	}

	/** @returns {string | undefined} why a request arriving now is refused */
	function refusal() {
		if (settings.requestsPerSecond !== undefined && tokens < 1)
			return `Rate limit exceeded: at most ${requests(settings.requestsPerSecond)} per second`;
		if (settings.maxInFlight !== undefined && counts.inFlight >= settings.maxInFlight)
			return `Rate limit exceeded: at most ${requests(settings.maxInFlight)} at the same time`;
		return undefined;
	}

	function rateLimitHeaders() {
		if (!settings?.headers) return {};
		return {
			'x-ratelimit-limit': String(settings.requestsPerSecond),
			'x-ratelimit-remaining': String(Math.floor(tokens)),
			'x-ratelimit-reset': String(
				Math.ceil((settings.burst - tokens) / settings.requestsPerSecond),
			),
		};
	}

	/** @param {Date} apiNow */
	function retryAfter(apiNow) {
		if (settings.retryAfter === 'seconds') return String(settings.retryAfterSeconds);
		// An HTTP-date has whole seconds: rounded down, it would ask for less than the wait set.
		const retryAt = Math.ceil(apiNow.getTime() / 1000 + settings.retryAfterSeconds) * 1000;
		return new Date(retryAt).toUTCString();
	}

	function accept() {
		counts.inFlight += 1;
		counts.maxInFlight = Math.max(counts.maxInFlight, counts.inFlight);
		let answered = false;
		return () => {
			if (answered) return;
			answered = true;
			counts.inFlight -= 1;
		};
	}

	return {
		/**
		 * Sets the limit (null: none). The bucket starts full, as a newly deployed limit does.
		 * @param {RateLimitOptions | null} options
		 */
		configure(options) {
			settings = options === null ? null : rateLimitSettings(options);
			tokens = settings?.burst ?? 0;
			refilledAt = bucketNow();
		},
		/** @returns {Admission} */
		admit() {
			if (settings === null) return { accepted: true, headers: {}, answered: accept() };
			if (settings.requestsPerSecond !== undefined) refill();
			const message = refusal();
			if (message !== undefined)
				return {
					accepted: false,
					headers: rateLimitHeaders(),
					message,
					retryAfter,
					status: settings.status,
				};
			if (settings.requestsPerSecond !== undefined) tokens -= 1;
			return { accepted: true, headers: rateLimitHeaders(), answered: accept() };
		},
		/** Accepted requests not yet answered. */
		get inFlight() {
			return counts.inFlight;
		},
		/** Highest inFlight since the start or resetPeak(). */
		get maxInFlight() {
			return counts.maxInFlight;
		},
		resetPeak() {
			counts.maxInFlight = counts.inFlight;
		},
	};
}

module.exports = { DEFAULT_RATE_LIMIT_OPTIONS, rateLimitSettings, createRateLimiter };
