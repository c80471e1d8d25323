import type { NodeApiError } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { ErrorContext } from './errors';
import { toItemError } from './errors';
import { PaceLimits, monotonicNow } from './paceLimits';
import type { GaveUp } from './paceRefusals';
import { gaveUpAt, givenUpError, refusalOf } from './paceRefusals';
import { retryDelayMs, waitBeforeRetry } from './retry';

// A refusal without Retry-After pauses the run this long; refusals in a row without an answer in
// between pause it this long from the second on, doubled each time (whatever Retry-After says).
const FIRST_PAUSE_MS = 500;
const MAX_PAUSE_MS = 30_000;
// Items under way per request in flight: while one item reads its fields or its answer, another's
// request takes the free turn.
const ITEMS_PER_REQUEST = 2;

/** What the node's Request Options say about its pace. */
export interface PaceSettings {
	/** The most requests in flight at once, and the most items under way at once. */
	parallelRequests: number;
	/** How long the API may keep refusing every request before the items left fail. */
	maxRateLimitWaitMs: number;
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
 *   request (n8n's engine waits for none of them, see engine/itemRouting.ts);
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
	private readonly limits: PaceLimits;
	/** Incremented at each slow-down: refusals of requests sent before it count once. */
	private slowDowns = 0;
	private refusingSince?: number;
	private refusalsInARow = 0;
	/** When the pending wait for the next turn ends, if one is pending. */
	private wakeAt?: number;
	/** The waits under way, ended when the run gives up or the execution is cancelled. */
	private readonly waits = new Set<AbortController>();
	private gaveUp?: GaveUp;

	constructor(
		readonly settings: PaceSettings,
		/** The execution's: cancelling it ends the pace's waits (see wait). */
		private readonly cancelled?: AbortSignal,
	) {
		this.limits = new PaceLimits(settings.parallelRequests);
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
				// After a failure the next turn waits one turn of the event loop: a refusal first sets the
				// run's pause, and a failure that stops a run reaches its item (in microtasks) before the
				// next request may go (nodeRun.ts).
				if (failure === undefined) this.wake();
				else void sleep(0).then(() => this.wake());
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
		while (this.requests.length > 0 && this.inFlight < this.limits.inFlightCap(monotonicNow())) {
			const now = monotonicNow();
			const waitMs =
				this.pausedUntil > now ? this.pausedUntil - now : this.limits.msUntilToken(now);
			if (waitMs > 0) {
				this.wakeIn(waitMs);
				return;
			}
			this.limits.sent(now);
			this.inFlight++;
			this.requests.shift()!.grant(this.turnNow());
		}
	}

	private turnNow(): Turn {
		return { slowDowns: this.slowDowns, inFlight: this.inFlight };
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
		const at = monotonicNow() + ms;
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

	/** The API answered (whatever it said, it did not refuse): the run may speed up again. */
	private accepted(turn: Turn): void {
		this.refusingSince = undefined;
		this.refusalsInARow = 0;
		this.limits.answered(monotonicNow(), turn.inFlight, turn.slowDowns === this.slowDowns);
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
		const now = monotonicNow();
		this.refusingSince ??= now;
		if (turn.slowDowns === this.slowDowns) {
			this.slowDowns++;
			this.refusalsInARow++;
			// A Retry-After of 0 asks for no slower pace; the refusals that follow each other without
			// an answer in between do, whatever it says.
			if (waitMs !== 0) this.limits.slowDown(now, turn.inFlight);
		}
		const backoff =
			this.refusalsInARow < 2
				? 0
				: Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (this.refusalsInARow - 2));
		this.pausedUntil = Math.max(
			this.pausedUntil,
			now + Math.max(waitMs ?? FIRST_PAUSE_MS, backoff),
		);
		this.limits.growFrom(this.pausedUntil);
		if (this.pausedUntil - this.refusingSince > this.settings.maxRateLimitWaitMs) {
			this.giveUp(context, error);
		}
	}

	private giveUp(context: ErrorContext, lastRefusal: unknown): void {
		const refusal = toItemError(context, lastRefusal) as NodeApiError;
		this.gaveUp = gaveUpAt(monotonicNow(), this.refusingSince!, this.pausedUntil, refusal);
		const error = this.givenUpError(context);
		this.stop(error);
		throw error;
	}

	private givenUpError(context: ErrorContext): NodeApiError {
		return givenUpError(context, this.gaveUp!, this.settings.maxRateLimitWaitMs);
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
