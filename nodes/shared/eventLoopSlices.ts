import { sleep } from 'n8n-workflow';

/*
 * Work done for every item of a run before its first request (reading and checking its fields)
 * costs little per item, but a run has thousands: done at once, it holds the n8n process's event
 * loop for seconds, in which n8n answers no webhook, no editor and no health check. Such work waits
 * here for a later turn of the event loop, and runs in slices: the items' work in the order it
 * came, until a slice has run SLICE_MS or SLICE_ITEMS items, then n8n's other work goes first.
 * One queue for the whole process, since every run of every node shares its one event loop.
 */

/** How long a slice may hold the event loop: well under what a health check waits for. */
const SLICE_MS = 20;
/** The most items a slice runs, however fast the machine runs them. */
const SLICE_ITEMS = 100;

const queued: Array<() => void> = [];
/** The next item of `queued` to run (the ones before it have run). */
let next = 0;
let running = false;

/** Runs `work` in a slice of a later turn of the event loop, with the queued work before it. */
export async function inEventLoopSlice<T>(work: () => T): Promise<T> {
	return await new Promise<T>((resolve, reject) => {
		queued.push(() => {
			try {
				resolve(work());
			} catch (error) {
				reject(error);
			}
		});
		if (!running) {
			running = true;
			void runSlices();
		}
	});
}

async function runSlices(): Promise<void> {
	while (next < queued.length) {
		await sleep(0);
		const sliceEnds = performance.now() + SLICE_MS;
		const lastOfSlice = next + SLICE_ITEMS;
		while (next < queued.length && next < lastOfSlice && performance.now() < sliceEnds)
			queued[next++]();
	}
	queued.length = 0;
	next = 0;
	running = false;
}

/** When the event loop's current turn was first seen running this package's work. */
let turnSeenSince: number | undefined;

/**
 * Whether the event loop's current turn has run this package's work for SLICE_MS or longer: work
 * that could go on at once then waits for a later turn.
 */
export function eventLoopHeldLong(): boolean {
	const now = performance.now();
	if (turnSeenSince === undefined) {
		turnSeenSince = now;
		void sleep(0).then(() => (turnSeenSince = undefined));
	}
	return now - turnSeenSince >= SLICE_MS;
}
