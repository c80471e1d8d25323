/**
 * The lists the trigger's created-or-updated events poll, as tests see them in the sandbox's store:
 * which event polls which list, and how to change a record as the API would (its updatedAt and
 * createdAt by the API's clock), so that one test can run against every kind.
 */
import { randomUUID } from 'node:crypto';

import type { Sandbox } from './sandbox';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { stampAfter } = require('../../sandbox/handlers');

/** A record as the sandbox stores it (a product's store entry is not its answer, see productView). */
export interface StoredRecord {
	id: string;
	createdAt: string;
	updatedAt: string;
	[field: string]: unknown;
}

export interface RecordKind {
	/** The trigger's event on the list. */
	event: string;
	/** The event's name in the Event field. */
	name: string;
	path: string;
	/** The field an edit renames (the lists are sorted by it, so that an edit moves a record). */
	nameField: string;
	/** The store's collection of these records. */
	collection: 'models' | 'clients' | 'contracts' | 'products';
	/** Filters the list offers, with values the sandbox's records have, and the query they send. */
	filters: Record<string, string>;
	/** Whether the event's items carry changeType. */
	tellsCreatedFromUpdated: boolean;
}

export const MODEL_KIND: RecordKind = {
	event: 'equipmentModelUpdated',
	name: 'Equipment Model Created or Updated',
	path: '/master-data/v1/equipment-management/models',
	nameField: 'name',
	collection: 'models',
	filters: { search: 'e' },
	tellsCreatedFromUpdated: false,
};

/** The events added with issue 27, each on a list of the vendor's reference. */
export const MASTER_DATA_KINDS: RecordKind[] = [
	{
		event: 'clientUpdated',
		name: 'Client Created or Updated',
		path: '/master-data/v1/client-management/clients',
		nameField: 'name',
		collection: 'clients',
		filters: { status: 'ACTIVE', partnerType: 'INDUSTRY', search: 'a' },
		tellsCreatedFromUpdated: true,
	},
	{
		event: 'contractUpdated',
		name: 'Contract Created or Updated',
		path: '/master-data/v1/contract-management/contracts',
		nameField: 'title',
		collection: 'contracts',
		filters: { status: 'IN_PROGRESS', search: 'a' },
		tellsCreatedFromUpdated: true,
	},
	{
		event: 'productUpdated',
		name: 'Product Created or Updated',
		path: '/master-data/v1/product-management/products',
		nameField: 'title',
		collection: 'products',
		filters: { type: 'SERVICE', search: 'e' },
		tellsCreatedFromUpdated: true,
	},
];

export const RECORD_KINDS: RecordKind[] = [MODEL_KIND, ...MASTER_DATA_KINDS];

/** The records of `kind` in the sandbox's store, in the store's order. */
export function storedRecords(sandbox: Sandbox, kind: RecordKind): StoredRecord[] {
	const collection = sandbox.store[kind.collection] as StoredRecord[] | Map<string, StoredRecord>;
	return Array.isArray(collection) ? collection : [...collection.values()];
}

/**
 * Changes a record as an edit in the API would: `changes`, and updatedAt by the API's clock, at
 * least a millisecond after its previous one (the sandbox's writes, sandbox/handlers.js).
 */
export function editRecord(
	sandbox: Sandbox,
	record: StoredRecord,
	changes: Record<string, unknown> = {},
): StoredRecord {
	Object.assign(record, changes);
	record.updatedAt = stampAfter(sandbox.now(), record.updatedAt);
	return record;
}

/** Renames a record (`kind.nameField`), as an edit in the API would. */
export function renameRecord(
	sandbox: Sandbox,
	kind: RecordKind,
	record: StoredRecord,
	name = `${String(record[kind.nameField])} (edited)`,
): StoredRecord {
	return editRecord(sandbox, record, { [kind.nameField]: name });
}

/**
 * Adds a record as a create in the API would: a copy of `template` with a new id (random unless
 * given) and name, and createdAt and updatedAt by the API's clock.
 */
export function insertRecord(
	sandbox: Sandbox,
	kind: RecordKind,
	template: StoredRecord,
	name: string,
	id: string = randomUUID(),
): StoredRecord {
	const now = sandbox.now().toISOString();
	const record: StoredRecord = {
		...structuredClone(template),
		id,
		[kind.nameField]: name,
		createdAt: now,
		updatedAt: now,
	};
	const collection = sandbox.store[kind.collection] as StoredRecord[] | Map<string, StoredRecord>;
	if (Array.isArray(collection)) collection.push(record);
	else collection.set(record.id, record);
	return record;
}

/**
 * Hides a record's updatedAt from the API's answers (the sandbox still filters on it), as an API
 * that does not show it would answer.
 */
export function hideUpdatedAt(record: StoredRecord): StoredRecord {
	return Object.defineProperty(record, 'updatedAt', {
		value: record.updatedAt,
		enumerable: false,
		writable: true,
	});
}
