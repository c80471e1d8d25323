/**
 * A fake clock for trigger tests: only Date is faked, so that the sandbox, the HTTP client and the
 * retry backoff keep their real timers while the trigger sees the time the test sets.
 */
import type { SandboxSuite } from './sandbox';

const REAL_TIMERS = [
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

export function useFakeDate(isoDateTime: string) {
	jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: new Date(isoDateTime) });
}

export function setClock(isoDateTime: string) {
	jest.setSystemTime(new Date(isoDateTime));
}

export function advanceClock(ms: number) {
	jest.setSystemTime(Date.now() + ms);
}

/**
 * For trigger suites: before each test the fake clock stands at `isoDateTime`; after each, real
 * timers, and the sandbox's models and options (its clock too) as they were seeded.
 */
export function useFakeDateOverSeededModels(suite: SandboxSuite, isoDateTime: string) {
	const models = () => suite.sandbox.store.models as unknown[];
	let seededModels: unknown[];
	beforeEach(() => {
		seededModels ??= structuredClone(models());
		useFakeDate(isoDateTime);
	});
	afterEach(() => {
		jest.useRealTimers();
		suite.sandbox.setOptions({ maxPageSize: undefined, faults: null, clockOffsetMs: undefined });
		models().splice(0, models().length, ...structuredClone(seededModels));
	});
}
