/**
 * The pace's clock: monotonic, so that a pause lasts as long as the API asked whatever the system
 * clock does meanwhile (it may be set, or, in tests, faked).
 */
export function monotonicNow(): number {
	return performance.now();
}

// After a refusal, the run sends at this share of the rate the API accepted since the refusal before
// (its pause included: a token bucket refilled during the pause then counts at its rate, not as a
// burst), then speeds up by this share per second while no refusal comes. It finds the API's pace,
// and probes past it rarely, since each refusal costs a Retry-After's pause of the whole run.
const RATE_AFTER_REFUSAL = 0.9;
const RATE_GROWTH_PER_SECOND = 0.02;
// A refusal sooner than this after the last slow-down (or the first request) tells no rate.
const SHORTEST_RATE_WINDOW_MS = 1000;
// After the run lowered how many requests it has in flight (an API that limits them), it tries one
// more after a quiet spell this long.
const IN_FLIGHT_GROWTH_MS = 10_000;
// How far a run may get ahead of its rate at once.
const BURST_SECONDS = 0.05;
// Requests sent at once come back at once, and the work on each answer then waits for the work on
// the others before the next request goes: a run keeps its requests apart by its round trip divided
// by its requests in flight, times this share (the spread alone would allow twice the pace the
// round trip does, so it is not what holds a run back), when that is at least this gap (a shorter
// wait would last a whole timer tick).
const SPREAD_SHARE = 0.5;
const SHORTEST_SPREAD_MS = 1;
// How much each answer weighs in the running average of the round trip.
const ROUND_TRIP_WEIGHT = 0.2;

/**
 * How fast a run may send, as learned from the API's refusals (requestPace.ts): the most requests in
 * flight (Parallel Requests, fewer after an API refused more), and a rate (none until a refusal
 * shows one), each growing back while the API answers.
 */
export class PaceLimits {
	private ratePerSecond = Infinity;
	private tokens = 0;
	private tokensAt = 0;
	private rateGrownAt = 0;
	private cap: number;
	private cappedAt = 0;
	/** Since when the rate is counted: the run's first request, or the last slow-down. */
	private countingSince?: number;
	/** The answers (not refusals) since then. */
	private acceptedSince = 0;
	/** The most requests in flight, as counted when one was sent, that the API answered since then. */
	private acceptedInFlight = 0;
	/** The running average of the time a request holds its turn: from its turn to its answer read. */
	private roundTripMs?: number;
	private lastSentAt = -Infinity;

	constructor(private readonly parallelRequests: number) {
		this.cap = parallelRequests;
	}

	/** The in-flight cap, one higher for each quiet spell since it was lowered (up to the budget). */
	inFlightCap(now: number): number {
		if (this.cap < this.parallelRequests) {
			const spells = Math.floor((now - this.cappedAt) / IN_FLIGHT_GROWTH_MS);
			if (spells > 0) {
				this.cap = Math.min(this.parallelRequests, this.cap + spells);
				this.cappedAt += spells * IN_FLIGHT_GROWTH_MS;
			}
		}
		return this.cap;
	}

	/** How long until the rate and the spread allow one more request. */
	msUntilToken(now: number): number {
		const spread = this.msUntilSpread(now);
		if (this.ratePerSecond === Infinity) {
			this.tokens = 1;
			return spread;
		}
		const capacity = Math.max(1, this.ratePerSecond * BURST_SECONDS);
		if (now > this.tokensAt) {
			this.tokens = Math.min(
				capacity,
				this.tokens + ((now - this.tokensAt) / 1000) * this.ratePerSecond,
			);
			this.tokensAt = now;
		}
		return Math.max(spread, this.tokens >= 1 ? 0 : ((1 - this.tokens) / this.ratePerSecond) * 1000);
	}

	private msUntilSpread(now: number): number {
		if (this.roundTripMs === undefined) return 0;
		const gap = (this.roundTripMs / this.cap) * SPREAD_SHARE;
		return gap < SHORTEST_SPREAD_MS ? 0 : Math.max(0, this.lastSentAt + gap - now);
	}

	/** A request goes: it takes a token, and the rate is counted from the run's first. */
	sent(now: number): void {
		this.tokens -= 1;
		this.lastSentAt = now;
		if (this.countingSince === undefined) {
			this.countingSince = now;
			this.rateGrownAt = now;
		}
	}

	/**
	 * The API answered a request sent at `sentAt` with `inFlight` in flight (`sinceSlowDown`: sent
	 * after the last slow-down): the rate grows again.
	 */
	answered(now: number, inFlight: number, sinceSlowDown: boolean, sentAt: number): void {
		if (sinceSlowDown) this.acceptedInFlight = Math.max(this.acceptedInFlight, inFlight);
		this.roundTripMs =
			this.roundTripMs === undefined
				? now - sentAt
				: this.roundTripMs + (now - sentAt - this.roundTripMs) * ROUND_TRIP_WEIGHT;
		this.acceptedSince++;
		if (this.ratePerSecond !== Infinity && now > this.rateGrownAt) {
			this.ratePerSecond *= 1 + (RATE_GROWTH_PER_SECOND * (now - this.rateGrownAt)) / 1000;
			this.rateGrownAt = now;
		}
	}

	/** The rate grows again from `moment` on (a pause's end), not during the pause. */
	growFrom(moment: number): void {
		this.rateGrownAt = Math.max(this.rateGrownAt, moment);
	}

	/**
	 * Sends from now on with fewer requests in flight, when the refused one was sent with more in
	 * flight than any the API answered (an API that limits requests in flight, or one too many at
	 * the start); otherwise at a little less than the rate the API accepted since the last slow-down.
	 */
	slowDown(now: number, inFlightAtSend: number): void {
		const countedFor = now - (this.countingSince ?? now);
		if (inFlightAtSend > this.acceptedInFlight || countedFor < SHORTEST_RATE_WINDOW_MS) {
			const answered =
				this.acceptedInFlight > 0
					? Math.min(this.acceptedInFlight, inFlightAtSend - 1)
					: inFlightAtSend - 1;
			this.cap = Math.max(1, Math.min(this.cap, answered));
			this.cappedAt = now;
		} else {
			const acceptedRate = (this.acceptedSince * 1000) / countedFor;
			this.ratePerSecond = Math.max(
				1,
				Math.min(this.ratePerSecond, acceptedRate) * RATE_AFTER_REFUSAL,
			);
			this.tokens = 0;
		}
		this.countingSince = now;
		this.acceptedSince = 0;
		this.acceptedInFlight = 0;
	}
}
