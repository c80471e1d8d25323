import { sleep } from 'n8n-workflow';

/**
 * What keeps back the items that have sent nothing yet after an item's request failed, in a run that
 * a failure stops (Continue On Fail off): until a turn of the event loop after the failure is handed
 * to the item (a 404, which the item takes as its answer, no such record, or fails on at once), or
 * until the item's work has ended (any other failure: the item may read again first, e.g. to learn
 * whether a failed write was done).
 */
type Hold = { until: 'handed over' | 'item end' };

/**
 * The holds of one pace (requestPace.ts). A failed answer holds from the moment it reaches the node
 * (RequestPace.failedAnswer) until its item has shown what the failure means: it failed, and its run
 * stopped before another item could start, or it went on. n8n's engine takes a while to hand the
 * answer over as the item's failure (it reads the credential to hide it from the error, which in n8n
 * may wait on its database; an item may read again to learn whether its failed write was done),
 * during which a fast API would otherwise answer other requests and free turns for new items.
 */
export class PaceHolds {
	private readonly holds = new Map<number, Hold>();
	/** The items at work (RequestPace.forItem), each with whether it has sent a request in it yet. */
	private readonly working = new Map<number, boolean>();

	constructor(
		/** Whether a failure stops the run: otherwise nothing holds. */
		private readonly failureStops: boolean,
		/** Lets the waiting requests go that now may. */
		private readonly wake: () => void,
	) {}

	/**
	 * Does item `item`'s `work` (a phase of it); when it ends, so does the item's hold. After a failure
	 * the hold ends a turn of the event loop later, once the failure has reached the item's run and
	 * stopped it (in microtasks, nodeRun.ts), so that no item held back starts before it knows.
	 */
	async during<T>(item: number | undefined, work: () => Promise<T>): Promise<T> {
		if (item === undefined) return await work();
		this.working.set(item, false);
		let failed = true;
		try {
			const done = await work();
			failed = false;
			return done;
		} finally {
			this.working.delete(item);
			const hold = this.holds.get(item);
			if (hold && !failed) this.release(item, hold);
			else if (hold) void sleep(0).then(() => this.release(item, hold));
		}
	}

	/** An answer to item `item`'s request failed with HTTP `status` (0: no answer came). */
	failed(item: number | undefined, status: number): void {
		if (!this.failureStops || item === undefined || !this.working.has(item)) return;
		if (this.holds.get(item)?.until === 'item end') return;
		this.holds.set(item, { until: status === 404 ? 'handed over' : 'item end' });
	}

	/**
	 * Item `item`'s failure is handed to the item: one without an answer (a dropped connection, a
	 * timeout) holds as an answer's would; a 404's hold ends a turn of the event loop later, once the
	 * item has taken it as its answer or failed on it (in microtasks).
	 */
	handedOver(item: number | undefined): void {
		if (item === undefined) return;
		const hold = this.holds.get(item);
		if (!hold) this.failed(item, 0);
		else if (hold.until === 'handed over') void sleep(0).then(() => this.release(item, hold));
	}

	/** Ends item `item`'s hold: the pace sends its failed request again, which is no item's failure. */
	release(item: number | undefined, hold = item === undefined ? undefined : this.holds.get(item)) {
		if (item === undefined || !hold || this.holds.get(item) !== hold) return;
		this.holds.delete(item);
		this.wake();
	}

	/**
	 * The first of `waiting` (requests, by the item each is of) that may go: while an item's failure
	 * holds, a request that would be its item's first waits, and those behind it of items at work go
	 * first. -1 when none may.
	 */
	nextOf(waiting: Array<{ item?: number }>): number {
		if (this.holds.size === 0) return waiting.length > 0 ? 0 : -1;
		return waiting.findIndex(({ item }) => !this.opens(item));
	}

	/** Whether a request of item `item` that goes now is the first it sends in its work. */
	opening(item: number | undefined): boolean {
		if (!this.opens(item)) return false;
		this.working.set(item!, true);
		return true;
	}

	private opens(item: number | undefined): boolean {
		return item !== undefined && this.working.get(item) === false;
	}
}
