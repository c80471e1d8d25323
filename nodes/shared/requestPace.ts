import type { NodeApiError } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { ErrorContext } from './errors';
import { toItemError } from './errors';
import { eventLoopHeldLong } from './eventLoopSlices';
import { PaceHolds } from './paceHolds';
import { PaceLimits, monotonicNow } from './paceLimits';
import type { GaveUp } from './paceRefusals';
import { gaveUpAt, givenUpError, refusalOf } from './paceRefusals';
import { PaceWaits } from './paceWaits';
import { retryDelayMs } from './retry';

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
	/** The item whose request it is, where it is an item's (see forItem). */
	item?: number;
}

/** What the run was doing when a request's turn came. */
interface Turn {
	/** The slow-downs so far: a refusal of a request sent before the last one counts once. */
	slowDowns: number;
	/** The requests in flight, this one included. */
	inFlight: number;
	/** Whether the request is the first its item sends in its work (see forItem). */
	opening: boolean;
	/** When the turn was granted (monotonicNow). */
	sentAt: number;
}

/**
 * The pace of one run of the node. Every request of the run (every item, every page of a Return
 * All, a Create or Update's look-up and write) waits for its turn here:
 * - at most Parallel Requests are in flight, and at most twice that many items are under way, so
 *   that items are read and checked as their turn comes rather than all at once before the first
 *   request (n8n's engine waits for none of them, see engine/itemRouting.ts);
 * - requests are kept apart by half their share of the round trip, lest they come back at once;
 * - a refusal (429, or 503 with Retry-After) pauses every request of the run until its
 *   Retry-After (or a backoff), then the run goes on at a little less than the rate the API had
 *   accepted, speeding up again while answers come: it keeps to the API's pace by itself. The
 *   refused request is sent again first, a write too, since the API did not act on it;
 * - when the API has refused every request for longer than the Max Rate Limit Wait, the run gives
 *   up: the refused request and every item not yet done fail with an error saying so, and nothing
 *   more is sent;
 * - in a run that a failure stops, a failed answer holds back every item that has sent nothing yet
 *   in its work, from the moment it reaches the node until its item has shown whether the run
 *   stops (paceHolds.ts).
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
	private readonly waits: PaceWaits;
	private gaveUp?: GaveUp;
	private readonly holds: PaceHolds;

	constructor(
		readonly settings: PaceSettings,
		/** The execution's: cancelling it ends the pace's waits (paceWaits.ts). */
		cancelled?: AbortSignal,
		/** Whether a failure stops the run (Continue On Fail off): then failures hold (paceHolds.ts). */
		failureStops = false,
	) {
		this.limits = new PaceLimits(settings.parallelRequests);
		this.holds = new PaceHolds(failureStops, () => this.wake());
		this.waits = new PaceWaits(cancelled, () =>
			this.stop(new Error('The execution was cancelled')),
		);
	}

	/**
	 * Runs one item's work once fewer than twice Parallel Requests items are under way. Items are
	 * let in within a slice of the event loop (eventLoopSlices.ts), so that n8n serves other work
	 * between the slices.
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
		let failed = true;
		try {
			const done = await this.holds.during(context.getItemIndex?.(), work);
			failed = false;
			return done;
		} finally {
			this.itemsUnderWay--;
			const next = this.items.shift();
			// After a failure the next item starts in a later turn of the event loop, once the failure
			// has reached its item (which may stop the run); otherwise at once, unless the event loop
			// has run this package's work for long in this turn.
			if (next && !failed && !eventLoopHeldLong()) next.grant(this.turnNow());
			else if (next) void sleep(0).then(() => next.grant(this.turnNow()));
		}
	}

	/**
	 * Sends a request in its turn (unless `whenTurnComes` then gives a reason not to), and again
	 * while the API refuses it (until the run gives up) or, for a read (`repeatable`), while it fails
	 * for a passing reason (a few times, with backoff). Every failure leaves as an item error.
	 */
	async send<T>(
		context: ErrorContext,
		attempt: () => Promise<T>,
		{
			repeatable,
			whenTurnComes,
		}: {
			repeatable: boolean;
			whenTurnComes?: (opening: boolean) => Promise<Error | undefined>;
		},
	): Promise<T> {
		const item = context.getItemIndex?.();
		for (let retry = 0, again = false; ; again = true) {
			const turn = await this.turn(context, again, item);
			// The caller's last word on whether the request goes (e.g. not an item's first once its run
			// has stopped): its reason leaves as it is.
			const reasonNotToSend = await whenTurnComes?.(turn.opening);
			if (reasonNotToSend) {
				this.inFlight--;
				this.wake();
				throw reasonNotToSend;
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
				// Sent again by the pace, once the pause is set: no item's failure.
				this.holds.release(item);
				continue;
			}
			this.accepted(turn);
			// Any other failure is the item's own, also after the run gave up: a write that failed so
			// may have been done, which the give-up's "nothing was written" would deny.
			const delay = repeatable ? retryDelayMs(failure, retry++) : undefined;
			if (delay === undefined) {
				this.holds.handedOver(item);
				throw toItemError(context, failure);
			}
			this.holds.release(item);
			this.throwIfGivenUp(context);
			await this.waits.wait(delay);
		}
	}

	/** An answer to item `item`'s request failed with HTTP `status`, as it reaches the node. */
	failedAnswer(item: number | undefined, status: number): void {
		this.holds.failed(item, status);
	}

	/**
	 * Waits until the run may send one more request (a request sent again goes first); the turn
	 * holds a place in flight.
	 */
	private async turn(context: ErrorContext, again: boolean, item?: number): Promise<Turn> {
		this.throwIfGivenUp(context);
		return await new Promise<Turn>((grant, refuse) => {
			const waiter = { grant, refuse, item };
			if (again) this.requests.unshift(waiter);
			else this.requests.push(waiter);
			this.wake();
		});
	}

	/**
	 * Grants every turn that may go now (an item's first request waits while a failure holds,
	 * paceHolds.ts), and sets a timer for the next that may go later.
	 */
	private wake(): void {
		while (this.inFlight < this.limits.inFlightCap(monotonicNow())) {
			const next = this.holds.nextOf(this.requests);
			if (next < 0) return;
			const now = monotonicNow();
			const waitMs =
				this.pausedUntil > now ? this.pausedUntil - now : this.limits.msUntilToken(now);
			if (waitMs > 0) {
				this.waits.wakeIn(waitMs, () => this.wake());
				return;
			}
			this.limits.sent(now);
			this.inFlight++;
			const [waiter] = this.requests.splice(next, 1);
			waiter.grant(this.turnNow(this.holds.opening(waiter.item)));
		}
	}

	private turnNow(opening = false): Turn {
		return { slowDowns: this.slowDowns, inFlight: this.inFlight, opening, sentAt: monotonicNow() };
	}

	/** The API answered (whatever it said, it did not refuse): the run may speed up again. */
	private accepted(turn: Turn): void {
		this.refusingSince = undefined;
		this.refusalsInARow = 0;
		const { inFlight, slowDowns, sentAt } = turn;
		this.limits.answered(monotonicNow(), inFlight, slowDowns === this.slowDowns, sentAt);
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
		const pauseMs = Math.max(waitMs ?? FIRST_PAUSE_MS, backoff);
		this.pausedUntil = Math.max(this.pausedUntil, now + pauseMs);
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
		this.waits.abortAll();
		for (const waiter of [...this.requests.splice(0), ...this.items.splice(0)])
			waiter.refuse(error);
	}
}
