/**
 * Fake clocks, each faking one thing so that everything else keeps its real timers. Trigger tests
 * fake only Date: the sandbox, the HTTP client and the retry backoff run in real time while the
 * trigger sees the time the test sets. Tests of the sandbox's rate limit fake process.hrtime, by
 * which its bucket refills (the node's pace keeps its own clock, performance.now()), and
 * setTimeout, by which its latency ends, so that a busy machine's slow requests refill or answer
 * nothing the test did not say.
 */
import type { SandboxSuite } from './sandbox';

const FAKEABLE_TIMERS = [
	'Date',
	'hrtime',
	'nextTick',
	'performance',
	'queueMicrotask',
	'requestAnimationFrame',
	'cancelAnimationFrame',
	'requestIdleCallback',
	'cancelIdleCallback',
	'setImmediate',
	'clearImmediate',
	'setInterval',
	'clearInterval',
	'setTimeout',
	'clearTimeout',
] as const;

/** Fakes only `faked`; the other timers stay real. Ended by jest.useRealTimers(). */
export function fakeOnly(faked: Array<(typeof FAKEABLE_TIMERS)[number]>, now?: Date) {
	jest.useFakeTimers({
		doNotFake: FAKEABLE_TIMERS.filter((timer) => !faked.includes(timer)),
		now,
	});
}

export function useFakeDate(isoDateTime: string) {
	fakeOnly(['Date'], new Date(isoDateTime));
}

export function setClock(isoDateTime: string) {
	jest.setSystemTime(new Date(isoDateTime));
}

export function advanceClock(ms: number) {
	jest.setSystemTime(Date.now() + ms);
}

/** The store's collections that trigger tests change: the lists of the created-or-updated events. */
const CHANGED_COLLECTIONS = ['models', 'clients', 'contracts', 'products'] as const;

/**
 * For trigger suites: before each test the fake clock stands at `isoDateTime`; after each, real
 * timers, and the sandbox's models, clients, contracts and products and its options (its clock too)
 * as they were seeded.
 */
export function useFakeDateOverSeededData(suite: SandboxSuite, isoDateTime: string) {
	const collection = (name: (typeof CHANGED_COLLECTIONS)[number]) =>
		suite.sandbox.store[name] as unknown[] | Map<unknown, unknown>;
	let seeded: Map<string, unknown[] | Map<unknown, unknown>>;
	beforeEach(() => {
		seeded ??= new Map(
			CHANGED_COLLECTIONS.map((name) => [name, structuredClone(collection(name))]),
		);
		useFakeDate(isoDateTime);
	});
	afterEach(() => {
		jest.useRealTimers();
		suite.sandbox.setOptions({ maxPageSize: undefined, faults: null, clockOffsetMs: undefined });
		for (const name of CHANGED_COLLECTIONS) {
			const current = collection(name);
			const restored = structuredClone(seeded.get(name)!);
			if (Array.isArray(current)) current.splice(0, current.length, ...(restored as unknown[]));
			else {
				current.clear();
				for (const [key, value] of restored as Map<unknown, unknown>) current.set(key, value);
			}
		}
	});
}
