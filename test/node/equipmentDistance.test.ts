import { useSandbox } from '../harness/sandbox';

interface DistanceRecord {
	id: string;
	distance: number | null;
	equipment: { invNumber: string | null; beaconId: string | null };
}

describe('Equipment Distance: Get', () => {
	const suite = useSandbox();
	const recordsOn = (date: string) =>
		(suite.sandbox.store.distances as unknown as Map<string, DistanceRecord[]>).get(date) ?? [];

	it('outputs one item per record, keeping null distances and null equipment fields', async () => {
		const date = suite.fixtures.distanceDate;
		const { items, error } = await suite.run({
			resource: 'equipmentDistance',
			operation: 'get',
			date,
		});
		const expected = recordsOn(date);

		expect(error).toBeUndefined();
		expect(suite.sandbox.requests.map((request) => request.path)).toEqual([
			`/analytics/v1/equipment-distance/${date}`,
		]);
		expect(items.map((item) => item.json)).toEqual(expected);
		expect(expected.some((record) => record.distance === null)).toBe(true);
		expect(
			expected.some(
				(record) => record.equipment.invNumber === null || record.equipment.beaconId === null,
			),
		).toBe(true);
		expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it("sends a date-time's day in the workflow timezone", async () => {
		await suite.run(
			{ resource: 'equipmentDistance', operation: 'get', date: '2024-05-31T23:30:00Z' },
			{ timezone: 'Europe/Paris' },
		);
		expect(suite.sandbox.requests[0].path).toBe('/analytics/v1/equipment-distance/2024-06-01');
	});

	it('outputs nothing for a day without reports', async () => {
		const { items, error } = await suite.run({
			resource: 'equipmentDistance',
			operation: 'get',
			date: '2001-01-01',
		});
		expect(error).toBeUndefined();
		expect(items).toEqual([]);
	});

	it.each(['2024-02-30', 'yesterday', '={{ null }}'])(
		'rejects the date %p before sending anything',
		async (date) => {
			const { error } = await suite.run({ resource: 'equipmentDistance', operation: 'get', date });
			expect(error?.message).toMatch(/'Date' must be (set|a real calendar date)/);
			expect(suite.sandbox.requests).toHaveLength(0);
		},
	);
});
