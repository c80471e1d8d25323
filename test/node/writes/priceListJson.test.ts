/**
 * A product's price list given as JSON: Price List Input set to JSON, the list an array from the
 * item (one expression) or JSON text of one. Through n8n's engine against the sandbox in strict
 * mode; the evidence is the requests the sandbox saw. Each tier is checked as the fields are, and
 * sends what the fields send for the same tiers; a bad one fails its item before anything is sent.
 * The other lists given as JSON (contact persons, attached products) are tested with their records
 * (client.test.ts, booking.test.ts).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../harness/sandbox';
import {
	createDirectly,
	json,
	newExternalId,
	paired,
	picked,
	PRODUCTS,
	readBack,
	writesSeen,
} from '../../harness/writes';

describe('A price list given as JSON', () => {
	const suite = useSandbox({ strict: true });

	const TIERS = [
		{ from: 1, price: 100 },
		{ from: 3, price: 70.5 },
		{ from: 10, price: 55 },
	];
	/** Product > Create of these parameters, the price list as given. */
	const createProduct = (priceList: INodeParameters) => ({
		resource: 'product',
		operation: 'create',
		title: 'Mini excavator 1.8 t',
		type: 'RESOURCE',
		unitType: 'DAYS',
		...priceList,
	});
	const asFields = (tiers: IDataObject[]) =>
		({ priceList: { priceItem: tiers } }) as INodeParameters;
	const asJson = (value: unknown) =>
		({ priceListInput: 'json', priceListJson: value }) as INodeParameters;
	const fromItem = asJson('={{ $json.priceList }}');
	const bodies = () => writesSeen(suite).map((request) => request.body);

	describe('Product', () => {
		it('sends exactly what the fields send for the same tiers, given as JSON text', async () => {
			await suite.run(createProduct(asFields(TIERS)));
			const fromFields = bodies();
			suite.sandbox.resetStats();
			await suite.run(createProduct(asJson(JSON.stringify(TIERS, null, 2))));

			expect(fromFields).toEqual([expect.objectContaining({ priceList: TIERS })]);
			expect(bodies()).toEqual(fromFields);
		});

		it('takes each item its own array by one expression: 1, 2 and 3 tiers', async () => {
			const lists = [TIERS.slice(0, 1), TIERS.slice(0, 2), TIERS];
			const { error, items } = await suite.run(createProduct(fromItem), {
				items: lists.map((priceList) => ({ priceList })),
			});

			expect(error).toBeUndefined();
			expect(bodies()).toEqual(
				lists.map((priceList) => ({
					title: 'Mini excavator 1.8 t',
					type: 'RESOURCE',
					unitType: 'DAYS',
					priceList,
				})),
			);
			expect(paired(items).map(([index, record]) => [index, record.priceList])).toEqual(
				lists.map((priceList, index) => [
					index,
					priceList.map((tier) => expect.objectContaining(tier)),
				]),
			);
		});

		it("takes another product's price list as the API reads it back, each tier's id left out", async () => {
			const { items: made } = await suite.run(createProduct(asFields(TIERS)));
			const [source] = json(made);
			expect((source.priceList as IDataObject[]).every((tier) => 'id' in tier)).toBe(true);
			suite.sandbox.resetStats();
			const { error } = await suite.run(createProduct(fromItem), { items: [source] });

			expect(error).toBeUndefined();
			expect(bodies()).toEqual([expect.objectContaining({ priceList: TIERS })]);
		});

		it('reads numbers given as text as the fields do (e.g. from a sheet), and JSON text from the item', async () => {
			const { error } = await suite.run(createProduct(fromItem), {
				items: [{ priceList: '[{"from": "1", "price": " 99.90 "}, {"from": 5, "price": "80"}]' }],
			});

			expect(error).toBeUndefined();
			expect(bodies()).toEqual([
				expect.objectContaining({
					priceList: [
						{ from: 1, price: 99.9 },
						{ from: 5, price: 80 },
					],
				}),
			]);
		});

		it.each([
			[
				'JSON that does not parse',
				'[{"from": 1, "price": 100},]',
				/^'Price List \(JSON\)' must be a list of Price Items as JSON, e\.g\. \[\{"from": 1, "price": 100\}, \{"from": 3, "price": 70\}\] \[item 1\]$/,
				'Received the text "[{"from": 1, "price": 100},]". The text is not valid JSON: ',
			],
			[
				'JSON of no list',
				'{"from": 1, "price": 100}',
				/^'Price List \(JSON\)' must be a list of Price Items as JSON, e\.g\. .* \[item 1\]$/,
				'Received the text "{"from": 1, "price": 100}". Nothing was sent',
			],
			[
				'an array of no list, from the item',
				{ from: 1, price: 100 },
				/^'Price List \(JSON\)' must be a list of Price Items as JSON, e\.g\. .* \[item 1\]$/,
				'Received a value of type object. Nothing was sent',
			],
			[
				'an entry that is no object',
				[{ from: 1, price: 100 }, 70],
				/^'Price Item 2' must be an object of the keys a Price Item takes \(from, price\) \[item 1\]$/,
				'Received the number 70. Nothing was sent',
			],
			[
				'a tier without its price',
				[{ from: 1, price: 100 }, { from: 3 }],
				/^'Price Item 2: Price' must be set: this field is required \[item 1\]$/,
				'Nothing was sent',
			],
			[
				'a tier below quantity 1',
				[{ from: 0, price: 100 }],
				/^'Price Item 1: From Quantity' must be a number written as 1,234.56, of at least 1 \[item 1\]$/,
				'Received the number 0. Nothing was sent',
			],
			[
				'a price that is no number',
				'[{"from": 1, "price": "cheap"}]',
				/^'Price Item 1: Price' must be a number written as 1,234.56, of at least 0 \[item 1\]$/,
				'Received the text "cheap". Nothing was sent',
			],
			[
				'an unknown key',
				[{ from: 1, price: 100, currency: 'EUR' }],
				/^'Price Item 1' must be given only the keys a Price Item takes \(from, price\), not "currency" \[item 1\]$/,
				'Nothing was sent',
			],
			[
				'an empty list',
				'[]',
				/^'Price List \(JSON\)' must be given at least one Price Item \[item 1\]$/,
				'Nothing was sent',
			],
			[
				'nothing',
				null,
				/^'Price List \(JSON\)' must be given at least one Price Item \[item 1\]$/,
				'Nothing was sent',
			],
		])(
			'fails the run on %s, naming the field, the entry and the item, before anything is sent',
			async (_case, priceList, message, description) => {
				const { error } = await suite.run(createProduct(fromItem), {
					items: [{ priceList: TIERS }, { priceList }],
				});

				expect(error?.message).toMatch(message);
				// What was received, then the stopped run's report: nothing was sent.
				expect(error?.description?.slice(0, description.length)).toBe(description);
				expect(suite.sandbox.requests).toEqual([]);
			},
		);

		it('under Continue On Fail, fails only the item with a bad tier, each output paired', async () => {
			const { items, errorItems } = await suite.run(createProduct(fromItem), {
				onError: 'continueErrorOutput',
				items: [
					{ priceList: TIERS.slice(0, 1) },
					{ priceList: [{ from: 1, prize: 10 }] },
					{ priceList: TIERS.slice(0, 2) },
				],
			});

			expect(paired(items).map(([index]) => index)).toEqual([0, 2]);
			expect(paired(errorItems)).toEqual([
				[
					1,
					expect.objectContaining({
						error: expect.stringMatching(
							/^'Price Item 1' must be given only the keys a Price Item takes \(from, price\), not "prize" \[item 1\]/,
						),
					}),
				],
			]);
			expect(bodies().map((body) => (body as IDataObject).priceList)).toEqual([
				TIERS.slice(0, 1),
				TIERS.slice(0, 2),
			]);
		});

		describe('Create or Update', () => {
			const upsert = (externalId: string, priceList: INodeParameters) => ({
				...createProduct(priceList),
				operation: 'upsert',
				externalId,
			});
			const upserted = (items: Array<{ json: IDataObject }>) =>
				json(items).map((item) => item.upserted);

			it('writes nothing the second time the same rows run, the lists from the items', async () => {
				const rows = [TIERS.slice(0, 1), TIERS.slice(0, 2), TIERS].map((priceList) => ({
					externalId: newExternalId('ERP-P'),
					priceList,
				}));
				const run = async () =>
					await suite.run(upsert('={{ $json.externalId }}', fromItem), { items: rows });

				const first = await run();
				expect(first.error).toBeUndefined();
				expect(upserted(first.items)).toEqual(rows.map(() => 'created'));
				suite.sandbox.resetStats();
				const second = await run();

				expect(second.error).toBeUndefined();
				expect(upserted(second.items)).toEqual(rows.map(() => 'unchanged'));
				expect(writesSeen(suite)).toEqual([]);
			});

			it('compares the same whichever mode gave the list: written by the fields, unchanged by JSON', async () => {
				const externalId = newExternalId('ERP-P');
				expect((await suite.run(upsert(externalId, asFields(TIERS)))).error).toBeUndefined();
				suite.sandbox.resetStats();
				const { items } = await suite.run(upsert(externalId, asJson(JSON.stringify(TIERS))));

				expect(upserted(items)).toEqual(['unchanged']);
				expect(writesSeen(suite)).toEqual([]);
			});

			it('sends only the price list when a tier differs', async () => {
				const externalId = newExternalId('ERP-P');
				expect((await suite.run(upsert(externalId, asJson(TIERS)))).error).toBeUndefined();
				suite.sandbox.resetStats();
				const changed = [TIERS[0], { from: 3, price: 65 }];
				const { items } = await suite.run(upsert(externalId, asJson(changed)));

				expect(upserted(items)).toEqual(['updated']);
				expect(writesSeen(suite)).toEqual([
					{ method: 'PATCH', path: expect.any(String), body: { priceList: changed } },
				]);
			});
		});

		describe('Update, under Update Fields', () => {
			const newProduct = async () =>
				await createDirectly(suite, PRODUCTS, {
					title: 'Site fence panel',
					type: 'RESOURCE',
					unitType: 'DAY',
					priceList: [{ from: 1, price: 2.5 }],
				});
			const update = (product: { id: string }, parameters: INodeParameters) => ({
				resource: 'product',
				operation: 'update',
				productId: picked(product.id),
				...parameters,
			});

			it('replaces the tiers with the list from the item', async () => {
				const product = await newProduct();
				const { error } = await suite.run(
					update(product, { updateFields: { title: 'Fence', ...fromItem } }),
					{ items: [{ priceList: TIERS.slice(0, 2) }] },
				);

				expect(error).toBeUndefined();
				expect(writesSeen(suite)).toEqual([
					{
						method: 'PATCH',
						path: `${PRODUCTS}/${product.id}`,
						body: { title: 'Fence', priceList: TIERS.slice(0, 2) },
					},
				]);
			});

			it('leaves out a list whose expression comes out empty, as an empty fixed collection is, whatever Empty Values says', async () => {
				const product = await newProduct();
				const { error } = await suite.run(
					update(product, {
						emptyValues: 'clear',
						updateFields: { title: 'Fence', ...fromItem },
					}),
					{ items: [{ priceList: [] }] },
				);

				expect(error).toBeUndefined();
				expect(writesSeen(suite)).toEqual([
					{ method: 'PATCH', path: `${PRODUCTS}/${product.id}`, body: { title: 'Fence' } },
				]);
				expect((await readBack(suite, `${PRODUCTS}/${product.id}`))?.priceList).toEqual([
					expect.objectContaining({ from: 1, price: 2.5 }),
				]);
			});

			it('still reads a saved workflow whose Update Fields hold the price list in fields, without the mode', async () => {
				const product = await newProduct();
				const { error } = await suite.run(
					update(product, { updateFields: asFields(TIERS.slice(1)) }),
				);

				expect(error).toBeUndefined();
				expect(bodies()).toEqual([{ priceList: TIERS.slice(1) }]);
			});
		});

		it('still reads a saved workflow whose price list is in fields, without the mode', async () => {
			// As 0.3.0 saved it: the fixed collection alone.
			const { error } = await suite.run(createProduct(asFields(TIERS.slice(0, 2))));

			expect(error).toBeUndefined();
			expect(bodies()).toEqual([expect.objectContaining({ priceList: TIERS.slice(0, 2) })]);
		});
	});
});
