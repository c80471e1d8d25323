/* eslint-disable
	@n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * n8n answers while a big run starts (issue 43): n8n's RoutingNode calls the node for every item in
 * one synchronous loop, and the node checks every item before its first request. The checks wait
 * past that loop and run in slices, so that the n8n process's other work (a webhook, a health
 * check: here a timer) goes on between them. Through n8n's engine against the sandbox; the evidence
 * is the order of the timer's turns and the process's first request, never a time.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

import { useSandbox } from '../harness/sandbox';
import { CLIENT_SYNC } from '../harness/syncs';
import { newExternalId } from '../harness/writes';

describe("The start of a big run shares n8n's event loop", () => {
	const suite = useSandbox({ strict: true });

	/**
	 * Counts the turns of a timer armed before `run` and again at each of its turns, until the
	 * process's HTTP client starts its first request: n8n's other work gets these turns.
	 */
	async function timerTurnsBeforeFirstRequest(run: () => Promise<unknown>): Promise<number> {
		let turns = 0;
		let turnsAtFirstRequest: number | undefined;
		const firstRequest = () => (turnsAtFirstRequest ??= turns);
		subscribe('http.client.request.start', firstRequest);
		const turn = () => {
			turns++;
			if (turnsAtFirstRequest === undefined) setTimeout(turn, 0);
		};
		setTimeout(turn, 0);
		try {
			await run();
		} finally {
			unsubscribe('http.client.request.start', firstRequest);
		}
		return turnsAtFirstRequest ?? turns;
	}

	it("lets n8n's timers run between the checks of a run of 500 rows, before its first request", async () => {
		const prefix = newExternalId('SLICES');
		const rows = [...Array(500).keys()].map((index) => ({
			externalId: `${prefix}-${index}`,
			name: `Client ${index}`,
			city: 'Leipzig',
		}));
		let error: unknown;

		const turns = await timerTurnsBeforeFirstRequest(async () => {
			({ error } = await suite.run(CLIENT_SYNC, { items: rows }));
		});

		expect(error).toBeUndefined();
		expect(turns).toBeGreaterThanOrEqual(5);
	});
});
