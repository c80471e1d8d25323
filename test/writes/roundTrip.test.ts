/**
 * Every field the node writes reads back as written, under the name the API reads it back by, and
 * a second Create or Update of the same rows writes nothing, whichever way the run finds the
 * records: by the collection read whole, or by looking each row up. Its output is then the same
 * record both ways, as the API holds it. Each kind of record the node writes gets every field of
 * its form with a value (texts with stray spaces around them, dates as a sheet writes them), so
 * that a field added later is covered too. Through n8n's engine against the sandbox in strict mode.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import type { BodyField } from '../../nodes/EquipmentRental/operations/bodyFields';
import { holdsValue } from '../../nodes/EquipmentRental/operations/storedValues';
import { bookingRecord } from '../../nodes/EquipmentRental/resources/booking/record';
import { clientRecord } from '../../nodes/EquipmentRental/resources/client/record';
import { contactPersonRecord } from '../../nodes/EquipmentRental/resources/contactPerson/record';
import { contractRecord } from '../../nodes/EquipmentRental/resources/contract/record';
import { equipmentRecord } from '../../nodes/EquipmentRental/resources/equipment/record';
import { productRecord } from '../../nodes/EquipmentRental/resources/product/record';
import type { RecordKind } from '../../nodes/EquipmentRental/writes/recordKind';
import { readBackName, split, updatable } from '../../nodes/EquipmentRental/writes/recordKind';
import { useSandbox } from '../harness/sandbox';
import { byId, json, newExternalId, requestsSeen, writesSeen } from '../harness/writes';

const STRUCTURE_ID = '123e4567-e89b-42d3-a456-426614174000';

/** Every field an operation of `kind` writes: its create page's and its update page's. */
const fieldsOf = (kind: RecordKind): BodyField[] => [
	...new Set([...kind.fields, ...updatable(kind)]),
];

describe('Every written field, read back and written again', () => {
	const suite = useSandbox({ strict: true });
	const fixtures = () => suite.fixtures;

	/**
	 * Values the sandbox checks against what it holds (the records a field names), by field name;
	 * every other field gets a value made from its type.
	 */
	const known = (): Record<string, unknown> => ({
		entityId: byId(fixtures().equipmentId),
		// A client's number is a number to the API; the others' are texts of digits alike.
		number: '  4711  ',
		billingStatus: 'PARTIALLY_BILLED',
		modelId: fixtures().modelId,
		brandId: fixtures().brandId,
		structureId: STRUCTURE_ID,
		categoryId: STRUCTURE_ID,
	});
	/** The record a reference field names: a seeded one of its kind (a service to attach). */
	const referenced = ({ property, refersTo }: BodyField): string => {
		if (property.description?.startsWith('The attached')) return fixtures().serviceProductId;
		const byKind: Record<string, string> = {
			client: fixtures().acmeClientId,
			contract: fixtures().acmeBerlinContractId,
			product: fixtures().equipmentProductId,
		};
		return byKind[refersTo!.recordName];
	};

	/** A value for `field` as a sheet would give it, different for each row (`row`). */
	function valueFor(field: BodyField, row: string, extra: Record<string, unknown>): unknown {
		const { property } = field;
		if (property.name in extra) return extra[property.name];
		if (field.refersTo) return byId(referenced(field));
		if (property.type === 'fixedCollection') {
			const [entry] = property.options as Array<{ name: string; values: INodeProperties[] }>;
			const entryFields = field.entries?.fields;
			const values = (fields: BodyField[]) =>
				Object.fromEntries(
					fields.map((entryField) => [entryField.property.name, valueFor(entryField, row, extra)]),
				);
			if (entryFields) return { [entry.name]: [values(entryFields)] };
			return {
				[entry.name]: Object.fromEntries(entry.values.map((value) => [value.name, 12.5])),
			};
		}
		switch (property.type) {
			case 'number':
				return '12.5';
			case 'boolean':
				return true;
			case 'dateTime':
				return property.name === 'endDate' ? '2027-03-31 17:30' : '2027-03-01 08:30';
			case 'options':
				return (property.options as Array<{ value: string }>).at(-1)!.value;
			case 'json':
				return JSON.stringify({ source: 'round trip', row });
			default:
				return property.placeholder?.includes('@')
					? `${property.name.toLowerCase()}.${row.toLowerCase()}@example.com`
					: `  ${property.displayName} ${row}  `;
		}
	}

	interface Case {
		kind: RecordKind;
		/** The parameters that name the record's parent (a contact person's client). */
		parent?: () => INodeParameters;
		/** How the node reads the record back, and its list where the kind has one. */
		get: (id: string) => INodeParameters;
		getMany?: () => INodeParameters;
	}

	const cases: Case[] = [
		{
			kind: clientRecord,
			get: (id) => ({ resource: 'client', operation: 'get', clientId: byId(id) }),
			getMany: () => ({ resource: 'client', operation: 'getAll', returnAll: true }),
		},
		{
			kind: contactPersonRecord,
			parent: () => ({ clientId: byId(fixtures().acmeClientId) }),
			get: (id) => ({
				resource: 'contactPerson',
				operation: 'get',
				clientId: byId(fixtures().acmeClientId),
				contactPersonId: byId(id),
			}),
			getMany: () => ({
				resource: 'contactPerson',
				operation: 'getAll',
				clientId: byId(fixtures().acmeClientId),
				returnAll: true,
			}),
		},
		{
			kind: contractRecord,
			get: (id) => ({ resource: 'contract', operation: 'get', contractId: byId(id) }),
			getMany: () => ({ resource: 'contract', operation: 'getAll', returnAll: true }),
		},
		{
			kind: bookingRecord,
			get: (id) => ({ resource: 'booking', operation: 'get', bookingId: byId(id) }),
		},
		{
			kind: productRecord,
			get: (id) => ({ resource: 'product', operation: 'get', productId: byId(id) }),
			getMany: () => ({ resource: 'product', operation: 'getAll', returnAll: true }),
		},
		{
			kind: equipmentRecord,
			get: (id) => ({ resource: 'equipment', operation: 'get', equipmentId: byId(id) }),
			getMany: () => ({ resource: 'equipment', operation: 'getAll', returnAll: true }),
		},
	];

	describe.each(cases.map((each) => [each.kind.resource, each] as const))('%s', (_name, each) => {
		const { kind } = each;
		const readName = readBackName(kind);
		const fieldNames = fieldsOf(kind).map((field) => field.property.name);
		// What only an update takes (a booking's billing status): written by Update.
		const updateOnly = updatable(kind).filter((field) => !kind.fields.includes(field));

		/** Create or Update parameters giving every field of the form a value, for each row. */
		function upsertOf(rows: string[]): { parameters: INodeParameters; items: IDataObject[] } {
			const { required, optional } = split(kind, ['externalId']);
			const field = (bodyField: BodyField) => bodyField.property.name;
			const items = rows.map((row) => {
				const values: IDataObject = { externalId: row };
				for (const bodyField of [...required, ...optional])
					values[field(bodyField)] = valueFor(bodyField, row, known()) as IDataObject;
				return values;
			});
			const fromItem = (name: string) => `={{ $json[${JSON.stringify(name)}] }}`;
			const parameters: INodeParameters = {
				resource: kind.resource,
				operation: 'upsert',
				...each.parent?.(),
				externalId: fromItem('externalId'),
				...Object.fromEntries(
					required.map((bodyField) => [field(bodyField), fromItem(field(bodyField))]),
				),
				additionalFields: Object.fromEntries(
					optional.map((bodyField) => [field(bodyField), fromItem(field(bodyField))]),
				),
			};
			// Fixed collections are given as the form saves them, not by expression.
			for (const bodyField of [...required, ...optional].filter(
				(candidate) => candidate.property.type === 'fixedCollection',
			)) {
				const value = items[0][field(bodyField)] as INodeParameters;
				if (required.includes(bodyField)) parameters[field(bodyField)] = value;
				else (parameters.additionalFields as INodeParameters)[field(bodyField)] = value;
			}
			return { parameters, items };
		}

		it('every field of the forms is given a value by this test', () => {
			const { items } = upsertOf(['ROW']);
			expect(
				[...Object.keys(items[0]), ...updateOnly.map((field) => field.property.name)].sort(),
			).toEqual([...fieldNames].sort());
		});

		it('reads back every field it wrote under the name the API reads it back by, through Get and Get Many; run again, whole read or looked up, it writes nothing and outputs the same record', async () => {
			const prefix = newExternalId(`RT-${kind.resource}`);
			const rows = [`${prefix}-A`, `${prefix}-B`];
			const { parameters, items } = upsertOf(rows);

			const first = await suite.run(parameters, { items, timezone: 'Europe/Berlin' });
			expect(first.error).toBeUndefined();
			expect(json(first.items).map((item) => item.upserted)).toEqual(['created', 'created']);
			const sent = requestsSeen(suite)
				.filter((request) => request.method === 'POST')
				.map((request) => request.body as IDataObject);
			expect(sent).toHaveLength(2);
			// Texts are sent without the spaces around them, but for free text, kept as given.
			const keptAsGiven = fieldsOf(kind)
				.filter((field) => field.property.description?.includes('kept as given'))
				.map((field) => field.property.name);
			for (const [index, body] of sent.entries())
				for (const [name, value] of Object.entries(body))
					if (typeof value === 'string')
						expect([name, value]).toEqual([
							name,
							keptAsGiven.includes(name) ? items[index][name] : value.trim(),
						]);

			const created = json(first.items);
			if (updateOnly.length > 0) {
				suite.sandbox.resetStats();
				for (const [index, record] of created.entries()) {
					const update = await suite.run({
						resource: kind.resource,
						operation: 'update',
						...each.parent?.(),
						[kind.recordPicker.name]: byId(String(record.id)),
						updateFields: Object.fromEntries(
							updateOnly.map((field) => [
								field.property.name,
								valueFor(field, rows[index], known()),
							]),
						) as INodeParameters,
					});
					expect(update.error).toBeUndefined();
				}
				sent.forEach((body, index) =>
					Object.assign(body, writesSeen(suite)[index].body as IDataObject),
				);
			}
			const readThrough = async (parameters: INodeParameters) => {
				const run = await suite.run(parameters);
				expect(run.error).toBeUndefined();
				return json(run.items);
			};
			const found = await Promise.all(
				created.map(async (record) => (await readThrough(each.get(String(record.id))))[0]),
			);
			const listed = each.getMany
				? (await readThrough(each.getMany())).filter((record) =>
						created.some((made) => made.id === record.id),
					)
				: [];
			for (const [index, body] of sent.entries()) {
				for (const [name, value] of Object.entries(body)) {
					const readBack = readName(name);
					const holds = (record: IDataObject) => ({
						field: name,
						readBack,
						holds: holdsValue(record[readBack], value),
					});
					const expected = { field: name, readBack, holds: true };
					expect(holds(found[index])).toEqual(expected);
					if (each.getMany)
						expect(holds(listed.find((record) => record.id === created[index].id)!)).toEqual(
							expected,
						);
				}
			}

			suite.sandbox.resetStats();
			const wholeRead = await suite.run(parameters, { items, timezone: 'Europe/Berlin' });
			expect(wholeRead.error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([]);
			if (each.getMany)
				expect(
					requestsSeen(suite).filter((request) => request.path.includes('external-id')),
				).toEqual([]);

			suite.sandbox.resetStats();
			const lookedUp = await suite.run(parameters, {
				items: [items[0]],
				timezone: 'Europe/Berlin',
			});
			expect(lookedUp.error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([]);

			expect(json(wholeRead.items)).toEqual(
				found.map((record) => ({ ...record, upserted: 'unchanged' })),
			);
			expect(json(lookedUp.items)).toEqual([{ ...found[0], upserted: 'unchanged' }]);
		});
	});
});
