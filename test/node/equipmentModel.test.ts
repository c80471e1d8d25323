import { useSandbox } from '../harness/sandbox';

interface Model {
	id: string;
	name: string;
	brandId: string;
	updatedAt: string;
}

const byNameThenId = (left: Model, right: Model) =>
	left.name < right.name
		? -1
		: left.name > right.name
			? 1
			: left.id < right.id
				? -1
				: left.id > right.id
					? 1
					: 0;

describe('Equipment Model: Get Many', () => {
	const suite = useSandbox({ models: 600 });
	const models = () => [...(suite.sandbox.store.models as unknown as Model[])].sort(byNameThenId);
	const getMany = (extra: Record<string, unknown>) => ({
		resource: 'equipmentModel',
		operation: 'getAll',
		...extra,
	});

	afterEach(() => suite.sandbox.setOptions({ maxPageSize: undefined, faults: null }));

	it('returns every model in the API order with Return All', async () => {
		const { items, error } = await suite.run(getMany({ returnAll: true }));

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.id)).toEqual(models().map((model) => model.id));
	});

	it('returns exactly Limit models, the first ones', async () => {
		const { items } = await suite.run(getMany({ limit: 7 }));

		expect(items.map((item) => item.json.id)).toEqual(
			models()
				.slice(0, 7)
				.map((model) => model.id),
		);
		expect(suite.sandbox.requests.map((request) => request.query)).toEqual([
			{ page: '1', limit: '7' },
		]);
	});

	it('pages at the size the server really serves, losing and repeating nothing', async () => {
		suite.sandbox.setOptions({ maxPageSize: 40 });
		const { items } = await suite.run(getMany({ limit: 130 }));

		expect(items.map((item) => item.json.id)).toEqual(
			models()
				.slice(0, 130)
				.map((model) => model.id),
		);
		expect(
			suite.sandbox.requests.map((request) => Number(request.query.page)).sort((a, b) => a - b),
		).toEqual([1, 2, 3, 4]);
		expect(suite.sandbox.requests.map((request) => request.query.limit)).toEqual([
			'100',
			'40',
			'40',
			'40',
		]);
	});

	it('sends every filter on every page, converted to the API formats', async () => {
		suite.sandbox.setOptions({ maxPageSize: 5 });
		const brandModels = models().filter((model) => model.brandId === suite.fixtures.brandId);
		const { items } = await suite.run(
			getMany({
				returnAll: true,
				filters: { brandId: suite.fixtures.brandId, updatedAfter: '2000-01-01T01:00:00' },
			}),
			{ timezone: 'Europe/Berlin' },
		);

		expect(brandModels.length).toBeGreaterThan(5);
		expect(items.map((item) => item.json.id)).toEqual(brandModels.map((model) => model.id));
		expect(suite.sandbox.requests.length).toBe(Math.ceil(brandModels.length / 5));
		for (const request of suite.sandbox.requests) {
			expect(request.query).toMatchObject({
				brandId: suite.fixtures.brandId,
				updatedAfter: '2000-01-01T00:00:00.000Z',
			});
		}
	});

	it('filters by a list of IDs given as an array, by name and by search text', async () => {
		const [first, second, third] = models();
		const byIds = await suite.run(
			getMany({ returnAll: true, filters: { ids: '={{ $json.ids }}' } }),
			{
				items: [{ ids: [first.id, third.id] }],
			},
		);
		expect(byIds.items.map((item) => item.json.id)).toEqual([first.id, third.id]);
		expect(suite.sandbox.requests[0].query.ids).toBe(`${first.id},${third.id}`);

		const byName = await suite.run(getMany({ returnAll: true, filters: { name: second.name } }));
		expect(byName.items.map((item) => item.json.name)).toEqual(
			models()
				.filter((model) => model.name === second.name)
				.map((model) => model.name),
		);

		const word = second.name.split(' ')[0].toUpperCase();
		const bySearch = await suite.run(getMany({ returnAll: true, filters: { search: word } }));
		expect(bySearch.items.length).toBe(
			models().filter((model) => model.name.toLowerCase().includes(word.toLowerCase())).length,
		);
	});

	it.each([
		[{ brandId: 'ACME' }, "'Brand ID' must be a UUID"],
		[{ ids: 'a,b' }, "'Model IDs' must be a list of UUIDs"],
		[{ updatedAfter: '2024-02-30T00:00:00' }, "'Updated After' must be a real date and time"],
	])('rejects the filter %p before sending anything', async (filters, message) => {
		const { error } = await suite.run(getMany({ returnAll: true, filters }));
		expect(error?.message).toContain(message);
		expect(suite.sandbox.requests).toHaveLength(0);
	});

	it('rejects a Limit below 1', async () => {
		const { error } = await suite.run(getMany({ limit: 0 }));
		expect(error?.message).toContain("'Limit' must be a number written as 1,234.56, of at least 1");
	});

	it('fails loudly, outputting nothing, when a page keeps failing', async () => {
		suite.sandbox.setOptions({ maxPageSize: 50 });
		let pageThreeCalls = 0;
		const removeHook = suite.sandbox.onRequest((request) => {
			if (request.query.page === '3') {
				pageThreeCalls++;
				suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['500'] } });
			} else {
				suite.sandbox.setOptions({ faults: null });
			}
		});
		try {
			const { items, error } = await suite.run(
				getMany({ returnAll: true, options: { parallelRequests: 1 } }),
			);

			expect(items).toEqual([]);
			expect(error?.message).toContain(
				'The Equipment Rental API failed to process the request (HTTP 500)',
			);
			expect(pageThreeCalls).toBe(5);
		} finally {
			removeHook();
		}
	});
});
