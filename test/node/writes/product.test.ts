/**
 * Product: Create, Update and Delete through n8n's engine against the sandbox in strict mode. The
 * evidence is the request the sandbox saw: the price list arrives as the list of tiers filled in,
 * and an update sends only its fields.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../harness/sandbox';
import {
	createDirectly,
	declareCommonDeleteTests,
	declareCommonUpdateTests,
	itNamesTheFieldAtFaultInEachDialect,
	json,
	newExternalId,
	paired,
	PRODUCTS,
	readBack,
	recordKindWithId,
	writesSeen,
} from '../../harness/writes';

describe('Product', () => {
	const suite = useSandbox({ strict: true });
	afterEach(() => suite.sandbox.setOptions({ errorDialect: 'message' }));

	const tiers = (...prices: Array<[number, number]>) => ({
		priceItem: prices.map(([from, price]) => ({ from, price })),
	});
	const create = (parameters: INodeParameters = {}) => ({
		resource: 'product',
		operation: 'create',
		title: 'Cable drum trailer',
		type: 'RESOURCE',
		unitType: 'DAY',
		priceList: tiers([1, 40], [7, 32.5]),
		...parameters,
	});
	/** A product of its own, that nothing names. */
	const newProduct = async () =>
		await createDirectly(suite, PRODUCTS, {
			title: 'Site fence panel',
			type: 'RESOURCE',
			unitType: 'DAY',
			number: 'P-FENCE-1',
			additionalInformation: 'Galvanised, 3.5 m',
			defaultQuantity: 10,
			externalId: newExternalId('PR'),
			priceList: [
				{ from: 1, price: 2.5 },
				{ from: 30, price: 1.8 },
			],
		});
	const products = recordKindWithId({
		suite,
		recordName: 'product',
		fieldLabel: 'Product',
		newRecord: newProduct,
		resource: 'product',
		collection: PRODUCTS,
		idParameter: 'productId',
	});

	describe('Create', () => {
		it('sends exactly the fields filled in, the price list as its tiers', async () => {
			const externalId = newExternalId('ERP-P');
			const { items, error } = await suite.run(
				create({
					type: 'SERVICE',
					additionalFields: {
						externalId,
						number: 'SV-9001',
						defaultQuantity: 1.5,
						defaultPeriodType: 'WORKING_DAYS',
					},
				}),
			);

			expect(error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([
				{
					method: 'POST',
					path: PRODUCTS,
					body: {
						title: 'Cable drum trailer',
						type: 'SERVICE',
						unitType: 'DAY',
						priceList: [
							{ from: 1, price: 40 },
							{ from: 7, price: 32.5 },
						],
						externalId,
						number: 'SV-9001',
						defaultQuantity: 1.5,
						defaultPeriodType: 'WORKING_DAYS',
					},
				},
			]);
			expect(json(items)).toEqual([
				expect.objectContaining({
					id: expect.any(String),
					title: 'Cable drum trailer',
					externalId,
				}),
			]);
		});

		it('refuses a price list without tiers before sending, naming the field and the item', async () => {
			const { error } = await suite.run(create({ priceList: { priceItem: [] } }));

			expect(error?.message).toBe("'Price List' must be given at least one Price Item [item 0]");
			expect(suite.sandbox.requests).toEqual([]);
		});

		it('refuses a tier below quantity 1 before sending, naming the tier', async () => {
			const { error } = await suite.run(create({ priceList: tiers([1, 40], [0, 32.5]) }));

			expect(error?.message).toMatch(/^'Price Item 2: From Quantity' must be .*\[item 0\]$/);
			expect(suite.sandbox.requests).toEqual([]);
		});

		it('refuses a Type outside the list, given by expression, before sending', async () => {
			const { error } = await suite.run(create({ type: '={{ "MACHINE" }}' }));

			expect(error?.message).toBe("'Type' must be one of RESOURCE, SERVICE [item 0]");
			expect(suite.sandbox.requests).toEqual([]);
		});

		it('under Continue On Fail, fails only the item without a title, each output paired', async () => {
			const { items, errorItems } = await suite.run(create({ title: '={{ $json.title }}' }), {
				onError: 'continueErrorOutput',
				items: [{ title: 'Trailer A' }, { title: '' }, { title: 'Trailer C' }],
			});

			expect(paired(items)).toEqual([
				[0, expect.objectContaining({ title: 'Trailer A' })],
				[2, expect.objectContaining({ title: 'Trailer C' })],
			]);
			expect(paired(errorItems)).toEqual([
				[
					1,
					expect.objectContaining({
						error: expect.stringMatching(/^'Title' must be set: this field is required \[item 1\]/),
					}),
				],
			]);
			expect(writesSeen(suite).map((request) => (request.body as IDataObject).title)).toEqual([
				'Trailer A',
				'Trailer C',
			]);
		});

		itNamesTheFieldAtFaultInEachDialect(
			suite,
			() => create({ additionalFields: { externalId: suite.fixtures.productExternalId } }),
			{
				message: 'The API rejected the request (HTTP 409)',
				said: 'is already taken',
				field: 'External ID',
			},
		);
	});

	describe('Update', () => {
		it('sends only the Update Fields, a price list replacing the tiers, and the product keeps its other values', async () => {
			const product = await newProduct();
			const { items, error } = await suite.run(
				products.update(product, {
					updateFields: { title: 'Site fence panel, 3.5 m', priceList: tiers([1, 2.75]) },
				}),
			);

			expect(error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([
				{
					method: 'PATCH',
					path: `${PRODUCTS}/${product.id}`,
					body: { title: 'Site fence panel, 3.5 m', priceList: [{ from: 1, price: 2.75 }] },
				},
			]);
			expect(items[0].json).toMatchObject({ id: product.id, title: 'Site fence panel, 3.5 m' });
			const after = await readBack(suite, `${PRODUCTS}/${product.id}`);
			expect(after).toMatchObject({
				type: 'RESOURCE',
				number: 'P-FENCE-1',
				additionalInformation: 'Galvanised, 3.5 m',
				defaultQuantity: 10,
			});
			expect(
				(after!.priceList as IDataObject[]).map(({ from, price }) => ({ from, price })),
			).toEqual([{ from: 1, price: 2.75 }]);
		});

		declareCommonUpdateTests(products, {
			cleared: ['additionalInformation'],
			setAndCleared: { field: 'defaultQuantity', value: 5, label: 'Default Quantity' },
			emptyExpression: {
				updateFields: { number: '={{ $json.number }}', unitType: '={{ $json.unit }}' },
				item: { unit: 'WEEK' },
				sent: { unitType: 'WEEK' },
			},
		});
	});

	describe('Delete', () => {
		declareCommonDeleteTests(products, {
			because: 'bookings name it',
			id: () => suite.fixtures.equipmentProductId,
			error: /^The API rejected the request \(HTTP 409\) \[item 0\]\. .*bookings/,
		});
	});
});
