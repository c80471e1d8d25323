/**
 * The spread of a run's requests over its round trip (nodes/shared/paceLimits.ts), on the pace's
 * own clock: the times are given, not waited for. The run's requests through n8n's engine are in
 * requestPace.test.ts.
 */
import { PaceLimits } from '../../nodes/shared/paceLimits';

describe('The spread of requests over the round trip', () => {
	it('sends at once until an answer tells the round trip', () => {
		const limits = new PaceLimits(5);
		for (const at of [0, 0, 0]) {
			expect(limits.msUntilToken(at)).toBe(0);
			limits.sent(at);
		}
	});

	it('then keeps requests half the round trip divided by the requests in flight apart', () => {
		const limits = new PaceLimits(5);
		limits.sent(0);
		limits.answered(40, 1, true, 0);
		limits.sent(40);

		expect(limits.msUntilToken(40)).toBeCloseTo(4);
		expect(limits.msUntilToken(43)).toBeCloseTo(1);
		expect(limits.msUntilToken(44)).toBe(0);
	});

	it('follows the round trip as answers come: a slower API, a wider spread', () => {
		const limits = new PaceLimits(5);
		limits.sent(0);
		limits.answered(40, 1, true, 0);
		for (let at = 100; at < 2000; at += 100) {
			limits.sent(at);
			limits.answered(at + 80, 1, true, at);
		}

		expect(limits.msUntilToken(1900)).toBeCloseTo(8, 0);
	});

	it('does not spread the requests to an API that answers within a timer tick per request in flight', () => {
		const limits = new PaceLimits(5);
		limits.sent(0);
		limits.answered(9, 1, true, 0);
		limits.sent(9);

		expect(limits.msUntilToken(9)).toBe(0);
	});
});
