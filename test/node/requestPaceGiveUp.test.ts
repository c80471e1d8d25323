/**
 * The run's pace (nodes/shared/requestPace.ts) once it has given up, taken alone:
 * the moment two requests' answers cross cannot be timed through n8n's engine. A request that was
 * out when the run gave up and then failed for another reason than a refusal fails with its own
 * error, since a write that failed so may have been done, which the give-up's error would deny.
 */
import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { RequestPace } from '../../nodes/shared/requestPace';

const node = {
	name: 'Equipment Rental',
	type: 'n8n-nodes-equipment-rental.equipmentRental',
} as INode;
const itemContext = (itemIndex: number) => ({ getNode: () => node, getItemIndex: () => itemIndex });
const answer = (httpCode: string, message: string) =>
	new NodeApiError(node, {}, { httpCode, message });

function refusal(retryAfterSeconds: number): NodeApiError {
	const error = answer('429', 'Too many requests');
	error.context = { retryAfterSeconds };
	return error;
}

/**
 * A run of two requests in flight that gives up: item 0's request is out, item 1's is refused for
 * longer than the Max Rate Limit Wait. `answerOutstanding` then fails item 0's request.
 */
async function gaveUpWithOneOutstanding(repeatable: boolean) {
	const pace = new RequestPace({ parallelRequests: 2, maxRateLimitWaitMs: 1000 });
	let answerOutstanding!: (error: unknown) => void;
	const outstanding = pace.send(
		itemContext(0),
		async () =>
			await new Promise((_answer, fail) => {
				answerOutstanding = fail;
			}),
		{ repeatable },
	);
	const refusedTooLong = async () => {
		throw refusal(60);
	};
	await expect(pace.send(itemContext(1), refusedTooLong, { repeatable })).rejects.toThrow(
		/^The API refused requests as rate-limited \(HTTP 429\) \[item 1\]$/,
	);
	return { pace, outstanding, answerOutstanding };
}

describe('A run that gave up', () => {
	it("fails a request that was out then and failed otherwise with that failure, not with the give-up's error", async () => {
		const { pace, outstanding, answerOutstanding } = await gaveUpWithOneOutstanding(false);

		answerOutstanding(answer('500', 'The server failed'));

		await expect(outstanding).rejects.toThrow('The server failed');
		// Nothing is sent once it has given up.
		await expect(
			pace.send(itemContext(2), async () => 'sent', { repeatable: true }),
		).rejects.toThrow(/rate-limited/);
	});

	it('fails a request that was out then and was refused too with the give-up error', async () => {
		const { outstanding, answerOutstanding } = await gaveUpWithOneOutstanding(true);

		answerOutstanding(refusal(1));

		await expect(outstanding).rejects.toThrow(
			/^The API refused requests as rate-limited \(HTTP 429\) \[item 0\]$/,
		);
	});
});
