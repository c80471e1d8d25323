/**
 * Every field the node writes, given a value: the kinds of record with writes, how the node reads
 * each back, and Create or Update rows whose every field of the form has a value made from the
 * field's type (texts with stray spaces around them, numbers and dates as a sheet writes them), so
 * that a field added later is covered too. The round-trip and preview suites share it.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import type { BodyField } from '../../nodes/EquipmentRental/operations/bodyFields';
import { bookingRecord } from '../../nodes/EquipmentRental/resources/booking/record';
import { clientRecord } from '../../nodes/EquipmentRental/resources/client/record';
import { contactPersonRecord } from '../../nodes/EquipmentRental/resources/contactPerson/record';
import { contractRecord } from '../../nodes/EquipmentRental/resources/contract/record';
import { equipmentRecord } from '../../nodes/EquipmentRental/resources/equipment/record';
import { productRecord } from '../../nodes/EquipmentRental/resources/product/record';
import type { RecordKind } from '../../nodes/EquipmentRental/writes/recordKind';
import { split, updatable } from '../../nodes/EquipmentRental/writes/recordKind';
import type { SandboxSuite } from './sandbox';
import { byId } from './writes';

const STRUCTURE_ID = '123e4567-e89b-42d3-a456-426614174000';

/** Every field an operation of `kind` writes: its create page's and its update page's. */
export const fieldsOf = (kind: RecordKind): BodyField[] => [
	...new Set([...kind.fields, ...updatable(kind)]),
];

/** A kind of record with writes, as the tests run it. */
export interface WrittenKind {
	kind: RecordKind;
	/** The parameters that name the record's parent (a contact person's client). */
	parent?: () => INodeParameters;
	/** How the node reads one record back, and its list where the kind has one. */
	get: (id: string) => INodeParameters;
	getMany?: () => INodeParameters;
}

/** Every kind of record the node writes, the records they name taken from the sandbox's seed. */
export function writtenKinds(suite: SandboxSuite): WrittenKind[] {
	const acme = () => byId(suite.fixtures.acmeClientId);
	return [
		{
			kind: clientRecord,
			get: (id) => ({ resource: 'client', operation: 'get', clientId: byId(id) }),
			getMany: () => ({ resource: 'client', operation: 'getAll', returnAll: true }),
		},
		{
			kind: contactPersonRecord,
			parent: () => ({ clientId: acme() }),
			get: (id) => ({
				resource: 'contactPerson',
				operation: 'get',
				clientId: acme(),
				contactPersonId: byId(id),
			}),
			getMany: () => ({
				resource: 'contactPerson',
				operation: 'getAll',
				clientId: acme(),
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
}

/**
 * Values for `field` as a sheet would give them, different for each row (`row`). Fields the
 * sandbox checks against what it holds (the records a field names) get seeded records.
 */
export function valueFor(suite: SandboxSuite, field: BodyField, row: string): unknown {
	const { fixtures } = suite;
	const known: Record<string, unknown> = {
		entityId: byId(fixtures.equipmentId),
		// A client's number is a number to the API; the others' are texts of digits alike.
		number: '  4711  ',
		billingStatus: 'PARTIALLY_BILLED',
		modelId: fixtures.modelId,
		brandId: fixtures.brandId,
		structureId: STRUCTURE_ID,
		categoryId: STRUCTURE_ID,
	};
	const { property, refersTo } = field;
	if (property.name in known) return known[property.name];
	if (refersTo) {
		if (property.description?.startsWith('The attached')) return byId(fixtures.serviceProductId);
		const byKind: Record<string, string> = {
			client: fixtures.acmeClientId,
			contract: fixtures.acmeBerlinContractId,
			product: fixtures.equipmentProductId,
		};
		return byId(byKind[refersTo.recordName]);
	}
	if (property.type === 'fixedCollection') {
		const [entry] = property.options as Array<{ name: string; values: INodeProperties[] }>;
		if (!field.entries)
			return { [entry.name]: Object.fromEntries(entry.values.map(({ name }) => [name, 12.5])) };
		const values = Object.fromEntries(
			field.entries.fields.map((entryField) => [
				entryField.property.name,
				valueFor(suite, entryField, row),
			]),
		);
		return { [entry.name]: [values] };
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
			return JSON.stringify({ source: 'every field', row });
		default:
			return property.placeholder?.includes('@')
				? `${property.name.toLowerCase()}.${row.toLowerCase()}@example.com`
				: `  ${property.displayName} ${row}  `;
	}
}

/**
 * Create or Update of `rows` (their external IDs) with every field of the form given a value: the
 * node's parameters (each field an expression reading its item; fixed collections as the form
 * saves them) and the items. `change` alters a row's values (e.g. one field that differs).
 */
export function upsertWithEveryField(
	suite: SandboxSuite,
	{ kind, parent }: WrittenKind,
	rows: string[],
	change: (values: IDataObject) => IDataObject = (values) => values,
): { parameters: INodeParameters; items: IDataObject[] } {
	const { required, optional } = split(kind, ['externalId']);
	const name = (bodyField: BodyField) => bodyField.property.name;
	const items = rows.map((row) =>
		change({
			externalId: row,
			...Object.fromEntries(
				[...required, ...optional].map((bodyField) => [
					name(bodyField),
					valueFor(suite, bodyField, row),
				]),
			),
		}),
	);
	const fromItem = (field: BodyField) =>
		field.property.type === 'fixedCollection'
			? (items[0][name(field)] as INodeParameters)
			: `={{ $json[${JSON.stringify(name(field))}] }}`;
	return {
		parameters: {
			resource: kind.resource,
			operation: 'upsert',
			...parent?.(),
			externalId: '={{ $json.externalId }}',
			...Object.fromEntries(required.map((field) => [name(field), fromItem(field)])),
			additionalFields: Object.fromEntries(optional.map((field) => [name(field), fromItem(field)])),
		},
		items,
	};
}
