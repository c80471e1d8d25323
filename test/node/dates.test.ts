/**
 * Dates as people write them (issue 35, point 3): every date and date-time field takes
 * `YYYY-MM-DD HH:mm[:ss]` (with a space, as CSV and Excel exports write it, or a T), `YYYY-MM-DD`,
 * ISO 8601 with an offset, and the luxon DateTime and JS Date values of n8n's expressions, read in
 * the workflow's timezone when they carry none. What the API is sent stays as before: date-times in
 * UTC ISO 8601, dates as YYYY-MM-DD. The evidence is the request the sandbox saw.
 */
import type { INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../harness/sandbox';
import { picked } from '../harness/writes';

const QUOTES_PATH = '/master-data/v1/quote-management/quotes';
const CLIENTS_PATH = '/master-data/v1/client-management/clients';
const STRUCTURE_ID = '123e4567-e89b-42d3-a456-426614174000';

describe('Dates as people write them', () => {
	const suite = useSandbox();
	const quote = (additionalFields: INodeParameters) => ({
		resource: 'quote',
		operation: 'create',
		clientId: suite.fixtures.clientId,
		contractId: suite.fixtures.contractId,
		amount: 100,
		additionalFields,
	});
	const sentBody = (index = 0) => suite.sandbox.requests[index].body as Record<string, unknown>;

	describe('a date-and-time field', () => {
		// Tokyo is UTC+9 all year: 2027-01-01 08:00 there is 2026-12-31T23:00Z.
		it.each([
			['YYYY-MM-DD HH:mm, as sheets write it', '2027-01-01 08:00', '2026-12-31T23:00:00.000Z'],
			['YYYY-MM-DD HH:mm:ss', '2027-01-01 08:00:30', '2026-12-31T23:00:30.000Z'],
			['YYYY-MM-DDTHH:mm', '2027-01-01T08:00', '2026-12-31T23:00:00.000Z'],
			['YYYY-MM-DDTHH:mm:ss', '2027-01-01T08:00:30', '2026-12-31T23:00:30.000Z'],
			['a date alone, as 00:00 that day', '2027-01-01', '2026-12-31T15:00:00.000Z'],
			['ISO 8601 with an offset', '2027-01-01T08:00:00+01:00', '2027-01-01T07:00:00.000Z'],
			['ISO 8601 in UTC', '2027-01-01T08:00:00.000Z', '2027-01-01T08:00:00.000Z'],
			['a space and an offset', '2027-01-01 08:00:00-05:00', '2027-01-01T13:00:00.000Z'],
			[
				'a luxon DateTime of an expression, at its own moment',
				"={{ DateTime.fromISO('2027-01-01T08:00', { zone: 'America/New_York' }) }}",
				'2027-01-01T13:00:00.000Z',
			],
			[
				'a JS Date of an expression',
				'={{ new Date(Date.UTC(2027, 0, 1, 7, 15)) }}',
				'2027-01-01T07:15:00.000Z',
			],
		])(
			'takes %s, read in the workflow timezone when it has no offset, and sends it in UTC',
			async (_form, startDate, sent) => {
				const { error } = await suite.run(quote({ startDate }), { timezone: 'Asia/Tokyo' });

				expect(error).toBeUndefined();
				expect(sentBody().startDate).toBe(sent);
			},
		);

		// Berlin is UTC+1 in January.
		it.each([
			[
				'Quote > Create, Start Date',
				() => quote({ startDate: '2027-01-01 08:00' }),
				() => sentBody().startDate,
			],
			[
				'Release > Update, End Date',
				() => ({
					resource: 'release',
					operation: 'update',
					releaseId: suite.fixtures.releaseId,
					updateFields: { endDate: '2027-01-01 08:00' },
				}),
				() => sentBody().endDate,
			],
			[
				'Contract > Create, Start Date',
				() => ({
					resource: 'contract',
					operation: 'create',
					clientId: picked(suite.fixtures.clientId),
					startDate: '2027-01-01 08:00',
					endDate: '2099-12-31 18:00',
					structureId: STRUCTURE_ID,
				}),
				() => sentBody().startDate,
			],
			[
				'Equipment Model > Get Many, Updated After',
				() => ({
					resource: 'equipmentModel',
					operation: 'getAll',
					limit: 1,
					filters: { updatedAfter: '2027-01-01 08:00' },
				}),
				() => suite.sandbox.requests[0].query.updatedAfter,
			],
			[
				'Client > Get Many, Updated After',
				() => ({
					resource: 'client',
					operation: 'getAll',
					limit: 1,
					filters: { updatedAfter: '2027-01-01 08:00' },
				}),
				() => suite.sandbox.requests[0].query.updatedAfter,
			],
		])('%s takes 2027-01-01 08:00 and sends it in UTC', async (_field, parameters, sentValue) => {
			const { error } = await suite.run(parameters(), { timezone: 'Europe/Berlin' });

			expect(error).toBeUndefined();
			expect(sentValue()).toBe('2027-01-01T07:00:00.000Z');
		});

		it('fails only the row written otherwise, naming the field, the item and the forms it takes', async () => {
			const { items } = await suite.run(quote({ startDate: '={{ $json.start }}' }), {
				items: [{ start: '2027-01-01 08:00' }, { start: '01/01/2027 08:00' }],
				onError: 'continueRegularOutput',
				timezone: 'Europe/Berlin',
			});

			expect(suite.sandbox.requests.map((request) => [request.path, sentBody().startDate])).toEqual(
				[[QUOTES_PATH, '2027-01-01T07:00:00.000Z']],
			);
			expect(items[1].json.error).toBe(
				"'Start Date' must be a real date and time: YYYY-MM-DD HH:mm or HH:mm:ss (with a space or a T), YYYY-MM-DD, or ISO 8601 with an offset such as 2024-05-31T14:30:00Z [item 1]. " +
					'Received the text "01/01/2027 08:00". ' +
					"Without an offset it is read in the workflow's timezone (Europe/Berlin), a date alone as 00:00 that day. A date from an expression such as {{ $now }} works too.",
			);
		});
	});

	describe('a date field', () => {
		it.each([
			['YYYY-MM-DD', '2027-01-01', '2027-01-01'],
			['a date and time as sheets write it, as its day', '2027-01-01 23:30', '2027-01-01'],
			['a date and time with a T, as its day', '2027-01-01T23:30:00', '2027-01-01'],
			[
				'a moment with an offset, as its day in the workflow timezone',
				'2027-01-01T20:00:00Z',
				'2027-01-02',
			],
			[
				'a luxon DateTime of an expression, as its day in the workflow timezone',
				"={{ DateTime.fromISO('2027-01-01T20:00', { zone: 'UTC' }) }}",
				'2027-01-02',
			],
			[
				'a JS Date of an expression, as its day in the workflow timezone',
				'={{ new Date(Date.UTC(2027, 0, 1, 20)) }}',
				'2027-01-02',
			],
		])('takes %s and sends YYYY-MM-DD', async (_form, date, sent) => {
			const { error } = await suite.run(quote({ date }), { timezone: 'Asia/Tokyo' });

			expect(error).toBeUndefined();
			expect(sentBody().date).toBe(sent);
		});

		it("Equipment Distance > Get's Date takes 2027-01-01 08:00 and asks for that day", async () => {
			const { error } = await suite.run(
				{ resource: 'equipmentDistance', operation: 'get', date: '2027-01-01 08:00' },
				{ timezone: 'Asia/Tokyo' },
			);

			expect(error).toBeUndefined();
			expect(suite.sandbox.requests.map((request) => request.path)).toEqual([
				'/analytics/v1/equipment-distance/2027-01-01',
			]);
		});

		it('fails only the row written otherwise, naming the field, the item and the forms it takes', async () => {
			const { items } = await suite.run(quote({ deadline: '={{ $json.deadline }}' }), {
				items: [{ deadline: '2027-01-31' }, { deadline: '31.01.2027' }],
				onError: 'continueRegularOutput',
				timezone: 'Asia/Tokyo',
			});

			expect(suite.sandbox.requests.map(() => sentBody().deadline)).toEqual(['2027-01-31']);
			expect(items[1].json.error).toBe(
				"'Deadline' must be a real calendar date: YYYY-MM-DD such as 2024-05-31, or a date and time [item 1]. " +
					'Received the text "31.01.2027". ' +
					"A date and time (YYYY-MM-DD HH:mm or HH:mm:ss, with a space or a T, ISO 8601 with an offset, or a date from an expression such as {{ $today }}) counts as its day in the workflow's timezone (Asia/Tokyo).",
			);
		});
	});

	it('Client > Get Many sends Updated After given as {{ $today }} as 00:00 of today in the workflow timezone', async () => {
		const { error } = await suite.run(
			{
				resource: 'client',
				operation: 'getAll',
				limit: 1,
				filters: { updatedAfter: '={{ $today }}' },
			},
			{ timezone: 'Asia/Tokyo' },
		);

		expect(error).toBeUndefined();
		const [request] = suite.sandbox.requests;
		expect(request.path).toBe(CLIENTS_PATH);
		// 00:00 in Tokyo is 15:00 UTC of the day before.
		expect(request.query.updatedAfter).toMatch(/^\d{4}-\d{2}-\d{2}T15:00:00\.000Z$/);
	});

	it('sends nothing for a row whose Updated After is written otherwise', async () => {
		const { error } = await suite.run({
			resource: 'equipmentModel',
			operation: 'getAll',
			limit: 1,
			filters: { updatedAfter: '2027-1-1 8:00' },
		});

		expect(error?.message).toMatch(/^'Updated After' must be a real date and time: .* \[item 0\]$/);
		expect(suite.sandbox.requests).toHaveLength(0);
	});
});
