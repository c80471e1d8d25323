/**
 * Booking: Create, Update and Delete through n8n's engine against the sandbox in strict mode. The
 * evidence is the request the sandbox saw: the contract and the products given by their external
 * IDs arrive as their IDs, the attached products as a list, and an update sends only its fields.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../harness/sandbox';
import {
	BOOKINGS,
	bookingCreation,
	byExternalId,
	CONTRACTS,
	createDirectly,
	declareCommonDeleteTests,
	declareCommonUpdateTests,
	itNamesTheFieldAtFaultInEachDialect,
	itRefusesAnItemWithout,
	itSendsOnlyTheUpdateFields,
	json,
	newExternalId,
	paired,
	picked,
	PRODUCTS,
	readBack,
	recordKindWithId,
	requestsSeen,
	writesSeen,
} from '../../harness/writes';

describe('Booking', () => {
	const suite = useSandbox({ strict: true });
	afterEach(() => suite.sandbox.setOptions({ errorDialect: 'message' }));

	const create = (parameters: INodeParameters = {}) => bookingCreation(suite.fixtures, parameters);
	const newBooking = async () =>
		await createDirectly(suite, BOOKINGS, {
			startDate: '2025-07-01T08:00:00.000Z',
			endDate: '2025-07-10T17:00:00.000Z',
			entityId: suite.fixtures.equipmentId,
			productId: suite.fixtures.equipmentProductId,
			contractId: suite.fixtures.contractId,
			quantity: 2,
			pickUpAddress: 'Depot Nord, Hamburg',
			externalId: newExternalId('BK'),
		});
	const bookings = recordKindWithId({
		suite,
		recordName: 'booking',
		fieldLabel: 'Booking',
		newRecord: newBooking,
		resource: 'booking',
		collection: BOOKINGS,
		idParameter: 'bookingId',
		plainId: true,
	});
	const externalIdOf = async (path: string) =>
		((await readBack(suite, path)) as IDataObject).externalId as string;

	describe('Create', () => {
		it('sends exactly the fields filled in, attached products and UTC date-times included', async () => {
			const { serviceProductId } = suite.fixtures;
			const { items, error } = await suite.run(
				create({
					additionalFields: {
						status: 'IN_PROGRESS',
						quantity: 5.5,
						changePrice: true,
						normalPrice: 100,
						periodType: 'WORKING_DAYS',
						selfPickUp: false,
						attachedProducts: {
							attachedProduct: [
								{
									productId: picked(serviceProductId),
									periodType: 'CALENDAR_DAYS',
									quantity: 2,
									price: 49.9,
									changePrice: false,
								},
							],
						},
					},
				}),
				{ timezone: 'America/New_York' },
			);

			expect(error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([
				{
					method: 'POST',
					path: BOOKINGS,
					body: {
						startDate: '2025-07-01T12:00:00.000Z',
						endDate: '2025-07-10T21:00:00.000Z',
						entityId: suite.fixtures.equipmentId,
						productId: suite.fixtures.equipmentProductId,
						contractId: suite.fixtures.contractId,
						status: 'IN_PROGRESS',
						quantity: 5.5,
						changePrice: true,
						normalPrice: 100,
						periodType: 'WORKING_DAYS',
						selfPickUp: false,
						attachedProducts: [
							{
								productId: serviceProductId,
								periodType: 'CALENDAR_DAYS',
								quantity: 2,
								price: 49.9,
								changePrice: false,
							},
						],
					},
				},
			]);
			expect(json(items)).toEqual([
				expect.objectContaining({ id: expect.any(String), status: 'IN_PROGRESS', quantity: 5.5 }),
			]);
		});

		it('finds the contract, the product and an attached product given by external ID, and sends their IDs', async () => {
			const { contractExternalId, productExternalId, serviceProductId } = suite.fixtures;
			const serviceExternalId = await externalIdOf(`${PRODUCTS}/${serviceProductId}`);
			suite.sandbox.resetStats();
			const { error } = await suite.run(
				create({
					productId: byExternalId(productExternalId),
					contractId: byExternalId(contractExternalId),
					additionalFields: {
						attachedProducts: {
							attachedProduct: [{ productId: byExternalId(serviceExternalId), quantity: 1 }],
						},
					},
				}),
			);

			expect(error).toBeUndefined();
			// Two products by external ID: the products' one page is read instead of two look-ups.
			const reads = requestsSeen(suite).filter((request) => request.method === 'GET');
			expect(reads.map((request) => request.path).sort()).toEqual(
				[`${CONTRACTS}/external-id/${contractExternalId}`, PRODUCTS].sort(),
			);
			expect(writesSeen(suite)).toEqual([
				{
					method: 'POST',
					path: BOOKINGS,
					body: expect.objectContaining({
						productId: suite.fixtures.equipmentProductId,
						contractId: suite.fixtures.contractId,
						attachedProducts: [
							expect.objectContaining({ productId: serviceProductId, quantity: 1 }),
						],
					}),
				},
			]);
		});

		it.each([
			['contract', { contractId: byExternalId('ERP-NO-SUCH-CONTRACT') }, 'Contract'],
			['product', { productId: byExternalId('ERP-NO-SUCH-PRODUCT') }, 'Product'],
		])(
			'fails a %s external ID the API does not know by the field, writing nothing',
			async (recordName, parameters, label) => {
				const { error } = await suite.run(create(parameters));

				expect(error?.message).toBe(
					`'${label}' must be the external ID of an existing ${recordName} [item 0]`,
				);
				expect(writesSeen(suite)).toEqual([]);
			},
		);

		// Named by its entry, as the entry's other checks name it, not as the booking's own Product.
		it('fails an attached product external ID the API does not know by the entry, writing nothing', async () => {
			const { error } = await suite.run(
				create({
					additionalFields: {
						attachedProducts: {
							attachedProduct: [{ productId: byExternalId('ERP-NO-SUCH-SERVICE'), quantity: 1 }],
						},
					},
				}),
			);

			expect(error?.message).toBe(
				"'Attached Product 1: Product' must be the external ID of an existing product [item 0]",
			);
			expect(writesSeen(suite)).toEqual([]);
		});

		itRefusesAnItemWithout(suite, 'Entity', () => create({ entityId: '={{ $json.equipment }}' }));

		describe('without a Product', () => {
			const equipment = () =>
				(suite.sandbox.store.equipment as IDataObject[]).find(
					(piece) => piece.id === suite.fixtures.equipmentId,
				)!;

			it("books the piece of equipment's own product, and says so in the output", async () => {
				const { items, error } = await suite.run(create({ productId: picked('') }));

				expect(error).toBeUndefined();
				expect(equipment().productId).toEqual(expect.any(String));
				const [post] = writesSeen(suite);
				expect(post.body).toEqual(expect.objectContaining({ productId: equipment().productId }));
				expect(json(items)).toEqual([
					expect.objectContaining({ productId: equipment().productId, productFromEquipment: true }),
				]);
			});

			it('does so for Create or Update too, when it creates the booking', async () => {
				const { items, error } = await suite.run({
					...create({ productId: picked('') }),
					operation: 'upsert',
					externalId: newExternalId('BK-EQ'),
				});

				expect(error).toBeUndefined();
				expect(json(items)).toEqual([
					expect.objectContaining({
						productId: equipment().productId,
						productFromEquipment: true,
						upserted: 'created',
					}),
				]);
			});

			it('fails the item, asking for the Product, when the entity is no piece of equipment (a person)', async () => {
				const person = '6a1f0c2e-8d4b-4e3a-9c7f-2b5d8e1a4f60';
				const { error } = await suite.run(
					create({ productId: picked(''), entityId: picked(person) }),
				);

				expect(error?.message).toBe(
					"'Product' must be set: the entity booked is no piece of equipment with a product [item 0]",
				);
				expect(error?.description).toContain(`no piece of equipment with the ID ${person}`);
				expect(writesSeen(suite)).toEqual([]);
			});
		});

		it('refuses an attached product without its product before sending, naming the entry', async () => {
			const { error } = await suite.run(
				create({
					additionalFields: {
						attachedProducts: { attachedProduct: [{ productId: picked(''), quantity: 1 }] },
					},
				}),
			);

			expect(error?.message).toBe(
				"'Attached Product 1: Product' must be set: this field is required [item 0]",
			);
			expect(suite.sandbox.requests).toEqual([]);
		});

		it('under Continue On Fail, fails only the item with a wrong quantity, each output paired', async () => {
			const { items, errorItems } = await suite.run(
				create({ additionalFields: { quantity: '={{ $json.quantity }}' } }),
				{
					onError: 'continueErrorOutput',
					items: [{ quantity: 1 }, { quantity: -3 }, { quantity: 2.5 }],
				},
			);

			expect(paired(items)).toEqual([
				[0, expect.objectContaining({ quantity: 1 })],
				[2, expect.objectContaining({ quantity: 2.5 })],
			]);
			expect(paired(errorItems)).toEqual([
				[1, expect.objectContaining({ error: expect.stringMatching(/^'Quantity' must be /) })],
			]);
			expect(writesSeen(suite).map((request) => (request.body as IDataObject).quantity)).toEqual([
				1, 2.5,
			]);
		});

		itNamesTheFieldAtFaultInEachDialect(
			suite,
			() => create({ productId: picked(suite.fixtures.serviceProductId) }),
			{
				message: 'The API rejected the request (HTTP 422)',
				said: 'is a SERVICE',
				field: 'Product',
			},
		);

		describe('Attached Products given as JSON', () => {
			const createBooking = (additionalFields: INodeParameters) => create({ additionalFields });
			const bodies = () => writesSeen(suite).map((request) => request.body);

			it('sends what the fields send, a product given by ID or by external ID in its picker form', async () => {
				const { serviceProductId } = suite.fixtures;
				const serviceExternalId = (
					(await readBack(suite, `${PRODUCTS}/${serviceProductId}`)) as IDataObject
				).externalId as string;
				const entry = { periodType: 'WORKING_DAYS', quantity: 2, price: 49.9, changePrice: true };
				suite.sandbox.resetStats();
				await suite.run(
					createBooking({
						attachedProducts: {
							attachedProduct: [
								{ productId: picked(serviceProductId), ...entry },
								{ productId: byExternalId(serviceExternalId), ...entry },
							],
						},
					}),
				);
				const fromFields = bodies();
				suite.sandbox.resetStats();
				const { error } = await suite.run(
					createBooking({
						attachedProductsInput: 'json',
						attachedProductsJson: JSON.stringify([
							{ productId: serviceProductId, ...entry, quantity: '2' },
							{ productId: { mode: 'externalId', value: serviceExternalId }, ...entry },
						]),
					}),
				);

				expect(error).toBeUndefined();
				expect(fromFields).toEqual([
					expect.objectContaining({
						attachedProducts: [
							{ productId: serviceProductId, ...entry },
							{ productId: serviceProductId, ...entry },
						],
					}),
				]);
				expect(bodies()).toEqual(fromFields);
				expect(writesSeen(suite)[0].path).toBe(BOOKINGS);
			});

			// The fields always hold an option's and a switch's value (Period Type, Change Price); JSON
			// says only what it gives, and nothing is made up for it.
			it('sends only the keys an entry gives', async () => {
				const { serviceProductId } = suite.fixtures;
				const { error } = await suite.run(
					createBooking({
						attachedProductsInput: 'json',
						attachedProductsJson: [{ productId: serviceProductId, quantity: 1 }],
					}),
				);

				expect(error).toBeUndefined();
				expect(bodies()).toEqual([
					expect.objectContaining({
						attachedProducts: [{ productId: serviceProductId, quantity: 1 }],
					}),
				]);
			});

			it('fails an attached product external ID the API does not know by the entry, writing nothing', async () => {
				const { error } = await suite.run(
					createBooking({
						attachedProductsInput: 'json',
						attachedProductsJson: [
							{ productId: { mode: 'externalId', value: 'ERP-NO-SUCH-SERVICE' }, quantity: 1 },
						],
					}),
				);

				expect(error?.message).toBe(
					"'Attached Product 1: Product' must be the external ID of an existing product [item 0]",
				);
				expect(writesSeen(suite)).toEqual([]);
			});
		});
	});

	describe('Update', () => {
		itSendsOnlyTheUpdateFields(bookings, {
			updateFields: {
				status: 'IN_PROGRESS',
				quantity: 3,
				billingStatus: 'PARTIALLY_BILLED',
				additionalInformation: 'Extended by phone',
			},
			output: ({ id }) => ({ id, status: 'IN_PROGRESS', quantity: 3 }),
			after: (booking) => ({
				startDate: booking.startDate,
				endDate: booking.endDate,
				pickUpAddress: 'Depot Nord, Hamburg',
				contractId: suite.fixtures.contractId,
			}),
		});

		declareCommonUpdateTests(bookings, {
			cleared: ['pickUpAddress'],
			setAndCleared: { field: 'pickUpAddress', value: 'Depot Süd', label: 'Pick-Up Address' },
			emptyExpression: {
				updateFields: {
					deliveryAddress: '={{ $json.delivery }}',
					normalPrice: '={{ $json.price }}',
				},
				item: { price: 120 },
				sent: { normalPrice: 120 },
			},
		});
	});

	describe('Delete', () => {
		declareCommonDeleteTests(bookings);
	});
});
