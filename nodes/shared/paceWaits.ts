import { monotonicNow } from './paceLimits';
import { waitBeforeRetry } from './retry';

/**
 * The waits of a pace (requestPace.ts): a retry's backoff, and the wait until the next turn may go.
 * All end when the pace stops (abortAll) or the execution is cancelled.
 */
export class PaceWaits {
	/** The waits under way. */
	private readonly waits = new Set<AbortController>();
	/** When the pending wait for the next turn ends, if one is pending. */
	private wakeAt?: number;

	constructor(
		/** The execution's: cancelling it ends the waits, and `onCancel` is called. */
		private readonly cancelled: AbortSignal | undefined,
		private readonly onCancel: () => void,
	) {}

	/**
	 * Waits `ms`, unless the pace stops meanwhile. Each wait has a signal of its own: n8n's
	 * sleepWithAbort leaves its listener on the signal, which a shared one would pile up.
	 */
	async wait(ms: number): Promise<void> {
		const wait = new AbortController();
		// Listened to only while waiting: a listener for each run of a long loop would pile up on the
		// execution's signal.
		const cancel = () => this.onCancel();
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

	/** Calls `wake` in `ms`, unless a wait that ends sooner is pending. */
	wakeIn(ms: number, wake: () => void): void {
		const at = monotonicNow() + ms;
		if (this.wakeAt !== undefined && this.wakeAt <= at) return;
		this.wakeAt = at;
		void this.wait(ms).then(
			() => {
				if (this.wakeAt === at) this.wakeAt = undefined;
				wake();
			},
			// Stopped: every turn has been refused.
			() => undefined,
		);
	}

	/** Ends every wait under way. */
	abortAll(): void {
		for (const wait of this.waits) wait.abort();
	}
}
