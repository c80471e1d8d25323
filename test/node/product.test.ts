import { useSandbox } from '../harness/sandbox';

interface PriceListEntry {
	id: string;
	productId: string;
	productTitle: string;
	children?: PriceListEntry[];
}

describe('Product', () => {
	const suite = useSandbox();
	const entriesOf = (customPriceId: string) =>
		(suite.sandbox.store.priceLists as unknown as Map<string, PriceListEntry[]>).get(
			customPriceId,
		) ?? [];
	const productType = (productId: string) =>
		(suite.sandbox.store.products as unknown as Map<string, { type: string }>).get(productId)?.type;

	describe('Get Custom Price List', () => {
		const list = (extra: Record<string, unknown> = {}) => ({
			resource: 'product',
			operation: 'getCustomPriceList',
			customPriceId: suite.fixtures.customPriceId,
			...extra,
		});

		it('returns every entry with Return All, one item each, nested tiers kept', async () => {
			const { items, error } = await suite.run(list({ returnAll: true }));
			const expected = entriesOf(suite.fixtures.customPriceId);

			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.id).sort()).toEqual(
				expected.map((entry) => entry.id).sort(),
			);
			const withTiers = expected.find((entry) => entry.children?.length);
			expect(withTiers).toBeDefined();
			expect(items.find((item) => item.json.id === withTiers?.id)?.json.children).toEqual(
				withTiers?.children,
			);
		});

		it('outputs one flat item per quantity tier with Output: One Item per Tier, paired with its input item', async () => {
			const expected = entriesOf(suite.fixtures.customPriceId);
			const { items, error } = await suite.run(
				list({ returnAll: true, options: { output: 'tier' } }),
				{ items: [{}, {}] },
			);

			expect(error).toBeUndefined();
			const tierCount = expected.reduce((sum, entry) => sum + 1 + (entry.children?.length ?? 0), 0);
			expect(items).toHaveLength(2 * tierCount);
			expect(items.every((item) => !('children' in item.json))).toBe(true);
			const withTiers = expected.find((entry) => (entry.children?.length ?? 0) > 1)!;
			const rows = items
				.filter((item) => item.json.productId === withTiers.productId)
				.slice(0, 1 + withTiers.children!.length);
			const { children, ...first } = withTiers;
			expect(rows.map((row) => row.json)).toEqual([
				first,
				// eslint-disable-next-line @typescript-eslint/no-unused-vars -- destructured to leave it out
				...children!.map(({ children: _none, ...tier }) => tier),
			]);
			expect(rows.map((row) => row.json.from)).toEqual(
				[...rows.map((row) => row.json.from as number)].sort((a, b) => a - b),
			);
			expect(
				new Set(items.slice(0, tierCount).map((item) => JSON.stringify(item.pairedItem))),
			).toEqual(new Set([JSON.stringify({ item: 0 })]));
			expect(items[tierCount].pairedItem).toEqual({ item: 1 });
		});

		it('refuses an Output that is neither option before sending anything', async () => {
			const { error } = await suite.run(
				list({ returnAll: true, options: { output: '={{ "rows" }}' } }),
			);
			expect(error?.message).toBe("'Output' must be one of tier, product [item 0]");
			expect(suite.sandbox.requests).toHaveLength(0);
		});

		it('returns exactly Limit entries', async () => {
			const { items } = await suite.run(list({ returnAll: false, limit: 3 }));

			expect(items).toHaveLength(3);
			expect(suite.sandbox.requests).toHaveLength(1);
			expect(suite.sandbox.requests[0].query).toMatchObject({ page: '1', limit: '3' });
		});

		it('sends the filters on every page', async () => {
			suite.sandbox.setOptions({ maxPageSize: 2 });
			try {
				const { items } = await suite.run(
					list({ returnAll: true, filters: { type: 'EQUIPMENT' }, options: { pageSize: 2 } }),
				);
				const expected = entriesOf(suite.fixtures.customPriceId).filter(
					(entry) => productType(entry.productId) === 'EQUIPMENT',
				);

				expect(expected.length).toBeGreaterThan(2);
				expect(items).toHaveLength(expected.length);
				expect(suite.sandbox.requests.length).toBe(Math.ceil(expected.length / 2));
				for (const request of suite.sandbox.requests) expect(request.query.type).toBe('EQUIPMENT');
			} finally {
				suite.sandbox.setOptions({ maxPageSize: undefined });
			}
		});

		it('filters by product', async () => {
			const [entry] = entriesOf(suite.fixtures.customPriceId);
			const { items } = await suite.run(
				list({ returnAll: true, filters: { productId: entry.productId } }),
			);

			expect(items.length).toBeGreaterThan(0);
			for (const item of items) expect(item.json.productId).toBe(entry.productId);
		});

		it('keeps an ID with a slash inside its own path segment', async () => {
			const { error } = await suite.run(
				list({ customPriceId: '../products/x?y#z', returnAll: true }),
			);

			expect(suite.sandbox.requests.map((request) => request.path)).toEqual([
				'/master-data/v1/product-management/products/price-lists/custom/..%2Fproducts%2Fx%3Fy%23z',
			]);
			expect(error?.message).toContain('Not found');
		});

		it('sends a product type given by expression as it is, and the API judges it', async () => {
			const { error } = await suite.run(
				list({ returnAll: true, filters: { type: '={{ "TOOLS" }}' } }),
			);

			expect(suite.sandbox.requests.map((request) => request.query.type)).toEqual(['TOOLS']);
			expect(error?.message).toBe('The API rejected the request (HTTP 400) [item 0]');
			expect(error?.description).toContain("The field at fault is 'Product Type'.");
			// Sending it is this test's point, not a contract breach.
			suite.sandbox.resetStats();
		});
	});

	describe('Update Price Item', () => {
		const update = (extra: Record<string, unknown> = {}) => ({
			resource: 'product',
			operation: 'updatePriceItem',
			productId: suite.fixtures.equipmentProductId,
			priceId: suite.fixtures.priceId,
			from: 5,
			price: 42.5,
			...extra,
		});

		it("sends the range and the price only, as the vendor's reference lists them", async () => {
			const { items, error } = await suite.run(update());

			expect(error).toBeUndefined();
			expect(suite.sandbox.requests.map((request) => [request.method, request.path])).toEqual([
				[
					'PUT',
					`/master-data/v1/product-management/products/${suite.fixtures.equipmentProductId}/price-list/${suite.fixtures.priceId}`,
				],
			]);
			expect(suite.sandbox.requests[0].body).toEqual({ from: 5, price: 42.5 });
			expect(items.map((item) => item.json)).toEqual([
				{
					success: true,
					productId: suite.fixtures.equipmentProductId,
					priceId: suite.fixtures.priceId,
					from: 5,
					price: 42.5,
				},
			]);
		});

		describe('From Quantity left empty keeps the tier where it starts', () => {
			const tiersOf = (productId: string) =>
				(
					suite.sandbox.store.products as unknown as Map<
						string,
						{ priceItems: Array<{ id: string; from: number; price: number }> }
					>
				).get(productId)!.priceItems;
			// A tier that starts above 1, as "From 3: 101.2" in the picker.
			const furtherTier = () =>
				tiersOf(suite.fixtures.equipmentProductId).find((tier) => tier.from > 1)!;

			it("reads the product, then sends the tier's own From with the new price", async () => {
				const tier = furtherTier();
				const { from } = tier;
				const { items, error } = await suite.run(
					update({ priceId: tier.id, from: undefined, price: 99 }),
				);

				expect(error).toBeUndefined();
				expect(suite.sandbox.requests.map((request) => [request.method, request.body])).toEqual([
					['GET', undefined],
					['PUT', { from, price: 99 }],
				]);
				expect(
					tiersOf(suite.fixtures.equipmentProductId).find((t) => t.id === tier.id),
				).toMatchObject({ from, price: 99 });
				expect(items[0].json).toMatchObject({ success: true, priceId: tier.id, from, price: 99 });
			});

			it('a From typed in the form (saved in a workflow) is still sent as typed, without a read', async () => {
				const tier = furtherTier();
				const typed = tier.from + 1;
				await suite.run(update({ priceId: tier.id, from: typed, price: 98 }));
				expect(suite.sandbox.requests.map((request) => [request.method, request.body])).toEqual([
					['PUT', { from: typed, price: 98 }],
				]);
			});

			it('a tier the product does not have fails the item, naming Price Item, and changes nothing', async () => {
				const { error } = await suite.run(
					update({ priceId: 'no-such-tier', from: undefined, price: 97 }),
				);
				expect(error?.message).toBe(
					"'Price Item' must be one of the product's price items [item 0]",
				);
				expect(suite.sandbox.requests.map((request) => request.method)).toEqual(['GET']);
			});

			it('Price never filled in stops the item rather than set the price to 0', async () => {
				const { error } = await suite.run(update({ price: undefined }));
				expect(error?.message).toBe("'Price' must be set: this field is required [item 0]");
				expect(suite.sandbox.requests).toHaveLength(0);
			});
		});

		it('sends a percentage calculation', async () => {
			await suite.run(update({ calculationType: 'PERCENTAGE', price: 15 }));
			expect(suite.sandbox.requests[0].body).toEqual({
				from: 5,
				price: 15,
				calculationType: 'PERCENTAGE',
			});
		});

		it.each([
			['from', 0, "'From Quantity' must be a number written as 1,234.56, of at least 1"],
			['price', -0.01, "'Price' must be a number written as 1,234.56, of at least 0"],
			['price', Number.NaN, "'Price' must be a number written as 1,234.56, of at least 0"],
			['productId', '..', "'Product' must be a non-empty identifier"],
			['priceId', '.', "'Price Item' must be a non-empty identifier"],
		])('rejects %s = %p before sending anything', async (field, value, message) => {
			const { error } = await suite.run(update({ [field]: value }));
			expect(error?.message).toContain(message);
			expect(suite.sandbox.requests).toHaveLength(0);
		});

		it("reports the API's message for an unknown price item", async () => {
			const { error } = await suite.run(update({ priceId: 'no-such-price' }));

			expect(error?.message).toContain('Not found');
			expect(error?.description).toContain('no price item with the id no-such-price');
		});
	});

	describe('Attach Service', () => {
		const attach = (serviceProductId: string) => ({
			resource: 'product',
			operation: 'attach',
			productId: suite.fixtures.equipmentProductId,
			serviceProductId,
		});

		it('attaches a service product to the main product', async () => {
			const { items, error } = await suite.run(attach(suite.fixtures.serviceProductId));

			expect(error).toBeUndefined();
			expect(suite.sandbox.requests[0].path).toBe(
				`/master-data/v1/product-management/products/${suite.fixtures.equipmentProductId}/attach`,
			);
			expect(suite.sandbox.requests[0].body).toEqual({
				productId: suite.fixtures.serviceProductId,
			});
			expect(items.map((item) => item.json)).toEqual([
				{
					success: true,
					productId: suite.fixtures.equipmentProductId,
					serviceProductId: suite.fixtures.serviceProductId,
				},
			]);
		});

		it('refuses to attach the same service twice (409), with the API explanation and the field by its label', async () => {
			const { inventoryProductId, serviceProductId } = suite.fixtures;
			const twice = { ...attach(serviceProductId), productId: inventoryProductId };
			const first = await suite.run(twice);
			const { error, items } = await suite.run(twice);

			expect(first.error).toBeUndefined();
			expect(suite.sandbox.requests.map((request) => request.status)).toEqual([200, 409]);
			expect(items).toEqual([]);
			expect(error?.message).toBe('The API rejected the request (HTTP 409) [item 0]');
			expect(error?.description).toBe(
				`The API said: Product ${serviceProductId} is already attached to ${inventoryProductId}. The field at fault is 'Service Product'.`,
			);
		});

		it('explains the refusal to attach a product that is not a service, naming the field', async () => {
			const { error } = await suite.run(attach(suite.fixtures.personProductId));

			expect(error?.message).toContain('The API rejected the request (HTTP 422)');
			expect(error?.description).toContain('Only SERVICE products can be attached');
			expect(error?.description).toContain(
				`The API said: Only SERVICE products can be attached; product ${suite.fixtures.personProductId} is of type PERSON.`,
			);
			expect(error?.description).toContain("The field at fault is 'Service Product'.");
		});
	});
});
