import { useSandbox } from '../harness/sandbox';

const QUOTES_PATH = '/master-data/v1/quote-management/quotes';

describe('Quote: Create', () => {
	const suite = useSandbox();
	const required = () => ({
		resource: 'quote',
		operation: 'create',
		clientId: suite.fixtures.clientId,
		contractId: suite.fixtures.contractId,
		amount: 1250.5,
	});

	it('sends only the required fields when nothing else is set, and outputs the created quote', async () => {
		const { items, error } = await suite.run(required());

		expect(error).toBeUndefined();
		expect(suite.sandbox.requests.map((request) => [request.method, request.path])).toEqual([
			['POST', QUOTES_PATH],
		]);
		expect(suite.sandbox.requests[0].body).toEqual({
			clientId: suite.fixtures.clientId,
			contractId: suite.fixtures.contractId,
			amount: 1250.5,
		});
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ clientId: suite.fixtures.clientId, amount: 1250.5 });
		expect(items[0].json.id).toEqual(expect.any(String));
	});

	it('refuses a quote whose Amount was never set, before sending, and still sends a typed 0', async () => {
		// eslint-disable-next-line @typescript-eslint/no-unused-vars -- destructured to leave it out
		const { amount: _unset, ...withoutAmount } = required();
		const forgotten = await suite.run(withoutAmount, {
			items: [{}, {}],
			onError: 'continueRegularOutput',
		});

		expect(suite.sandbox.requests).toHaveLength(0);
		expect(forgotten.items.map((item) => item.json.error)).toEqual([
			"'Amount' must be set: this field is required [item 0].",
			"'Amount' must be set: this field is required [item 1].",
		]);

		await suite.run({ ...required(), amount: 0 });
		expect(
			suite.sandbox.requests.map((request) => (request.body as { amount: number }).amount),
		).toEqual([0]);
	});

	it('converts additional fields to the API formats: dates, UTC date-times, JSON metadata and booking lists', async () => {
		const bookingA = '5d0b6a7e-2c1f-4e8a-9b3d-7f6e5d4c3b2a';
		const bookingB = '6e1c7b8f-3d2a-4f9b-8c4e-8a7f6e5d4c3b';
		await suite.run(
			{
				...required(),
				additionalFields: {
					quoteId: 'Q-2024-0042',
					metadata: '{"channel":"chat","priority":2}',
					date: '2024-03-31T23:30:00',
					deadline: '2024-04-15',
					status: 'PENDING',
					bookingIds: `${bookingA}, ${bookingB}`,
					startDate: '2024-04-01T08:00:00',
					endDate: '2024-04-03T17:00:00+02:00',
					externalId: 'crm-991',
					mediaName: 'offer.pdf',
				},
			},
			{ timezone: 'Europe/Berlin' },
		);

		expect(suite.sandbox.requests[0].body).toEqual({
			clientId: suite.fixtures.clientId,
			contractId: suite.fixtures.contractId,
			amount: 1250.5,
			quoteId: 'Q-2024-0042',
			metadata: { channel: 'chat', priority: 2 },
			date: '2024-03-31',
			deadline: '2024-04-15',
			status: 'PENDING',
			bookingIds: [bookingA, bookingB],
			// Berlin is UTC+2 in April: 08:00 local is 06:00 UTC.
			startDate: '2024-04-01T06:00:00.000Z',
			endDate: '2024-04-03T15:00:00.000Z',
			externalId: 'crm-991',
			mediaName: 'offer.pdf',
		});
	});

	it('counts a date-time with an offset as its day in the workflow timezone', async () => {
		await suite.run(
			{ ...required(), additionalFields: { date: '2024-03-31T22:30:00Z' } },
			{ timezone: 'Asia/Tokyo' },
		);
		expect((suite.sandbox.requests[0].body as { date: string }).date).toBe('2024-04-01');
	});

	it.each([
		['clientId', 'not-a-uuid', "'Client' must be a UUID"],
		// An empty required field stops n8n before the run; an expression can still yield nothing.
		['contractId', '={{ "" }}', "'Contract' must be set"],
		[
			'amount',
			100_000_001,
			"'Amount' must be a number written as 1,234.56, no greater than 100000000",
		],
		['amount', '12abc', "'Amount' must be a number written as 1,234.56, no greater than 100000000"],
	])('rejects %s = %p before sending anything', async (field, value, message) => {
		const { error, items } = await suite.run({ ...required(), [field]: value });

		expect(error?.message).toContain(message);
		expect(error?.message).toContain('[item 0]');
		expect(items).toEqual([]);
		expect(suite.sandbox.requests).toHaveLength(0);
	});

	// The editor no longer clamps a typed amount (no maxValue), so every path meets the node's check.
	it.each([
		['typed', 200_000_000],
		['by expression', '={{ 200000000 }}'],
		['as text by expression', '={{ "200000000" }}'],
		['as text', '200000000'],
	])(
		'refuses an amount of 200,000,000 given %s, names it and the bound, and sends nothing',
		async (_how, amount) => {
			const { error, items } = await suite.run({ ...required(), amount });

			expect(error?.message).toBe(
				"'Amount' must be a number written as 1,234.56, no greater than 100000000 [item 0]",
			);
			expect(error?.description).toMatch(/^Received the (number 200000000|text "200000000")\.$/);
			expect(items).toEqual([]);
			expect(suite.sandbox.requests).toHaveLength(0);
		},
	);

	it('sends an amount with more than two decimals as given', async () => {
		await suite.run({ ...required(), amount: 1250.505 });
		expect((suite.sandbox.requests[0].body as { amount: number }).amount).toBe(1250.505);
	});

	it.each([
		['date', '2023-02-29', "'Date' must be a real calendar date"],
		['deadline', '31/12/2024', "'Deadline' must be a real calendar date"],
		['startDate', '2024-13-01T10:00:00', "'Start Date' must be a real date and time"],
		['metadata', '[1, 2]', "'Metadata' must be a JSON object"],
		['metadata', '{"unclosed": ', "'Metadata' must be a JSON object"],
		[
			'bookingIds',
			'5d0b6a7e-2c1f-4e8a-9b3d-7f6e5d4c3b2a, ..',
			"'Booking IDs' must be a list of identifiers",
		],
		['mediaId', '123', "'Media ID' must be a UUID"],
		['quoteId', '..', "'Quote ID' must be a non-empty identifier"],
	])(
		'rejects the additional field %s = %p before sending anything',
		async (field, value, message) => {
			const { error } = await suite.run({ ...required(), additionalFields: { [field]: value } });

			expect(error?.message).toContain(message);
			expect(suite.sandbox.requests).toHaveLength(0);
		},
	);

	it('validates values coming from expressions per item, and fails only the bad item with Continue on Fail', async () => {
		const { items } = await suite.run(
			{
				...required(),
				clientId: '={{ $json.client }}',
				amount: '={{ $json.amount }}',
			},
			{
				items: [
					{ client: suite.fixtures.clientId, amount: 10 },
					{ client: suite.fixtures.clientId, amount: 'ten' },
					{ client: suite.fixtures.clientId, amount: '30' },
				],
				onError: 'continueRegularOutput',
			},
		);

		expect(
			suite.sandbox.requests.map((request) => (request.body as { amount: number }).amount),
		).toEqual(expect.arrayContaining([10, 30]));
		expect(suite.sandbox.requests).toHaveLength(2);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[1].json.error).toContain(
			"'Amount' must be a number written as 1,234.56, no greater than 100000000 [item 1]",
		);
		expect(items[0].json.amount).toBe(10);
		expect(items[2].json.amount).toBe(30);
	});
});
