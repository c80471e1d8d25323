/**
 * Equipment: Create, Update and Delete through n8n's engine against the sandbox in strict mode. The
 * API updates a piece of equipment with a PUT, which the sandbox takes as replacing the record: the
 * node reads it first and sends its values with the changes over them, so an update of one field
 * costs the record none of its others. The evidence is the request the sandbox saw, and the record
 * read back.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../harness/sandbox';
import {
	byExternalId,
	createDirectly,
	declareCommonDeleteTests,
	EQUIPMENTS,
	itNamesTheFieldAtFaultInEachDialect,
	itRefusesAFieldBothSetAndCleared,
	itRefusesAnItemWithout,
	itRefusesAnUpdateWithNothingToChange,
	json,
	MISSING_ID,
	newExternalId,
	paired,
	PRODUCTS,
	readBack,
	recordKindWithId,
	requestsSeen,
	writesSeen,
} from '../../harness/writes';

const CATEGORY_ID = '123e4567-e89b-42d3-a456-426614174000';

/** The record as the API keeps it, without the stamps a write moves. */
function withoutUpdatedAt(record: IDataObject | undefined) {
	// eslint-disable-next-line @typescript-eslint/no-unused-vars -- destructured to leave it out
	const { updatedAt, ...rest } = record ?? {};
	return rest;
}

describe('Equipment', () => {
	const suite = useSandbox({ strict: true });
	afterEach(() => suite.sandbox.setOptions({ errorDialect: 'message' }));

	const create = (parameters: INodeParameters = {}) => ({
		resource: 'equipment',
		operation: 'create',
		title: 'Vibratory plate compactor 90 kg',
		...parameters,
	});
	/** A piece of equipment of its own with a value in many fields, of every kind. */
	const newEquipment = async () =>
		await createDirectly(suite, EQUIPMENTS, {
			title: 'Mini excavator 1.8 t',
			subtitle: 'Rubber tracks',
			invNumber: 'INV-77001',
			externalId: newExternalId('EQ'),
			categoryId: CATEGORY_ID,
			modelId: suite.fixtures.modelId,
			brandId: suite.fixtures.brandId,
			productId: suite.fixtures.equipmentProductId,
			warehouseId: 'WH-NORTH',
			structureIds: ['S-1', 'S-2'],
			year: 2021,
			month: 6,
			weight: 1850.5,
			serial_number: 'SN-0042',
			RFID: 'RFID-77001',
			specifications: { bucketWidthMm: 300, engine: 'diesel' },
			last_client_service: '2025-03-01T08:30:00.000Z',
			active: true,
			isSyncedLectura: false,
		});
	const equipments = recordKindWithId({
		suite,
		recordName: 'piece of equipment',
		fieldLabel: 'Equipment',
		newRecord: newEquipment,
		resource: 'equipment',
		collection: EQUIPMENTS,
		idParameter: 'equipmentId',
		readsFirst: true,
	});

	describe('Create', () => {
		it('sends exactly the fields filled in: texts, a list, numbers, JSON, a UTC date-time and booleans', async () => {
			const externalId = newExternalId('ERP-E');
			const { items, error } = await suite.run(
				create({
					additionalFields: {
						externalId,
						categoryId: CATEGORY_ID,
						modelId: suite.fixtures.modelId,
						structureIds: 'S-1, S-2',
						year: 2021,
						weight: 1850.5,
						specifications: '{"bucketWidthMm": 300}',
						installation: { mount: 'rear' },
						last_client_service: '2025-03-01T09:30:00',
						active: false,
						isSyncedLectura: true,
					},
				}),
				{ timezone: 'Europe/Berlin' },
			);

			expect(error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([
				{
					method: 'POST',
					path: EQUIPMENTS,
					body: {
						title: 'Vibratory plate compactor 90 kg',
						externalId,
						categoryId: CATEGORY_ID,
						modelId: suite.fixtures.modelId,
						structureIds: ['S-1', 'S-2'],
						year: 2021,
						weight: 1850.5,
						specifications: { bucketWidthMm: 300 },
						installation: { mount: 'rear' },
						last_client_service: '2025-03-01T08:30:00.000Z',
						active: false,
						isSyncedLectura: true,
					},
				},
			]);
			expect(json(items)).toEqual([
				expect.objectContaining({ id: expect.any(String), externalId, active: false }),
			]);
		});

		it('finds the product given by its external ID and sends its ID', async () => {
			const { productExternalId, equipmentProductId } = suite.fixtures;
			const { error } = await suite.run(
				create({ additionalFields: { productId: byExternalId(productExternalId) } }),
			);

			expect(error).toBeUndefined();
			expect(requestsSeen(suite)).toEqual([
				{ method: 'GET', path: `${PRODUCTS}/external-id/${productExternalId}` },
				{
					method: 'POST',
					path: EQUIPMENTS,
					body: { title: 'Vibratory plate compactor 90 kg', productId: equipmentProductId },
				},
			]);
		});

		it('fails a product external ID the API does not know by the field, writing nothing', async () => {
			const { error } = await suite.run(
				create({ additionalFields: { productId: byExternalId('ERP-NO-SUCH-PRODUCT') } }),
			);

			expect(error?.message).toBe(
				"'Product' must be the external ID of an existing product [item 0]",
			);
			expect(writesSeen(suite)).toEqual([]);
		});

		itRefusesAnItemWithout(suite, 'Title', () => create({ title: '={{ $json.title }}' }));

		it('under Continue On Fail, fails only the item with a wrong year, each output paired', async () => {
			const { items, errorItems } = await suite.run(
				create({ title: '={{ $json.title }}', additionalFields: { year: '={{ $json.year }}' } }),
				{
					onError: 'continueErrorOutput',
					items: [
						{ title: 'Roller A', year: 2019 },
						{ title: 'Roller B', year: 'MMXXI' },
						{ title: 'Roller C', year: '2022' },
					],
				},
			);

			expect(paired(items)).toEqual([
				[0, expect.objectContaining({ title: 'Roller A', year: 2019 })],
				[2, expect.objectContaining({ title: 'Roller C', year: 2022 })],
			]);
			expect(paired(errorItems)).toEqual([
				[1, expect.objectContaining({ error: expect.stringMatching(/^'Year' must be /) })],
			]);
			expect(writesSeen(suite).map((request) => request.body)).toEqual([
				{ title: 'Roller A', year: 2019 },
				{ title: 'Roller C', year: 2022 },
			]);
		});

		itNamesTheFieldAtFaultInEachDialect(
			suite,
			() => create({ additionalFields: { modelId: MISSING_ID } }),
			{
				message: 'Not found (HTTP 404): no record has the ID you gave',
				said: `No equipment model has the id ${MISSING_ID}`,
				field: 'Model ID',
			},
		);
	});

	describe('Update (the API replaces the record with what a PUT sends)', () => {
		it('keeps every field it was not given: the record read back differs in that field alone', async () => {
			const equipment = await newEquipment();
			const { items, error } = await suite.run(
				equipments.update(equipment, { updateFields: { warehouseId: 'WH-SOUTH' } }),
			);

			expect(error).toBeUndefined();
			const after = await readBack(suite, `${EQUIPMENTS}/${equipment.id}`);
			expect(withoutUpdatedAt(after)).toEqual({
				...withoutUpdatedAt(equipment),
				warehouseId: 'WH-SOUTH',
			});
			expect(withoutUpdatedAt(items[0].json)).toEqual(withoutUpdatedAt(after));
		});

		it('reads the record, then PUTs its own values with the change over them', async () => {
			const equipment = await newEquipment();
			await suite.run(equipments.update(equipment, { updateFields: { year: 2020 } }));

			// eslint-disable-next-line @typescript-eslint/no-unused-vars -- destructured to leave them out
			const { id, createdAt, updatedAt, inventory, ...ownValues } = equipment;
			// The sandbox shows an unset invNumber, beaconId, modelId and brandId as null: not a value.
			const heldValues = Object.fromEntries(
				Object.entries(ownValues).filter(([, value]) => value !== null),
			);
			expect(requestsSeen(suite)).toEqual([
				{ method: 'GET', path: `${EQUIPMENTS}/${equipment.id}` },
				{
					method: 'PUT',
					path: `${EQUIPMENTS}/${equipment.id}`,
					body: { ...heldValues, year: 2020 },
				},
			]);
		});

		it('removes a field to clear and keeps the others', async () => {
			const equipment = await newEquipment();
			await suite.run(equipments.update(equipment, { clearFields: ['subtitle'] }));

			const put = writesSeen(suite)[0];
			expect(put).toMatchObject({
				method: 'PUT',
				body: expect.objectContaining({ subtitle: null }),
			});
			const after = await readBack(suite, `${EQUIPMENTS}/${equipment.id}`);
			// eslint-disable-next-line @typescript-eslint/no-unused-vars -- destructured to leave it out
			const { subtitle, ...kept } = withoutUpdatedAt(equipment);
			expect(withoutUpdatedAt(after)).toEqual(kept);
		});

		it('finds the product given by its external ID and sends its ID in the PUT', async () => {
			const equipment = await newEquipment();
			const { serviceProductId } = suite.fixtures;
			const serviceExternalId = (await readBack(suite, `${PRODUCTS}/${serviceProductId}`))!
				.externalId as string;
			suite.sandbox.resetStats();
			await suite.run(
				equipments.update(equipment, {
					updateFields: { productId: byExternalId(serviceExternalId) },
				}),
			);

			expect(writesSeen(suite)).toEqual([
				expect.objectContaining({
					method: 'PUT',
					body: expect.objectContaining({ productId: serviceProductId, title: equipment.title }),
				}),
			]);
		});

		itRefusesAFieldBothSetAndCleared(equipments, {
			field: 'RFID',
			value: 'RFID-2',
			label: 'RFID',
		});
		itRefusesAnUpdateWithNothingToChange(equipments);

		it('leaves out an Update Field whose expression comes out empty, keeping its value', async () => {
			const equipment = await newEquipment();
			await suite.run(
				equipments.update(equipment, {
					updateFields: { serial_number: '={{ $json.serial }}', weight: '={{ $json.weight }}' },
				}),
				{ items: [{ weight: 1900 }] },
			);

			expect(writesSeen(suite)[0].body).toMatchObject({ serial_number: 'SN-0042', weight: 1900 });
		});
	});

	describe('Delete', () => {
		declareCommonDeleteTests(equipments, {
			because: 'bookings name it',
			id: () => {
				const bookings = suite.sandbox.store.bookings as unknown as Map<
					string,
					{ entityId: string; productType: string }
				>;
				return [...bookings.values()].find((booking) => booking.productType === 'EQUIPMENT')!
					.entityId;
			},
			error: /^The API rejected the request \(HTTP 409\) \[item 0\]\. .*bookings/,
		});
	});
});
