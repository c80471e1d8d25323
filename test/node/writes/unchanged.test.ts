/**
 * Create or Update writes only what differs: it compares what it would send with the record it
 * found, as the API stores it (moments as instants, numbers, booleans, options, lists), and sends
 * nothing when they match (`upserted: "unchanged"`), only the differing fields when some differ
 * (PATCH), or the whole record as the API needs it (PUT, equipment). Empty Values says what a field
 * whose value comes out empty does: nothing (the default), or clear the record's. Through n8n's
 * engine against the sandbox in strict mode; the evidence is the requests the sandbox saw.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../harness/sandbox';
import {
	CLIENTS,
	CONTRACTS,
	createDirectly,
	EQUIPMENTS,
	json,
	newExternalId,
	picked,
	readBack,
	writesSeen,
} from '../../harness/writes';

const STRUCTURE_ID = '123e4567-e89b-42d3-a456-426614174000';

describe('Create or Update of a record that has not changed', () => {
	const suite = useSandbox({ strict: true });

	/** Runs the same parameters twice; the second run's items, the writes it sent. */
	async function runTwice(parameters: INodeParameters, timezone?: string) {
		const first = await suite.run(parameters, { timezone });
		expect(first.error).toBeUndefined();
		suite.sandbox.resetStats();
		const second = await suite.run(parameters, { timezone });
		expect(second.error).toBeUndefined();
		return { first: json(first.items), second: json(second.items), writes: writesSeen(suite) };
	}

	it('writes nothing for a client whose every value is already stored: texts, numbers, booleans and options', async () => {
		const { first, second, writes } = await runTwice({
			resource: 'client',
			operation: 'upsert',
			externalId: newExternalId('ERP'),
			name: 'Riverbank Civil Works',
			additionalFields: {
				city: 'Berlin',
				creditLimit: 5000,
				frameContract: true,
				status: 'ACTIVE',
			},
		});

		expect(first.map((item) => item.upserted)).toEqual(['created']);
		expect(second).toEqual([
			expect.objectContaining({ id: first[0].id, upserted: 'unchanged', city: 'Berlin' }),
		]);
		expect(writes).toEqual([]);
	});

	it('writes nothing for a date-only contract run again in Europe/Berlin: the dates are the same instants, whatever their form', async () => {
		const externalId = newExternalId('ERP-K');
		// As an API may store and answer them: without milliseconds, with an offset.
		await createDirectly(suite, CONTRACTS, {
			externalId,
			clientId: suite.fixtures.clientId,
			startDate: '2026-03-01T00:00:00+01:00',
			endDate: '2026-10-30T23:00:00Z',
			structureId: STRUCTURE_ID,
		});

		const { items, error } = await suite.run(
			{
				resource: 'contract',
				operation: 'upsert',
				externalId,
				clientId: picked(suite.fixtures.clientId),
				startDate: '2026-03-01',
				endDate: '2026-10-31',
				structureId: STRUCTURE_ID,
			},
			{ timezone: 'Europe/Berlin' },
		);

		expect(error).toBeUndefined();
		expect(json(items).map((item) => item.upserted)).toEqual(['unchanged']);
		expect(writesSeen(suite)).toEqual([]);
	});

	it('writes nothing for a product whose price list (a nested list) is stored as sent', async () => {
		const { second, writes } = await runTwice({
			resource: 'product',
			operation: 'upsert',
			externalId: newExternalId('ERP-P'),
			title: 'Mini excavator 1.8 t',
			type: 'RESOURCE',
			unitType: 'DAYS',
			priceList: {
				priceItem: [
					{ from: 1, price: 100 },
					{ from: 3, price: 70.5 },
				],
			},
		});

		expect(second.map((item) => item.upserted)).toEqual(['unchanged']);
		expect(writes).toEqual([]);
	});

	it('sends only the fields that differ, and says updated', async () => {
		const externalId = newExternalId('ERP');
		const existing = await createDirectly(suite, CLIENTS, {
			name: 'Harbour Logistics',
			externalId,
			city: 'Hamburg',
			phone: '+49 40 1234567',
		});

		const { items, error } = await suite.run({
			resource: 'client',
			operation: 'upsert',
			externalId,
			name: 'Harbour Logistics',
			additionalFields: { city: 'Bremen', phone: '+49 40 1234567' },
		});

		expect(error).toBeUndefined();
		expect(writesSeen(suite)).toEqual([
			{ method: 'PATCH', path: `${CLIENTS}/${existing.id}`, body: { city: 'Bremen' } },
		]);
		expect(json(items)).toEqual([expect.objectContaining({ city: 'Bremen', upserted: 'updated' })]);
	});

	it('replaces a piece of equipment (PUT) with its own values and the one that differs, and writes nothing when none does', async () => {
		const externalId = newExternalId('ERP-E');
		const equipment = await createDirectly(suite, EQUIPMENTS, {
			title: 'Mini excavator 1.8 t',
			externalId,
			warehouseId: 'WH-NORTH',
		});
		const upsert = (title: string): INodeParameters => ({
			resource: 'equipment',
			operation: 'upsert',
			externalId,
			title,
			additionalFields: { warehouseId: 'WH-NORTH' },
		});

		const same = await suite.run(upsert('Mini excavator 1.8 t'));
		expect(json(same.items).map((item) => item.upserted)).toEqual(['unchanged']);
		expect(writesSeen(suite)).toEqual([]);

		suite.sandbox.resetStats();
		const renamed = await suite.run(upsert('Mini excavator 1.9 t'));
		expect(json(renamed.items).map((item) => item.upserted)).toEqual(['updated']);
		expect(writesSeen(suite)).toEqual([
			{
				method: 'PUT',
				path: `${EQUIPMENTS}/${equipment.id}`,
				body: expect.objectContaining({
					title: 'Mini excavator 1.9 t',
					externalId,
					warehouseId: 'WH-NORTH',
				}),
			},
		]);
	});

	describe('Empty Values', () => {
		async function clientWithCity() {
			const externalId = newExternalId('ERP');
			const existing = await createDirectly(suite, CLIENTS, {
				name: 'Harbour Logistics',
				externalId,
				city: 'Hamburg',
			});
			return { externalId, id: existing.id as string };
		}
		/** A row whose City cell is blank, through Create or Update. */
		const blankCity = (externalId: string, extra: IDataObject = {}): INodeParameters => ({
			resource: 'client',
			operation: 'upsert',
			externalId,
			name: 'Harbour Logistics',
			additionalFields: { city: '={{ $json.city }}' },
			...extra,
		});

		it('leaves the field as it is by default: a blank cell sends nothing, and the record keeps its value', async () => {
			const { externalId, id } = await clientWithCity();

			const { items } = await suite.run(blankCity(externalId), { items: [{ city: '' }] });

			expect(json(items).map((item) => item.upserted)).toEqual(['unchanged']);
			expect(writesSeen(suite)).toEqual([]);
			expect(await readBack(suite, `${CLIENTS}/${id}`)).toMatchObject({ city: 'Hamburg' });
		});

		it('clears the field when asked: the blank cell is sent as null, and the record loses its value', async () => {
			const { externalId, id } = await clientWithCity();

			const { items } = await suite.run(blankCity(externalId, { emptyValues: 'clear' }), {
				items: [{ city: '' }],
			});

			expect(json(items).map((item) => item.upserted)).toEqual(['updated']);
			expect(writesSeen(suite)).toEqual([
				{ method: 'PATCH', path: `${CLIENTS}/${id}`, body: { city: null } },
			]);
			const stored = await readBack(suite, `${CLIENTS}/${id}`);
			expect(stored?.city ?? null).toBeNull();
		});

		it('clears nothing a record has no value for already, and creates without the empty field', async () => {
			const externalId = newExternalId('ERP');
			const parameters = blankCity(externalId, { emptyValues: 'clear' });

			const created = await suite.run(parameters, { items: [{ city: '' }] });
			suite.sandbox.resetStats();
			const again = await suite.run(parameters, { items: [{ city: '' }] });

			expect(json(created.items).map((item) => item.upserted)).toEqual(['created']);
			expect(json(again.items).map((item) => item.upserted)).toEqual(['unchanged']);
			expect(writesSeen(suite)).toEqual([]);
		});

		it('clears under Update too: an Update Field that comes out empty is sent as null', async () => {
			const { id } = await clientWithCity();

			const { error } = await suite.run(
				{
					resource: 'client',
					operation: 'update',
					clientId: picked(id),
					emptyValues: 'clear',
					updateFields: { city: '={{ $json.city }}', phone: '+49 40 999' },
				},
				{ items: [{ city: '' }] },
			);

			expect(error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([
				{ method: 'PATCH', path: `${CLIENTS}/${id}`, body: { phone: '+49 40 999', city: null } },
			]);
		});
	});
});
