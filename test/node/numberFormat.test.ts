/**
 * Number Format: a number given as text (a CSV's or a sheet's cell) is read as the form the user
 * chose writes it, 1,234.56 or 1.234,56; a JSON number as it is. A text that the other form reads as
 * another number (12.000: twelve, or twelve thousand) fails its item with nothing sent. The evidence
 * is what the sandbox receives through n8n's engine, and the form the editor shows.
 */
import fc from 'fast-check';
import type {
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
} from 'n8n-workflow';

import { EquipmentRental } from '../../nodes/EquipmentRental/EquipmentRental.node';
import { shownOptions, shownProperties } from '../harness/description';
import { useSandbox } from '../harness/sandbox';
import {
	BOOKINGS,
	bookingCreation,
	CONTRACTS,
	PRODUCTS,
	picked,
	writesSeen,
} from '../harness/writes';

const QUOTES = '/master-data/v1/quote-management/quotes';
const POINT = '1,234.56';
const COMMA = '1.234,56';
const FORMS = [
	{ value: POINT, decimal: '.', thousands: ',' },
	{ value: COMMA, decimal: ',', thousands: '.' },
];
const FROM_ITEM = '={{ $json.value }}';
/** The Number Format a case names: none saved, for the default. */
const formChosen = (label: string) => (label === COMMA ? COMMA : undefined);

describe('Number Format in the editor', () => {
	const node = new EquipmentRental().description;
	// The numbers that set how the node reads and sends (a list's Limit, the Request Options), not
	// a record's values.
	const SETTINGS = ['limit', 'pageSize', 'parallelRequests', 'maxRateLimitWait'];

	const operations = node.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) =>
			(property.displayOptions!.show!.resource as string[]).flatMap((resource) =>
				(property.options as INodePropertyOptions[]).map((option) => ({
					resource,
					operation: String(option.value),
				})),
			),
		);

	/** The number fields of `property` (a collection's shown options, a fixed collection's entries). */
	function numberFields(property: INodeProperties, parameters: INodeParameters): string[] {
		if (property.type === 'number')
			return SETTINGS.includes(property.name) ? [] : [property.displayName];
		if (property.type === 'collection')
			return shownOptions(node, property, parameters).flatMap((option) =>
				numberFields(option, parameters),
			);
		if (property.type === 'fixedCollection')
			return (property.options as INodePropertyCollection[]).flatMap((entry) =>
				entry.values.flatMap((value) => numberFields(value, parameters)),
			);
		return [];
	}

	const shown = operations.map((parameters) => {
		const properties = shownProperties(node, parameters);
		return {
			...parameters,
			numbers: properties.flatMap((property) => numberFields(property, parameters)),
			numberFormat: properties.some((property) => property.name === 'numberFormat'),
		};
	});

	it.each(shown.map((entry) => [entry.resource, entry.operation, entry] as const))(
		'%s > %s shows Number Format exactly when one of its fields is a number',
		(_resource, _operation, { numbers, numberFormat }) => {
			expect(numberFormat).toBe(numbers.length > 0);
		},
	);

	it('finds the number fields of the operations that have some, those of entries included', () => {
		const withNumbers = shown
			.filter((entry) => entry.numbers.length > 0)
			.map(({ resource, operation }) => `${resource} > ${operation}`);
		expect(withNumbers.sort()).toEqual(
			[
				'booking > create',
				'booking > update',
				'booking > upsert',
				'client > create',
				'client > update',
				'client > upsert',
				'contract > create',
				'contract > update',
				'contract > upsert',
				'equipment > create',
				'equipment > update',
				'equipment > upsert',
				'product > addPriceItem',
				'product > create',
				'product > update',
				'product > updatePriceItem',
				'product > upsert',
				'quote > create',
				'release > update',
			].sort(),
		);
		const product = shown.find(
			(entry) => entry.operation === 'create' && entry.resource === 'product',
		);
		expect(product?.numbers).toEqual(expect.arrayContaining(['From Quantity', 'Price']));
	});

	it('offers the two forms by example, the point form first, and says JSON numbers are kept', () => {
		const [field] = shownProperties(node, { resource: 'quote', operation: 'create' }).filter(
			(property) => property.name === 'numberFormat',
		);
		expect(field).toMatchObject({ displayName: 'Number Format', type: 'options', default: POINT });
		expect(field.options).toEqual([
			{ name: '1,234.56 (Point as Decimal Separator)', value: POINT },
			{ name: '1.234,56 (Comma as Decimal Separator)', value: COMMA },
		]);
		expect(field.description).toMatch(/^How numbers given as text \(e\.g\. from a CSV/);
		expect(field.description).toContain('JSON numbers are taken as they are');
	});
});

describe('Number Format', () => {
	const suite = useSandbox();
	const quotes = (numberFormat?: string) => ({
		resource: 'quote',
		operation: 'create',
		clientId: suite.fixtures.clientId,
		contractId: suite.fixtures.contractId,
		amount: FROM_ITEM,
		...(numberFormat ? { numberFormat } : {}),
	});
	/** Quote > Create of one item per value, under Continue On Fail: each item's amount or error. */
	async function amountsOf(values: Array<string | number>, numberFormat?: string) {
		const { items, error } = await suite.run(quotes(numberFormat), {
			items: values.map((value) => ({ value })),
			onError: 'continueRegularOutput',
		});
		expect(error).toBeUndefined();
		return items.map((item) => (item.json.error as string | undefined) ?? item.json.amount);
	}
	const amountsSent = () =>
		suite.sandbox.requests
			.filter((request) => request.path === QUOTES)
			.map((request) => (request.body as { amount: number }).amount);

	it.each([
		[
			'the default 1,234.56',
			undefined,
			[
				'1,250.50',
				'12000',
				'12,000',
				'-1,234,567.891',
				'+12.5',
				'.5',
				'0.250',
				'1234.567',
				'12.0000',
				1250.5,
			],
			[1250.5, 12000, 12000, -1234567.891, 12.5, 0.5, 0.25, 1234.567, 12, 1250.5],
		],
		[
			'1.234,56',
			COMMA,
			[
				'12.000',
				'1.250,50',
				'0,5',
				'980,00',
				'12000',
				'-1.234.567,891',
				',5',
				'1234,567',
				1250.5,
				12,
			],
			[12000, 1250.5, 0.5, 980, 12000, -1234567.891, 0.5, 1234.567, 1250.5, 12],
		],
	])(
		'reads text numbers as %s writes them, thousands and signs included, JSON numbers as they are',
		async (_form, numberFormat, values, expected) => {
			expect(await amountsOf(values, numberFormat)).toEqual(expected);
			expect(amountsSent().sort()).toEqual([...expected].sort());
		},
	);

	it.each([
		['the default', '12.000', 12, 12000, COMMA, '12000', '12'],
		['the default', '1.250', 1.25, 1250, COMMA, '1250', '1.25'],
		['the default', '-1.250', -1.25, -1250, COMMA, '-1250', '-1.25'],
		['the default', '52.525', 52.525, 52525, COMMA, '52525', '52.5250'],
		[COMMA, '12,000', 12, 12000, POINT, '12000', '12'],
	])(
		'under %s refuses "%s", which the other form reads as another number, and sends nothing',
		async (label, text, here, there, other, forThere, forHere) => {
			const numberFormat = formChosen(label);
			const form = numberFormat ?? POINT;
			const otherName =
				other === COMMA
					? '1.234,56 (Comma as Decimal Separator)'
					: '1,234.56 (Point as Decimal Separator)';
			const { error, items } = await suite.run(quotes(numberFormat), {
				items: [{ value: '100' }, { value: text }, { value: '200' }],
			});

			expect(items).toEqual([]);
			expect(suite.sandbox.requests).toHaveLength(0);
			expect(error?.message).toBe(
				`'Amount' must be a number written as ${form}, no greater than 100000000: "${text}" could be ${here} (as ${form}) or ${there} (as ${other}) [item 1]`,
			);
			expect(error?.description).toContain(
				`Received the text "${text}". The node does not guess which. If it means ${there}, choose ${otherName} in Number Format (every text number of the node is then read so), or write ${forThere}; if it means ${here}, write ${forHere}.`,
			);
			expect(error?.description).toContain('Nothing was sent');
		},
	);

	it.each([
		[
			'the default',
			'1.250,50',
			'Written as 1.234,56 it is 1250,5: if the numbers are written so, choose 1.234,56 (Comma as Decimal Separator) in Number Format.',
		],
		[
			'the default',
			'980,00',
			'Written as 1.234,56 it is 980: if the numbers are written so, choose 1.234,56 (Comma as Decimal Separator) in Number Format.',
		],
		[
			'the default',
			'12,00',
			'Written as 1.234,56 it is 12: if the numbers are written so, choose 1.234,56 (Comma as Decimal Separator) in Number Format.',
		],
		[
			COMMA,
			'1,250.50',
			'Written as 1,234.56 it is 1250.5: if the numbers are written so, choose 1,234.56 (Point as Decimal Separator) in Number Format.',
		],
		[
			COMMA,
			'1.5',
			'Written as 1,234.56 it is 1.5: if the numbers are written so, choose 1,234.56 (Point as Decimal Separator) in Number Format.',
		],
		['the default', '12abc', undefined],
		[COMMA, '1.2.3', undefined],
	])(
		'under %s refuses "%s", naming the form expected and the other form when it reads it',
		async (label, text, hint) => {
			const numberFormat = formChosen(label);
			const { error } = await suite.run(quotes(numberFormat), { items: [{ value: text }] });

			expect(suite.sandbox.requests).toHaveLength(0);
			expect(error?.message).toBe(
				`'Amount' must be a number written as ${numberFormat ?? POINT}, no greater than 100000000 [item 0]`,
			);
			expect(error?.description).toBe(`Received the text "${text}".${hint ? ` ${hint}` : ''}`);
		},
	);

	it('names the form first and the bound second for a number out of bounds, a JSON one too', async () => {
		const values = ['200.000.000', 200_000_000, '100.000.000,01', '100.000.000'];
		expect(await amountsOf(values, COMMA)).toEqual([
			`'Amount' must be a number written as 1.234,56, no greater than 100000000 [item 0]. Received the text "200.000.000".`,
			"'Amount' must be a number written as 1.234,56, no greater than 100000000 [item 1]. Received the number 200000000.",
			`'Amount' must be a number written as 1.234,56, no greater than 100000000 [item 2]. Received the text "100.000.000,01".`,
			100_000_000,
		]);
		expect(amountsSent()).toEqual([100_000_000]);
	});

	it('refuses a Number Format given by expression that is neither form, naming it', async () => {
		const { error } = await suite.run(
			{ ...quotes('={{ "1 234,56" }}') },
			{ items: [{ value: '1' }] },
		);
		expect(error?.message).toBe("'Number Format' must be one of 1,234.56, 1.234,56 [item 0]");
		expect(suite.sandbox.requests).toHaveLength(0);
	});

	it("reads a list's Limit in the default form where the operation has no Number Format, and says how to write it", async () => {
		const { error } = await suite.run({
			resource: 'client',
			operation: 'getAll',
			limit: '={{ "1.000" }}',
		});

		expect(suite.sandbox.requests).toHaveLength(0);
		expect(error?.message).toBe(
			`'Limit' must be a number written as 1,234.56, of at least 1: "1.000" could be 1 (as 1,234.56) or 1000 (as 1.234,56) [item 0]`,
		);
		expect(error?.description).toBe(
			'Received the text "1.000". The node does not guess which. If it means 1000, write 1000; if it means 1, write 1.',
		);
	});

	describe('inside fixed collections', () => {
		const product = {
			resource: 'product',
			operation: 'create',
			title: 'Cable drum trailer',
			type: 'RESOURCE',
			unitType: 'DAY',
		};

		it("reads a product's price list tiers in the chosen form", async () => {
			const { error } = await suite.run({
				...product,
				numberFormat: COMMA,
				priceList: {
					priceItem: [
						{ from: '1', price: '1.250,50' },
						{ from: '1.000', price: '980,00' },
					],
				},
				additionalFields: { defaultQuantity: '2,5' },
			});

			expect(error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([
				expect.objectContaining({
					method: 'POST',
					path: PRODUCTS,
					body: expect.objectContaining({
						priceList: [
							{ from: 1, price: 1250.5 },
							{ from: 1000, price: 980 },
						],
						defaultQuantity: 2.5,
					}),
				}),
			]);
		});

		it("reads a booking's attached products and a contract's coordinates in the chosen form", async () => {
			const booking = await suite.run(
				bookingCreation(suite.fixtures, {
					numberFormat: COMMA,
					additionalFields: {
						quantity: '1.500',
						attachedProducts: {
							attachedProduct: [
								{
									productId: picked(suite.fixtures.serviceProductId),
									quantity: '2',
									price: '49,90',
								},
							],
						},
					},
				}),
			);
			const contract = await suite.run({
				resource: 'contract',
				operation: 'create',
				clientId: picked(suite.fixtures.clientId),
				startDate: '2025-07-01T08:00:00',
				endDate: '2099-12-31T18:00:00',
				structureId: '123e4567-e89b-42d3-a456-426614174000',
				numberFormat: COMMA,
				additionalFields: { point: { coordinates: { lat: '52,5251', lng: '13,3694' } } },
			});

			expect([booking.error, contract.error]).toEqual([undefined, undefined]);
			const bodies = writesSeen(suite).map(({ path, body }) => [path, body]);
			expect(bodies).toEqual([
				[
					BOOKINGS,
					expect.objectContaining({
						quantity: 1500,
						attachedProducts: [expect.objectContaining({ quantity: 2, price: 49.9 })],
					}),
				],
				[CONTRACTS, expect.objectContaining({ point: { lat: 52.5251, lng: 13.3694 } })],
			]);
		});

		it('refuses an entry whose number could be either form, naming the entry and the item', async () => {
			const { error } = await suite.run(
				{
					...product,
					priceList: {
						priceItem: [
							{ from: '1', price: '40' },
							{ from: '3', price: FROM_ITEM },
						],
					},
				},
				{ items: [{ value: '32.50' }, { value: '1.250' }] },
			);

			expect(suite.sandbox.requests).toHaveLength(0);
			expect(error?.message).toContain(
				`'Price Item 2: Price' must be a number written as 1,234.56, of at least 0: "1.250" could be 1.25 (as 1,234.56) or 1250 (as 1.234,56) [item 1]`,
			);
		});
	});

	describe('read back (property-based, through the engine)', () => {
		type Form = (typeof FORMS)[number];

		/** `value` as a person or a sheet writes it in `form`, with thousands separators or without. */
		function written(value: number, form: Form, grouped: boolean): string {
			const plain = String(value);
			if (!grouped || /e/i.test(plain)) return plain.replace('.', form.decimal);
			const [whole, decimals] = plain.split('.');
			const sign = whole.startsWith('-') ? '-' : '';
			const digits = whole.replace('-', '').replace(/\B(?=(\d{3})+$)/g, form.thousands);
			return `${sign}${digits}${decimals === undefined ? '' : `${form.decimal}${decimals}`}`;
		}

		/** What `text` means in `form`, by its own rule: digits in groups, the form's decimal separator. */
		function meaning(text: string, form: Form): number | undefined {
			const [whole, ...rest] = text.split(form.decimal);
			if (rest.length > 1) return undefined;
			const groups = whole.replace(/^[+-]/, '').split(form.thousands);
			const strictGroups =
				groups.length === 1 ||
				(/^\d{1,3}$/.test(groups[0]) && groups.slice(1).every((group) => /^\d{3}$/.test(group)));
			if (!strictGroups) return undefined;
			const value = Number(`${whole.split(form.thousands).join('')}.${rest[0] ?? ''}`);
			// The node sends -0 as 0, which JSON would lose anyway.
			return value === 0 ? 0 : value;
		}

		const values = fc.array(
			fc.oneof(
				fc.double({ min: -100_000_000, max: 100_000_000, noNaN: true }),
				fc.integer({ min: -100_000_000, max: 100_000_000 }),
				fc.integer({ min: -99_999_999, max: 99_999_999 }).map((cents) => cents / 100),
			),
			{ minLength: 1, maxLength: 20 },
		);

		it.each(FORMS)(
			'gives back the number a text written as $value means, or refuses it only when the other form reads it as another',
			async (form) => {
				await fc.assert(
					fc.asyncProperty(values, fc.boolean(), async (numbers, grouped) => {
						suite.sandbox.requests.length = 0;
						const texts = numbers.map((value) => written(value, form, grouped));
						const read = await amountsOf(texts, form.value);
						read.forEach((amount, index) => {
							const value = numbers[index] === 0 ? 0 : numbers[index];
							if (typeof amount === 'number') expect(amount).toBe(value);
							else
								expect(amount).toContain(
									`could be ${written(value, form, false)} (as ${form.value})`,
								);
						});
						expect(amountsSent().length).toBe(
							read.filter((amount) => typeof amount === 'number').length,
						);
					}),
					{ numRuns: 15 },
				);
			},
		);

		const texts = fc.array(fc.stringMatching(/^[+-]?[0-9]{0,4}([.,][0-9]{0,4}){0,3}$/), {
			minLength: 1,
			maxLength: 25,
		});

		it.each(FORMS)(
			'reads no text under $value as another number than that form means, nor one the other form reads otherwise unless its thousands say so',
			async (form) => {
				const other = FORMS.find((candidate) => candidate !== form)!;
				await fc.assert(
					fc.asyncProperty(texts, async (given) => {
						const read = await amountsOf(given, form.value);
						read.forEach((amount, index) => {
							const text = given[index];
							if (typeof amount !== 'number') return;
							expect(amount).toBe(meaning(text, form));
							// Only the form's own thousands separator, or a group starting with 0 (no one's
							// thousands), tells a text the other form reads otherwise.
							if (!text.includes(form.thousands) && !/^[+-]?0/.test(text))
								expect([undefined, amount]).toContain(meaning(text, other));
						});
					}),
					{ numRuns: 15 },
				);
			},
		);
	});
});
