import type { INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../harness/sandbox';

describe('Release: Update', () => {
	const suite = useSandbox();
	const update = (updateFields: INodeParameters, releaseId = suite.fixtures.releaseId) => ({
		resource: 'release',
		operation: 'update',
		releaseId,
		updateFields,
	});

	it('patches only the fields that were set', async () => {
		const { items, error } = await suite.run(
			update({ quantity: 2.5, reason: 'Customer returned early' }),
		);

		expect(error).toBeUndefined();
		expect(suite.sandbox.requests.map((request) => [request.method, request.path])).toEqual([
			['PATCH', `/master-data/v1/booking-management/releases/${suite.fixtures.releaseId}`],
		]);
		expect(suite.sandbox.requests[0].body).toEqual({
			quantity: 2.5,
			reason: 'Customer returned early',
		});
		expect(items[0].json).toMatchObject({ id: suite.fixtures.releaseId, quantity: 2.5 });
	});

	it('sends date-times in UTC and checks the booking ID', async () => {
		await suite.run(
			update({
				startDate: '2024-06-01T09:00:00',
				endDate: '2024-06-02',
				bookingId: suite.fixtures.bookingId,
			}),
			{ timezone: 'America/New_York' },
		);

		expect(suite.sandbox.requests[0].body).toEqual({
			startDate: '2024-06-01T13:00:00.000Z',
			endDate: '2024-06-02T04:00:00.000Z',
			bookingId: suite.fixtures.bookingId,
		});
	});

	it('refuses an update with no field set', async () => {
		const { error } = await suite.run(update({}));

		expect(error?.message).toContain(
			"'Update Fields' must be given at least one field to change [item 0]",
		);
		expect(suite.sandbox.requests).toHaveLength(0);
	});

	it.each([
		[{ percentage: 'half' }, "'Percentage' must be a number"],
		[{ bookingId: '..' }, "'Booking ID' must be a non-empty identifier"],
		[{ endDate: 'tomorrow' }, "'End Date' must be a real date and time"],
	])('rejects %p before sending anything', async (fields, message) => {
		const { error } = await suite.run(update(fields));
		expect(error?.message).toContain(message);
		expect(suite.sandbox.requests).toHaveLength(0);
	});

	it('rejects a release ID that is a dot segment', async () => {
		const { error } = await suite.run(update({ reason: 'x' }, '..'));
		expect(error?.message).toContain("'Release' must be a non-empty identifier");
		expect(suite.sandbox.requests).toHaveLength(0);
	});

	// The vendor's reference types release and booking IDs as text
	// (https://ram-api.syniotec.com/reference/bookings): the API judges them.
	it('sends a release ID that is not a UUID as one path segment, and the API answers', async () => {
		const { error } = await suite.run(update({ reason: 'x', bookingId: 'B-7' }, '../quotes'));
		expect(suite.sandbox.requests.map((request) => [request.path, request.body])).toEqual([
			[
				'/master-data/v1/booking-management/releases/..%2Fquotes',
				{ reason: 'x', bookingId: 'B-7' },
			],
		]);
		expect(error?.message).toBe('Not found (HTTP 404): no record has the ID you gave [item 0]');
		expect(error?.description).toContain("The field at fault is 'Release'.");
	});

	it('reports an unknown release with the API message', async () => {
		const { error } = await suite.run(
			update({ reason: 'x' }, '00000000-0000-4000-8000-000000000000'),
		);
		expect(error?.message).toContain('Not found');
		expect(error?.description).toContain(
			'No release has the id 00000000-0000-4000-8000-000000000000',
		);
	});
});
