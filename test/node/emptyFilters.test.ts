/**
 * A filter the user added never silently vanishes: one that comes out empty for an item (a blank
 * cell, an item without the field the expression reads) fails that item, naming the filter, and
 * nothing is read for it. Dropped, it would read the whole list (a blank product cell once repriced
 * every product).
 */
import type { INodeParameters } from 'n8n-workflow';

import { ActiveTrigger, runTriggerManually } from '../harness/poll';
import { TOKEN, useSandbox } from '../harness/sandbox';

const BLANK_EXPRESSION = '={{ $json.id }}';

describe('Filters that come out empty', () => {
	const suite = useSandbox();

	type Fixtures = Record<string, string>;
	// Each list, a filter of it and its label, the operation, and a value that filters it for the item that has one.
	const lists: Array<[string, string, string, INodeParameters, (fixtures: Fixtures) => string]> = [
		[
			'Client > Get Many',
			'search',
			'Search',
			{ resource: 'client', operation: 'getAll' },
			() => 'a',
		],
		[
			'Client > Get Many',
			'status',
			'Status',
			{ resource: 'client', operation: 'getAll' },
			() => 'ACTIVE',
		],
		[
			'Contract > Get Many',
			'clientId',
			'Client ID',
			{ resource: 'contract', operation: 'getAll' },
			(fixtures) => fixtures.acmeClientId,
		],
		[
			'Product > Get Many',
			'search',
			'Search',
			{ resource: 'product', operation: 'getAll' },
			() => 'a',
		],
		[
			'Product > Get Many',
			'updatedAfter',
			'Updated After',
			{ resource: 'product', operation: 'getAll' },
			() => '2020-01-01T00:00:00Z',
		],
		[
			'Equipment > Get Many',
			'search',
			'Search',
			{ resource: 'equipment', operation: 'getAll' },
			() => 'INV',
		],
		[
			'Equipment Model > Get Many',
			'brandId',
			'Brand ID',
			{ resource: 'equipmentModel', operation: 'getAll' },
			(fixtures) => fixtures.brandId,
		],
		[
			'Equipment Model > Get Many',
			'ids',
			'Model IDs',
			{ resource: 'equipmentModel', operation: 'getAll' },
			(fixtures) => fixtures.modelId,
		],
		[
			'Product > Get Custom Price List',
			'productId',
			'Product ID',
			{ resource: 'product', operation: 'getCustomPriceList' },
			(fixtures) => fixtures.equipmentProductId,
		],
	];

	it.each(lists)(
		'%s with the %s filter empty for one item fails that item only, naming the filter, and reads nothing for it',
		async (_name, filter, label, operation, valid) => {
			const { items } = await suite.run(
				{
					...operation,
					customPriceId: suite.fixtures.customPriceId,
					returnAll: true,
					filters: { [filter]: BLANK_EXPRESSION },
				},
				{
					items: [{ id: valid(suite.fixtures) }, { name: 'no id here' }, { id: '   ' }],
					onError: 'continueRegularOutput',
				},
			);

			const failed = items.filter((item) => typeof item.json.error === 'string');
			expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 2 }]);
			expect(failed[0].json.error).toMatch(
				new RegExp(`^'${label}' must be a value: the filter was added but is empty \\[item 1\\]`),
			);
			expect(failed[0].json.error).toContain('remove the filter');
			// Only the first item's list was read, and every request carried its filter.
			expect(suite.sandbox.requests.length).toBeGreaterThan(0);
			for (const request of suite.sandbox.requests) expect(request.query).toHaveProperty(filter);
		},
	);

	it('a filter added and left blank in the form fails too, before anything is sent', async () => {
		const { error } = await suite.run({
			resource: 'contract',
			operation: 'getAll',
			returnAll: true,
			filters: { clientId: '' },
		});
		expect(error?.message).toBe(
			"'Client ID' must be a value: the filter was added but is empty [item 0]",
		);
		expect(suite.sandbox.requests).toHaveLength(0);
	});

	it('a filter not added is not sent, and the list holds every record', async () => {
		const { items, error } = await suite.run({
			resource: 'contract',
			operation: 'getAll',
			returnAll: true,
			filters: {},
		});
		expect(error).toBeUndefined();
		expect(items.length).toBeGreaterThan(7);
		expect(suite.sandbox.requests[0].query).not.toHaveProperty('clientId');
	});

	it('a picker whose expression comes out empty fails the item rather than reading another record', async () => {
		const { items } = await suite.run(
			{
				resource: 'contract',
				operation: 'get',
				contractId: { __rl: true, mode: 'id', value: BLANK_EXPRESSION },
			},
			{ items: [{ id: suite.fixtures.contractId }, {}], onError: 'continueRegularOutput' },
		);
		expect(items[0].json.id).toBe(suite.fixtures.contractId);
		expect(items[1].json.error).toMatch(
			/^'Contract' must be set: this field is required \[item 1\]/,
		);
		expect(suite.sandbox.requests).toHaveLength(1);
	});

	describe.each([
		['equipmentModelUpdated', 'search', 'Search'],
		['clientUpdated', 'partnerType', 'Partner Type'],
		['contractUpdated', 'clientId', 'Client ID'],
		['productUpdated', 'search', 'Search'],
	])("the trigger's filters: %s", (event, filter, displayName) => {
		const credentials = () => ({ baseUrl: suite.sandbox.url, accessToken: TOKEN });
		const parameters = { event, filters: { [filter]: '={{ "" }}' } };
		const refusal = `'${displayName}' must be a value: the filter was added but is empty`;

		it('an empty filter fails Fetch Test Event, naming it, with nothing read', async () => {
			const { error } = await runTriggerManually({ parameters, credentials: credentials() });
			expect(error?.message).toBe(refusal);
			expect(suite.sandbox.requests).toHaveLength(0);
		});

		it('an empty filter fails activation, so that no poll reads every record', async () => {
			await expect(
				ActiveTrigger.activate({ parameters, credentials: credentials() }),
			).rejects.toThrow(refusal);
			expect(suite.sandbox.requests).toHaveLength(0);
		});
	});
});
