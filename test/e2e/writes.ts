/**
 * The writes of master data (issue 26) as one workflow for the e2e suite: every Create, Update,
 * Delete and Create or Update of clients, contact persons, contracts, products, equipment and
 * bookings, and the contact persons' reads, in one chain of nodes, so that a single `n8n execute`
 * runs them all. Later nodes take the IDs earlier ones wrote with `$('node').first().json.id`, or
 * name the records by external ID (pickers in mode By External ID). The records it creates and
 * deletes are new ones: the seeded data stays as it was.
 */
import { chainWorkflow, type Json, type NodeSpec } from './support';

/** The external IDs of the records the workflow writes: `1` created and deleted, `2` upserted. */
export const EXT = {
	client1: 'E2E-W-CL-1',
	client2: 'E2E-W-CL-2',
	contact1: 'E2E-W-CP-1',
	contact2: 'E2E-W-CP-2',
	contract1: 'E2E-W-CT-1',
	contract2: 'E2E-W-CT-2',
	product1: 'E2E-W-PR-1',
	product2: 'E2E-W-PR-2',
	equipment1: 'E2E-W-EQ-1',
	equipment2: 'E2E-W-EQ-2',
	booking1: 'E2E-W-BK-1',
	booking2: 'E2E-W-BK-2',
} as const;

/** A branch's UUID: the sandbox models no structures and takes any. */
export const STRUCTURE_ID = '3c9a1f1e-5b7d-4e2a-9f0c-6d8e7a1b2c3d';

export const WRITES_WORKFLOW = 'opWrites';

/** A picker in mode By ID, given the ID an earlier node of the chain output. */
const idFrom = (node: string) => ({
	__rl: true,
	mode: 'id',
	value: `={{ $('${node}').first().json.id }}`,
});

/** A picker in mode By External ID, as the editor saves it. */
export const byExternalId = (value: string) => ({ __rl: true, mode: 'externalId', value });

const CLIENT2 = 'Create or update client (updates)';
const contract = {
	startDate: '2026-07-01T00:00:00Z',
	endDate: '2026-12-31T23:59:59Z',
	structureId: STRUCTURE_ID,
};
const booking = { startDate: '2026-07-01T08:00:00Z', endDate: '2026-07-05T17:00:00Z' };

const node = (name: string, resource: string, operation: string, parameters: Json): NodeSpec => ({
	name,
	parameters: { resource, operation, ...parameters },
});

/** The nodes of the chain, in the order they run. */
export const WRITE_NODES: NodeSpec[] = [
	// Clients: the first is created, changed and (at the end) deleted; the second is upserted twice.
	node('Create client', 'client', 'create', {
		name: 'E2E Writes GmbH',
		additionalFields: {
			externalId: EXT.client1,
			city: 'Berlin',
			phone: '+49 30 1234567',
			creditLimit: 5000,
			status: 'ACTIVE',
			frameContract: true,
			contactPersons: { contactPerson: [{ name: 'Jana Weber', isMain: true, jobTitle: 'CEO' }] },
		},
	}),
	node('Update client', 'client', 'update', {
		clientId: idFrom('Create client'),
		updateFields: { city: 'Hamburg', creditLimit: 7500 },
		clearFields: ['phone'],
	}),
	node('Create or update client (creates)', 'client', 'upsert', {
		externalId: EXT.client2,
		name: 'E2E Upsert AG',
		additionalFields: { city: 'Köln', email: 'office@upsert.example' },
	}),
	node(CLIENT2, 'client', 'upsert', {
		externalId: EXT.client2,
		name: 'E2E Upsert AG',
		additionalFields: { city: 'Bonn' },
	}),

	// Contact persons of the second client, which is named by its external ID or by its ID.
	node('Create contact person', 'contactPerson', 'create', {
		clientId: byExternalId(EXT.client2),
		name: 'Max Mustermann',
		isMain: false,
		additionalFields: {
			externalId: EXT.contact1,
			email: 'max@upsert.example',
			jobTitle: 'Foreman',
		},
	}),
	node('Update contact person', 'contactPerson', 'update', {
		clientId: idFrom(CLIENT2),
		contactPersonId: idFrom('Create contact person'),
		updateFields: { jobTitle: 'Site Manager' },
		clearFields: ['email'],
	}),
	node('Get contact person', 'contactPerson', 'get', {
		clientId: idFrom(CLIENT2),
		contactPersonId: idFrom('Create contact person'),
	}),
	node('Get contact person by external ID', 'contactPerson', 'getByExternalId', {
		clientId: byExternalId(EXT.client2),
		externalId: EXT.contact1,
	}),
	node('Create or update contact person (creates)', 'contactPerson', 'upsert', {
		clientId: byExternalId(EXT.client2),
		externalId: EXT.contact2,
		name: 'Erika Musterfrau',
		isMain: true,
		additionalFields: { phone: '+49 221 555' },
	}),
	node('Create or update contact person (updates)', 'contactPerson', 'upsert', {
		clientId: byExternalId(EXT.client2),
		externalId: EXT.contact2,
		name: 'Erika Musterfrau',
		isMain: true,
		additionalFields: { phone: '+49 221 777' },
	}),
	node('Get many contact persons', 'contactPerson', 'getAll', {
		clientId: idFrom(CLIENT2),
		returnAll: true,
	}),
	node('Delete contact person', 'contactPerson', 'delete', {
		clientId: byExternalId(EXT.client2),
		contactPersonId: idFrom('Create contact person'),
	}),

	// Contracts, each with its client given by the client's external ID.
	node('Create contract', 'contract', 'create', {
		clientId: byExternalId(EXT.client1),
		...contract,
		additionalFields: {
			title: 'E2E site Berlin',
			externalId: EXT.contract1,
			city: 'Berlin',
			point: { coordinates: { lat: 52.5251, lng: 13.3694 } },
		},
	}),
	node('Update contract', 'contract', 'update', {
		contractId: idFrom('Create contract'),
		updateFields: { title: 'E2E site Berlin-Mitte' },
		clearFields: ['city'],
	}),
	node('Create or update contract (creates)', 'contract', 'upsert', {
		externalId: EXT.contract2,
		clientId: byExternalId(EXT.client2),
		...contract,
		additionalFields: { title: 'E2E upsert site' },
	}),
	node('Create or update contract (updates)', 'contract', 'upsert', {
		externalId: EXT.contract2,
		clientId: byExternalId(EXT.client2),
		...contract,
		additionalFields: { title: 'E2E upsert site, phase 2' },
	}),

	// Products: a price list sent replaces the product's tiers.
	node('Create product', 'product', 'create', {
		title: 'E2E excavator',
		type: 'RESOURCE',
		unitType: 'DAYS',
		priceList: {
			priceItem: [
				{ from: 1, price: 100 },
				{ from: 3, price: 80 },
			],
		},
		additionalFields: { externalId: EXT.product1, additionalInformation: 'made by e2e' },
	}),
	node('Update product', 'product', 'update', {
		productId: idFrom('Create product'),
		updateFields: { title: 'E2E excavator 2 t' },
		clearFields: ['additionalInformation'],
	}),
	node('Create or update product (creates)', 'product', 'upsert', {
		externalId: EXT.product2,
		title: 'E2E roller',
		type: 'RESOURCE',
		unitType: 'DAYS',
		priceList: { priceItem: [{ from: 1, price: 50 }] },
	}),
	node('Create or update product (updates)', 'product', 'upsert', {
		externalId: EXT.product2,
		title: 'E2E roller',
		type: 'RESOURCE',
		unitType: 'DAYS',
		priceList: { priceItem: [{ from: 1, price: 55 }] },
	}),

	// Equipment: its update is a PUT, which the node sends over the record's own values.
	node('Create equipment', 'equipment', 'create', {
		title: 'E2E excavator #1',
		additionalFields: {
			externalId: EXT.equipment1,
			invNumber: 'INV-E2E-1',
			productId: byExternalId(EXT.product1),
			year: 2024,
			specifications: '{ "bucket": "0.1 m3" }',
		},
	}),
	node('Update equipment', 'equipment', 'update', {
		equipmentId: idFrom('Create equipment'),
		updateFields: { subtitle: 'with quick coupler' },
		clearFields: ['invNumber'],
	}),
	node('Get equipment by external ID', 'equipment', 'getByExternalId', {
		externalId: EXT.equipment1,
	}),
	node('Create or update equipment (creates)', 'equipment', 'upsert', {
		externalId: EXT.equipment2,
		title: 'E2E roller #1',
		additionalFields: { productId: byExternalId(EXT.product2), year: 2022 },
	}),
	node('Create or update equipment (updates)', 'equipment', 'upsert', {
		externalId: EXT.equipment2,
		title: 'E2E roller #1',
		additionalFields: { year: 2023 },
	}),

	// Bookings of the equipment above, their contract and product given by external ID.
	node('Create booking', 'booking', 'create', {
		...booking,
		entityId: idFrom('Create equipment'),
		productId: byExternalId(EXT.product1),
		contractId: byExternalId(EXT.contract1),
		additionalFields: { externalId: EXT.booking1, quantity: 2, pickUpAddress: 'Depot Nord' },
	}),
	node('Update booking', 'booking', 'update', {
		bookingId: "={{ $('Create booking').first().json.id }}",
		updateFields: { quantity: 3, additionalInformation: 'extended by e2e' },
		clearFields: ['pickUpAddress'],
	}),
	node('Create or update booking (creates)', 'booking', 'upsert', {
		externalId: EXT.booking2,
		...booking,
		entityId: idFrom('Create or update equipment (creates)'),
		productId: byExternalId(EXT.product2),
		contractId: byExternalId(EXT.contract2),
		additionalFields: { quantity: 1 },
	}),
	node('Create or update booking (updates)', 'booking', 'upsert', {
		externalId: EXT.booking2,
		...booking,
		entityId: idFrom('Create or update equipment (creates)'),
		productId: byExternalId(EXT.product2),
		contractId: byExternalId(EXT.contract2),
		additionalFields: { quantity: 4 },
	}),

	// The first record of each kind is deleted, those that name others first.
	node('Delete booking', 'booking', 'delete', {
		bookingId: "={{ $('Create booking').first().json.id }}",
	}),
	node('Delete equipment', 'equipment', 'delete', { equipmentId: idFrom('Create equipment') }),
	node('Delete product', 'product', 'delete', { productId: idFrom('Create product') }),
	node('Delete contract', 'contract', 'delete', { contractId: idFrom('Create contract') }),
	node('Delete client', 'client', 'delete', { clientId: idFrom('Create client') }),
];

export function writesWorkflow(): Json {
	return chainWorkflow(WRITES_WORKFLOW, 'e2e: every write of master data', WRITE_NODES);
}
