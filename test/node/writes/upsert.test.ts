/**
 * Create or Update (upsert) by External ID, the behaviour every resource shares, through n8n's
 * engine against the sandbox in strict mode: found by its external ID, a record is updated with the
 * fields filled in (PATCH, or PUT over its own values for equipment); not found, it is created. Safe
 * to repeat, and safe against another writer and against a lost answer. The evidence is the
 * requests the sandbox saw, in order, and the records it holds afterwards.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { SandboxRequest } from '../../harness/sandbox';
import { useSandbox } from '../../harness/sandbox';
import {
	BOOKINGS,
	byExternalId,
	CLIENTS,
	contactPersonsOf,
	CONTRACTS,
	createDirectly,
	directApi,
	EQUIPMENTS,
	itRefusesAnItemWithout,
	json,
	newExternalId,
	paired,
	picked,
	readBack,
	requestsSeen,
	writesSeen,
} from '../../harness/writes';

describe('Create or Update', () => {
	const suite = useSandbox({ strict: true });
	afterEach(() => suite.sandbox.setOptions({ faults: null }));

	const clients = () => suite.sandbox.store.clients as unknown as IDataObject[];
	const clientsWith = (externalId: string) =>
		clients().filter((client) => client.externalId === externalId);
	const upsertClient = (externalId: string, parameters: INodeParameters = {}) => ({
		resource: 'client',
		operation: 'upsert',
		externalId,
		name: 'Riverbank Civil Works',
		...parameters,
	});

	describe('Continue On Fail', () => {
		const rows = () => {
			const prefix = newExternalId('ERP');
			return [
				{ erpId: `${prefix}-1`, limit: '5000' },
				{ erpId: `${prefix}-2`, limit: 'five thousand' },
				{ erpId: `${prefix}-3`, limit: '7000' },
			];
		};
		const fromRows: INodeParameters = {
			resource: 'client',
			operation: 'upsert',
			externalId: '={{ $json.erpId }}',
			name: 'Riverbank Civil Works',
			additionalFields: { creditLimit: '={{ $json.limit }}' },
		};

		it('on the regular output, a failed item names the record it was about by the external ID it gave', async () => {
			const items = rows();
			const { items: output } = await suite.run(fromRows, {
				items,
				onError: 'continueRegularOutput',
			});

			expect(paired(output)).toEqual([
				[0, expect.objectContaining({ externalId: items[0].erpId, upserted: 'created' })],
				[
					1,
					{
						error: expect.stringMatching(/^'Credit Limit' must be a number/),
						externalId: items[1].erpId,
					},
				],
				[2, expect.objectContaining({ externalId: items[2].erpId, upserted: 'created' })],
			]);
		});

		it('on the error output, the failed item carries only the error, to which n8n adds the row', async () => {
			const items = rows();
			const { errorItems } = await suite.run(fromRows, {
				items,
				onError: 'continueErrorOutput',
			});

			expect(json(errorItems)).toEqual([
				{ ...items[1], error: expect.stringMatching(/^'Credit Limit' must be a number/) },
			]);
		});
	});

	describe('Client', () => {
		it('creates the record when no record has the external ID, sending the external ID with the fields', async () => {
			const externalId = newExternalId('ERP');
			const { items, error } = await suite.run(
				upsertClient(externalId, { additionalFields: { city: 'Berlin' } }),
			);

			expect(error).toBeUndefined();
			expect(requestsSeen(suite)).toEqual([
				{ method: 'GET', path: `${CLIENTS}/external-id/${externalId}` },
				{
					method: 'POST',
					path: CLIENTS,
					body: { externalId, name: 'Riverbank Civil Works', city: 'Berlin' },
				},
			]);
			expect(json(items)).toEqual([
				expect.objectContaining({ id: expect.any(String), externalId, upserted: 'created' }),
			]);
		});

		it('run twice, leaves one record: the second run finds it holding every value, writes nothing and says unchanged', async () => {
			const externalId = newExternalId('ERP');
			const parameters = upsertClient(externalId, {
				additionalFields: { city: 'Berlin', creditLimit: 5000 },
			});
			const first = await suite.run(parameters);
			suite.sandbox.resetStats();
			const second = await suite.run(parameters);

			const [created] = json(first.items);
			expect(created.upserted).toBe('created');
			expect(json(second.items)).toEqual([
				expect.objectContaining({ id: created.id, upserted: 'unchanged' }),
			]);
			expect(requestsSeen(suite)).toEqual([
				{ method: 'GET', path: `${CLIENTS}/external-id/${externalId}` },
			]);
			expect(clientsWith(externalId)).toEqual([
				expect.objectContaining({ updatedAt: created.updatedAt }),
			]);
		});

		it('updates a record found by its external ID with the fields filled in alone; its others stay', async () => {
			const existing = await createDirectly(suite, CLIENTS, {
				name: 'Harbour Logistics',
				externalId: newExternalId('ERP'),
				city: 'Hamburg',
				email: 'office@harbour.example',
			});
			const { items } = await suite.run(
				upsertClient(existing.externalId as string, {
					name: 'Harbour Logistics GmbH',
					additionalFields: { phone: '+49 40 1234567' },
				}),
			);

			expect(writesSeen(suite)).toEqual([
				{
					method: 'PATCH',
					path: `${CLIENTS}/${existing.id}`,
					body: { name: 'Harbour Logistics GmbH', phone: '+49 40 1234567' },
				},
			]);
			expect(json(items)).toEqual([
				expect.objectContaining({ id: existing.id, upserted: 'updated' }),
			]);
			expect(await readBack(suite, `${CLIENTS}/${existing.id}`)).toMatchObject({
				name: 'Harbour Logistics GmbH',
				city: 'Hamburg',
				email: 'office@harbour.example',
				phone: '+49 40 1234567',
			});
		});

		it('turns a create refused with 409 (another writer took the external ID meanwhile) into an update of that record', async () => {
			const externalId = newExternalId('ERP');
			let otherWriters: IDataObject | undefined;
			// Between the node's lookup and its create, another writer creates the record.
			const stopHook = suite.sandbox.onRequest(async (request: SandboxRequest) => {
				if (request.method !== 'POST' || request.path !== CLIENTS) return;
				stopHook();
				const answer = await directApi(suite)('POST', CLIENTS, {
					body: { name: 'Created by another writer', externalId },
				});
				otherWriters = answer.body;
			});
			try {
				const { items, error } = await suite.run(upsertClient(externalId));

				expect(error).toBeUndefined();
				const nodes = suite.sandbox.requests.filter(
					(request) => (request.body as IDataObject | null)?.name !== 'Created by another writer',
				);
				expect(nodes.map((request) => [request.method, request.path, request.status])).toEqual([
					['GET', `${CLIENTS}/external-id/${externalId}`, 404],
					['POST', CLIENTS, 409],
					['GET', `${CLIENTS}/external-id/${externalId}`, 200],
					['PATCH', `${CLIENTS}/${otherWriters!.id}`, 200],
				]);
				expect(json(items)).toEqual([
					expect.objectContaining({
						id: otherWriters!.id,
						name: 'Riverbank Civil Works',
						upserted: 'updated',
					}),
				]);
				expect(clientsWith(externalId)).toHaveLength(1);
			} finally {
				stopHook();
			}
		});

		it('writes two items with the same external ID one after the other: one record, created then updated', async () => {
			const externalId = newExternalId('ERP');
			const { items, error } = await suite.run(
				upsertClient(externalId, { name: '={{ $json.name }}' }),
				{
					items: [{ name: 'First row' }, { name: 'Second row' }],
				},
			);

			expect(error).toBeUndefined();
			expect(paired(items)).toEqual([
				[0, expect.objectContaining({ name: 'First row', upserted: 'created' })],
				[1, expect.objectContaining({ name: 'Second row', upserted: 'updated' })],
			]);
			expect(requestsSeen(suite).map((request) => request.method)).toEqual([
				'GET',
				'POST',
				'GET',
				'PATCH',
			]);
			expect(clientsWith(externalId)).toEqual([expect.objectContaining({ name: 'Second row' })]);
		});

		it('counts a create whose answer was lost as created once it finds the record, without creating it twice', async () => {
			const externalId = newExternalId('ERP');
			suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['lost-answer'], methods: ['POST'] } });
			const { items, error } = await suite.run(upsertClient(externalId));

			expect(error).toBeUndefined();
			expect(requestsSeen(suite).map((request) => request.method)).toEqual(['GET', 'POST', 'GET']);
			expect(json(items)).toEqual([expect.objectContaining({ externalId, upserted: 'created' })]);
			expect(clientsWith(externalId)).toHaveLength(1);
		});

		it('fails the item when the create failed and the record is not there', async () => {
			const externalId = newExternalId('ERP');
			suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['500'], methods: ['POST'] } });
			const { error } = await suite.run(upsertClient(externalId));

			expect(error?.message).toBe(
				'The Equipment Rental API failed to process the request (HTTP 500) [item 0]',
			);
			expect(requestsSeen(suite).map((request) => request.method)).toEqual(['GET', 'POST', 'GET']);
			expect(clientsWith(externalId)).toEqual([]);
		});

		itRefusesAnItemWithout(suite, 'External ID', () => upsertClient('={{ $json.erpId }}'));

		it('under Continue On Fail, fails only the bad item, each output paired with its input', async () => {
			const [good, other] = [newExternalId('ERP'), newExternalId('ERP')];
			const { items, errorItems } = await suite.run(
				upsertClient('={{ $json.erpId }}', { additionalFields: { email: '={{ $json.email }}' } }),
				{
					onError: 'continueErrorOutput',
					items: [
						{ erpId: good, email: 'a@example.com' },
						{ erpId: '..', email: 'b@example.com' },
						{ erpId: other, email: 'c@example.com' },
					],
				},
			);

			expect(paired(items)).toEqual([
				[0, expect.objectContaining({ externalId: good, upserted: 'created' })],
				[2, expect.objectContaining({ externalId: other, upserted: 'created' })],
			]);
			expect(paired(errorItems)).toEqual([
				[1, expect.objectContaining({ error: expect.stringMatching(/^'External ID' must be /) })],
			]);
			expect(writesSeen(suite)).toHaveLength(2);
		});
	});

	describe('Contact Person', () => {
		it("finds the person among the client's contact persons, and updates it there", async () => {
			const externalId = newExternalId('CRM');
			const client = await createDirectly(suite, CLIENTS, {
				name: 'Harbour Logistics',
				externalId: newExternalId('ERP'),
				contactPersons: [{ name: 'Mia Wagner', isMain: true, externalId }],
			});
			const [person] = client.contactPersons as IDataObject[];
			const { items } = await suite.run({
				resource: 'contactPerson',
				operation: 'upsert',
				clientId: byExternalId(client.externalId as string),
				externalId,
				name: 'Mia Wagner',
				isMain: false,
				additionalFields: { jobTitle: 'Dispatcher' },
			});

			expect(requestsSeen(suite)).toEqual([
				{ method: 'GET', path: `${CLIENTS}/external-id/${client.externalId}` },
				{ method: 'GET', path: `${contactPersonsOf(client.id)}/external-id/${externalId}` },
				{
					method: 'PATCH',
					path: `${contactPersonsOf(client.id)}/${person.id}`,
					// The name it already has is not sent again.
					body: { isMain: false, jobTitle: 'Dispatcher' },
				},
			]);
			expect(json(items)).toEqual([
				expect.objectContaining({ id: person.id, upserted: 'updated' }),
			]);
		});
	});

	describe('Contract', () => {
		it('resolves the client given by its external ID before looking the contract up, then creates it', async () => {
			const externalId = newExternalId('ERP-K');
			const { clientExternalId, clientId } = suite.fixtures;
			const { items, error } = await suite.run({
				resource: 'contract',
				operation: 'upsert',
				externalId,
				clientId: byExternalId(clientExternalId),
				startDate: '2025-07-01T00:00:00Z',
				endDate: '2099-12-31T00:00:00Z',
				structureId: '123e4567-e89b-42d3-a456-426614174000',
			});

			expect(error).toBeUndefined();
			expect(requestsSeen(suite)).toEqual([
				{ method: 'GET', path: `${CLIENTS}/external-id/${clientExternalId}` },
				{ method: 'GET', path: `${CONTRACTS}/external-id/${externalId}` },
				{
					method: 'POST',
					path: CONTRACTS,
					body: {
						externalId,
						clientId,
						startDate: '2025-07-01T00:00:00.000Z',
						endDate: '2099-12-31T00:00:00.000Z',
						structureId: '123e4567-e89b-42d3-a456-426614174000',
					},
				},
			]);
			expect(json(items)).toEqual([expect.objectContaining({ clientId, upserted: 'created' })]);
		});

		it('fails a client external ID the API does not know by the field, writing nothing', async () => {
			const { error } = await suite.run({
				resource: 'contract',
				operation: 'upsert',
				externalId: newExternalId('ERP-K'),
				clientId: byExternalId('ERP-NO-SUCH-CLIENT'),
				startDate: '2025-07-01T00:00:00Z',
				endDate: '2099-12-31T00:00:00Z',
				structureId: '123e4567-e89b-42d3-a456-426614174000',
			});

			expect(error?.message).toBe(
				"'Client' must be the external ID of an existing client [item 0]",
			);
			expect(writesSeen(suite)).toEqual([]);
		});
	});

	describe('Booking', () => {
		it('updates a booking found by its external ID without the create-only contract, product and attached products', async () => {
			const { equipmentId, equipmentProductId, contractId, serviceProductId } = suite.fixtures;
			const booking = await createDirectly(suite, BOOKINGS, {
				startDate: '2025-07-01T08:00:00.000Z',
				endDate: '2025-07-10T17:00:00.000Z',
				entityId: equipmentId,
				productId: equipmentProductId,
				contractId,
				externalId: newExternalId('ERP-B'),
			});
			const { items, error } = await suite.run({
				resource: 'booking',
				operation: 'upsert',
				externalId: booking.externalId as string,
				startDate: '2025-07-02T08:00:00Z',
				endDate: '2025-07-12T17:00:00Z',
				entityId: picked(equipmentId),
				productId: picked(equipmentProductId),
				contractId: picked(contractId),
				additionalFields: {
					status: 'IN_PROGRESS',
					attachedProducts: {
						attachedProduct: [{ productId: picked(serviceProductId), quantity: 1 }],
					},
				},
			});

			expect(error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([
				{
					method: 'PATCH',
					path: `${BOOKINGS}/${booking.id}`,
					// The entity it already has is not sent again.
					body: {
						startDate: '2025-07-02T08:00:00.000Z',
						endDate: '2025-07-12T17:00:00.000Z',
						status: 'IN_PROGRESS',
					},
				},
			]);
			expect(json(items)).toEqual([
				expect.objectContaining({ id: booking.id, status: 'IN_PROGRESS', upserted: 'updated' }),
			]);
		});
	});

	describe('Equipment', () => {
		it('updates a piece of equipment found by its external ID with a PUT over its own values', async () => {
			const equipment = await createDirectly(suite, EQUIPMENTS, {
				title: 'Mini excavator 1.8 t',
				externalId: newExternalId('ERP-E'),
				warehouseId: 'WH-NORTH',
				serial_number: 'SN-0042',
				year: 2021,
				specifications: { engine: 'diesel' },
			});
			const { items } = await suite.run({
				resource: 'equipment',
				operation: 'upsert',
				externalId: equipment.externalId as string,
				title: 'Mini excavator 1.8 t',
				additionalFields: { year: 2022 },
			});

			expect(requestsSeen(suite)).toEqual([
				{ method: 'GET', path: `${EQUIPMENTS}/external-id/${equipment.externalId}` },
				{
					method: 'PUT',
					path: `${EQUIPMENTS}/${equipment.id}`,
					body: {
						title: 'Mini excavator 1.8 t',
						externalId: equipment.externalId,
						warehouseId: 'WH-NORTH',
						serial_number: 'SN-0042',
						year: 2022,
						specifications: { engine: 'diesel' },
					},
				},
			]);
			expect(json(items)).toEqual([
				expect.objectContaining({ id: equipment.id, warehouseId: 'WH-NORTH', upserted: 'updated' }),
			]);
		});
	});
});
