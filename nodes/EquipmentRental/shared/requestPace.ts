import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import type { ErrorContext } from './errors';
import { asSentence, itemSuffix, toItemError } from './errors';
import { listOptionsField } from './listFields';
import type { Field, ParameterContext } from './parameters';
import { ItemParameters } from './parameters';
import {
	maxRateLimitWaitField,
	parallelRequestsField,
	requestOptionsProperty,
} from './requestOptionFields';
import { retryDelayMs, waitBeforeRetry } from './retry';

// A refusal without Retry-After pauses the run this long; refusals in a row without an answer in
// between pause it this long from the second on, doubled each time (whatever Retry-After says).
const FIRST_PAUSE_MS = 500;
const MAX_PAUSE_MS = 30_000;
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
// Items under way per request in flight: while one item reads its fields or its answer, another's
// request takes the free turn.
const ITEMS_PER_REQUEST = 2;
// How far a run may get ahead of its rate at once.
const BURST_SECONDS = 0.05;

/** What the node's Request Options say about its pace. */
export interface PaceSettings {
	/** The most requests in flight at once, and the most items under way at once. */
	parallelRequests: number;
	/** How long the API may keep refusing every request before the items left fail. */
	maxRateLimitWaitMs: number;
}

/**
 * A refusal of the API: a 429, or a 503 with Retry-After. The API did nothing with the request and
 * asks the client to slow down (a 503 without Retry-After is a failure like any 5xx, after which a
 * write may have been done). Undefined for any other failure; otherwise how long the API asked to
 * wait, if it said.
 */
function refusalOf(error: unknown): { waitMs?: number } | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const retryAfterSeconds = error.context?.retryAfterSeconds;
	const waitMs = typeof retryAfterSeconds === 'number' ? retryAfterSeconds * 1000 : undefined;
	if (error.httpCode === '429' || (error.httpCode === '503' && waitMs !== undefined))
		return { waitMs };
	return undefined;
}

function describeDuration(ms: number): string {
	const seconds = Math.round(ms / 1000);
	if (seconds < 120) return `${seconds} second${seconds === 1 ? '' : 's'}`;
	return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** A request's turn: granted when the run may send, or refused when it has given up. */
interface Waiter {
	grant: (turn: Turn) => void;
	refuse: (error: unknown) => void;
}

/** What the run was doing when a request's turn came. */
interface Turn {
	/** The slow-downs so far: a refusal of a request sent before the last one counts once. */
	slowDowns: number;
	/** The requests in flight, this one included. */
	inFlight: number;
}

/**
 * The pace of one run of the node. Every request of the run (every item, every page of a Return
 * All, a Create or Update's look-up and write) waits for its turn here:
 * - at most Parallel Requests are in flight, and at most twice that many items are under way, so
 *   that items are read and checked as their turn comes rather than all at once before the first
 *   request (n8n's engine waits for none of them, see itemRequest.ts);
 * - a refusal (429, or 503 with Retry-After) pauses every request of the run until its
 *   Retry-After (or a backoff), then the run goes on at a little less than the rate the API had
 *   accepted, speeding up again while answers come: it keeps to the API's pace by itself. The
 *   refused request is sent again first, a write too, since the API did not act on it;
 * - when the API has refused every request for longer than the Max Rate Limit Wait, the run gives
 *   up: the refused request and every item not yet done fail with an error saying so, and nothing
 *   more is sent.
 */
export class RequestPace {
	private inFlight = 0;
	private itemsUnderWay = 0;
	private readonly requests: Waiter[] = [];
	private readonly items: Waiter[] = [];
	private pausedUntil = 0;
	private ratePerSecond = Infinity;
	private tokens = 0;
	private tokensAt = 0;
	private rateGrownAt = 0;
	/** Incremented at each slow-down: refusals of requests sent before it count once. */
	private slowDowns = 0;
	private refusingSince?: number;
	private refusalsInARow = 0;
	/** The most requests in flight now: Parallel Requests, fewer after an API refused more. */
	private inFlightCap: number;
	private inFlightCappedAt = 0;
	/** Since when the rate is counted: the run's first request, or the last slow-down. */
	private countingSince?: number;
	/** The answers (not refusals) since then. */
	private acceptedSince = 0;
	/** The most requests in flight, as counted when one was sent, that the API answered since then. */
	private acceptedInFlight = 0;
	/** When the pending wait for the next turn ends, if one is pending. */
	private wakeAt?: number;
	/** The waits under way, ended when the run gives up or the execution is cancelled. */
	private readonly waits = new Set<AbortController>();
	private gaveUp?: { since: number; until: number; error: NodeApiError };

	constructor(
		readonly settings: PaceSettings,
		/** The execution's: cancelling it ends the pace's waits (see wait). */
		private readonly cancelled?: AbortSignal,
	) {
		this.inFlightCap = settings.parallelRequests;
	}

	/**
	 * Runs one item's work once fewer than twice Parallel Requests items are under way. Items are
	 * let in one event-loop turn apart, so that n8n serves other work between them.
	 */
	async forItem<T>(context: ErrorContext, work: () => Promise<T>): Promise<T> {
		if (
			this.itemsUnderWay >= ITEMS_PER_REQUEST * this.settings.parallelRequests ||
			this.items.length > 0
		) {
			await new Promise<void>((grant, refuse) => this.items.push({ grant: () => grant(), refuse }));
		}
		this.throwIfGivenUp(context);
		this.itemsUnderWay++;
		try {
			return await work();
		} finally {
			this.itemsUnderWay--;
			const next = this.items.shift();
			// The next item starts in a later turn of the event loop.
			if (next) void sleep(0).then(() => next.grant(this.turnNow()));
		}
	}

	/**
	 * Sends a request in its turn (unless `whenTurnComes` then gives a reason not to), and again while the API refuses it (until the run gives up) or,
	 * for a read (`repeatable`), while it fails for a passing reason (a few times, with backoff).
	 * Every failure leaves as an item error (see toItemError).
	 */
	async send<T>(
		context: ErrorContext,
		attempt: () => Promise<T>,
		{
			repeatable,
			whenTurnComes,
		}: { repeatable: boolean; whenTurnComes?: () => Promise<Error | undefined> },
	): Promise<T> {
		for (let retry = 0, again = false; ; again = true) {
			const turn = await this.turn(context, again);
			// The caller's last word on whether the request goes (e.g. not once its run has stopped):
			// its reason leaves as it is.
			const heldBack = await whenTurnComes?.();
			if (heldBack) {
				this.inFlight--;
				this.wake();
				throw heldBack;
			}
			let failure: unknown;
			try {
				this.throwIfGivenUp(context);
				const answer = await attempt();
				this.accepted(turn);
				return answer;
			} catch (error) {
				failure = error;
			} finally {
				this.inFlight--;
				this.wake();
			}
			const refusal = refusalOf(failure);
			if (refusal) {
				// Given up while this turn waited, or while its request was out.
				this.throwIfGivenUp(context);
				this.refused(context, refusal.waitMs, turn, failure);
				continue;
			}
			this.accepted(turn);
			// Any other failure is the item's own, also after the run gave up: a write that failed so
			// may have been done, which the give-up's "nothing was written" would deny.
			const delay = repeatable ? retryDelayMs(failure, retry++) : undefined;
			if (delay === undefined) throw toItemError(context, failure);
			this.throwIfGivenUp(context);
			await this.wait(delay);
		}
	}

	/**
	 * Waits until the run may send one more request (a request sent again goes first); the turn
	 * holds a place in flight.
	 */
	private async turn(context: ErrorContext, again: boolean): Promise<Turn> {
		this.throwIfGivenUp(context);
		return await new Promise<Turn>((grant, refuse) => {
			const waiter = { grant, refuse };
			if (again) this.requests.unshift(waiter);
			else this.requests.push(waiter);
			this.wake();
		});
	}

	/** Grants every turn that may go now, and sets a timer for the next that may go later. */
	private wake(): void {
		while (this.requests.length > 0 && this.inFlight < this.currentInFlightCap()) {
			const now = Date.now();
			const waitMs = this.pausedUntil > now ? this.pausedUntil - now : this.msUntilToken(now);
			if (waitMs > 0) {
				this.wakeIn(waitMs);
				return;
			}
			this.tokens -= 1;
			this.inFlight++;
			if (this.countingSince === undefined) {
				this.countingSince = now;
				this.rateGrownAt = now;
			}
			this.requests.shift()!.grant(this.turnNow());
		}
	}

	private turnNow(): Turn {
		return { slowDowns: this.slowDowns, inFlight: this.inFlight };
	}

	/** The in-flight cap, one higher for each quiet spell since it was lowered (up to the budget). */
	private currentInFlightCap(): number {
		const { parallelRequests } = this.settings;
		if (this.inFlightCap < parallelRequests) {
			const spells = Math.floor((Date.now() - this.inFlightCappedAt) / IN_FLIGHT_GROWTH_MS);
			if (spells > 0) {
				this.inFlightCap = Math.min(parallelRequests, this.inFlightCap + spells);
				this.inFlightCappedAt += spells * IN_FLIGHT_GROWTH_MS;
			}
		}
		return this.inFlightCap;
	}

	/**
	 * Waits `ms`, unless the pace stops meanwhile. Each wait has a signal of its own: n8n's
	 * sleepWithAbort leaves its listener on the signal, which a shared one would pile up.
	 */
	private async wait(ms: number): Promise<void> {
		const wait = new AbortController();
		// Listened to only while waiting: a listener for each run of a long loop would pile up on the
		// execution's signal.
		const cancel = () => this.stop(new Error('The execution was cancelled'));
		this.waits.add(wait);
		this.cancelled?.addEventListener('abort', cancel, { once: true });
		if (this.cancelled?.aborted) cancel();
		try {
			await waitBeforeRetry(ms, wait.signal);
		} finally {
			this.waits.delete(wait);
			this.cancelled?.removeEventListener('abort', cancel);
		}
	}

	/** Wakes the queue in `ms`, unless a wait that ends sooner is pending. */
	private wakeIn(ms: number): void {
		const at = Date.now() + ms;
		if (this.wakeAt !== undefined && this.wakeAt <= at) return;
		this.wakeAt = at;
		void this.wait(ms).then(
			() => {
				if (this.wakeAt === at) this.wakeAt = undefined;
				this.wake();
			},
			// Stopped: every turn has been refused.
			() => undefined,
		);
	}

	/** How long until the rate allows one more request (0 without a rate). */
	private msUntilToken(now: number): number {
		if (this.ratePerSecond === Infinity) {
			this.tokens = 1;
			return 0;
		}
		const capacity = Math.max(1, this.ratePerSecond * BURST_SECONDS);
		if (now > this.tokensAt) {
			this.tokens = Math.min(
				capacity,
				this.tokens + ((now - this.tokensAt) / 1000) * this.ratePerSecond,
			);
			this.tokensAt = now;
		}
		return this.tokens >= 1 ? 0 : ((1 - this.tokens) / this.ratePerSecond) * 1000;
	}

	/** The API answered (whatever it said, it did not refuse): the run may speed up again. */
	private accepted(turn: Turn): void {
		const now = Date.now();
		if (turn.slowDowns === this.slowDowns)
			this.acceptedInFlight = Math.max(this.acceptedInFlight, turn.inFlight);
		this.refusingSince = undefined;
		this.refusalsInARow = 0;
		this.acceptedSince++;
		if (this.ratePerSecond !== Infinity) {
			if (now > this.rateGrownAt) {
				this.ratePerSecond *= 1 + (RATE_GROWTH_PER_SECOND * (now - this.rateGrownAt)) / 1000;
				this.rateGrownAt = now;
			}
		}
	}

	/**
	 * The API refused a request: pause every request of the run, slow down once per refusal that
	 * follows requests sent since the last slow-down, and give up when the pause would end past the
	 * Max Rate Limit Wait (counted from the first refusal since the API last answered).
	 */
	private refused(
		context: ErrorContext,
		waitMs: number | undefined,
		turn: Turn,
		error: unknown,
	): void {
		const now = Date.now();
		this.refusingSince ??= now;
		if (turn.slowDowns === this.slowDowns) {
			this.slowDowns++;
			this.refusalsInARow++;
			// A Retry-After of 0 asks for no slower pace; the refusals that follow each other without
			// an answer in between do, whatever it says.
			if (waitMs !== 0) this.slowDown(now, turn.inFlight);
		}
		const backoff =
			this.refusalsInARow < 2
				? 0
				: Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (this.refusalsInARow - 2));
		this.pausedUntil = Math.max(
			this.pausedUntil,
			now + Math.max(waitMs ?? FIRST_PAUSE_MS, backoff),
		);
		// The rate grows again from the pause's end.
		this.rateGrownAt = Math.max(this.rateGrownAt, this.pausedUntil);
		if (this.pausedUntil - this.refusingSince > this.settings.maxRateLimitWaitMs) {
			this.giveUp(context, error);
		}
	}

	/**
	 * Sends from now on with fewer requests in flight, when the refused one was sent with more in
	 * flight than any the API answered (an API that limits requests in flight, or one too many at
	 * the start); otherwise at a little less than the rate the API accepted since the last slow-down.
	 */
	private slowDown(now: number, inFlightAtSend: number): void {
		const countedFor = now - (this.countingSince ?? now);
		if (inFlightAtSend > this.acceptedInFlight || countedFor < SHORTEST_RATE_WINDOW_MS) {
			const answered =
				this.acceptedInFlight > 0
					? Math.min(this.acceptedInFlight, inFlightAtSend - 1)
					: inFlightAtSend - 1;
			this.inFlightCap = Math.max(1, Math.min(this.inFlightCap, answered));
			this.inFlightCappedAt = now;
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

	private giveUp(context: ErrorContext, lastRefusal: unknown): void {
		const refusal = toItemError(context, lastRefusal) as NodeApiError;
		this.gaveUp = { since: this.refusingSince!, until: this.pausedUntil, error: refusal };
		const error = this.givenUpError(context);
		this.stop(error);
		throw error;
	}

	private givenUpError(context: ErrorContext): NodeApiError {
		const { since, until, error } = this.gaveUp!;
		const refusedFor = Date.now() - since;
		const refused = `refus${refusedFor < 1000 ? 'ed' : 'ing'} requests as rate-limited (HTTP ${error.httpCode})`;
		return new NodeApiError(
			context.getNode(),
			(error.errorResponse ?? {}) as IDataObject as never,
			{
				message:
					refusedFor < 1000
						? `The API ${refused}${itemSuffix(context)}`
						: `The API kept ${refused} for ${describeDuration(refusedFor)}${itemSuffix(context)}`,
				description: [
					`It refused every request from ${new Date(since).toISOString()} on, and asked to wait until ${new Date(until).toISOString()}: past '${maxRateLimitWaitField.displayName}' (${describeDuration(this.settings.maxRateLimitWaitMs)}).`,
					'Nothing more was sent for this item, and nothing was written for it.',
					`Run it again later, lower '${parallelRequestsField.displayName}' under Request Options, or raise '${maxRateLimitWaitField.displayName}' there.`,
					error.message && `The API's last answer: ${asSentence(error.message)}`,
				]
					.filter(Boolean)
					.join(' '),
				httpCode: error.httpCode ?? undefined,
				itemIndex: context.getItemIndex?.(),
			},
		);
	}

	private throwIfGivenUp(context: ErrorContext): void {
		if (this.gaveUp) throw this.givenUpError(context);
	}

	/** Refuses every waiting turn and ends the waits (the run gave up, or the execution was cancelled). */
	private stop(error: unknown): void {
		for (const wait of this.waits) wait.abort();
		for (const waiter of [...this.requests.splice(0), ...this.items.splice(0)])
			waiter.refuse(error);
	}
}

/** The paces of the runs under way, by the run of the node (shared/nodeRun.ts). */
const paces = new WeakMap<object, RequestPace>();

/** What the pace reads of an item's context. */
export type PaceContext = ParameterContext & {
	getExecutionCancelSignal?(): AbortSignal | undefined;
};

/**
 * The node's Request Options that set its pace, read and checked once per run (at the first item
 * that comes). A list of a node saved by 0.2.0 may set Parallel Requests under its Options instead
 * (listFields.ts).
 */
function paceSettings(context: PaceContext): PaceSettings {
	const options = new ItemParameters(context);
	const parallelRequests = (collection: Field) =>
		options.number(parallelRequestsField, { min: 1, max: 20 }, collection);
	// Only a list has the Options of 0.2.0 (reading a field the operation lacks fails).
	const setInVersion1Options =
		context.getNodeParameter(`${listOptionsField.name}.${parallelRequestsField.name}`, null) !==
		null;
	const maxRateLimitWait =
		options.number(maxRateLimitWaitField, { min: 1 }, requestOptionsProperty) ??
		(maxRateLimitWaitField.default as number);
	return {
		parallelRequests: Math.floor(
			parallelRequests(requestOptionsProperty) ??
				(setInVersion1Options ? parallelRequests(listOptionsField) : undefined) ??
				(parallelRequestsField.default as number),
		),
		maxRateLimitWaitMs: maxRateLimitWait * 1000,
	};
}

/** The pace of `run` (one per run of the node, shared by its items); `context` is one of its items. */
export function paceOf(run: object, context: PaceContext): RequestPace {
	let pace = paces.get(run);
	if (!pace) {
		pace = new RequestPace(paceSettings(context), context.getExecutionCancelSignal?.());
		paces.set(run, pace);
	}
	return pace;
}
