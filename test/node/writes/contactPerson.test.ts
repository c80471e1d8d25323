/**
 * Contact Person (a client's): Create, Update and Delete through n8n's engine against the sandbox in
 * strict mode, under the client picked or given by its external ID. The evidence is the request the
 * sandbox saw.
 */
import type { IDataObject, INodeParameterResourceLocator, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../harness/sandbox';
import {
	byExternalId,
	CLIENTS,
	contactPersonsOf,
	createDirectly,
	declareCommonUpdateTests,
	itRefusesAnItemWithout,
	itSendsOnlyTheUpdateFields,
	json,
	MISSING_ID,
	newExternalId,
	paired,
	picked,
	readBack,
	requestsSeen,
	type UpdatableKind,
	writesSeen,
} from '../../harness/writes';

describe('Contact Person', () => {
	const suite = useSandbox({ strict: true });

	/** A client of its own with one contact person, Mia Wagner. */
	const newClient = async () => {
		const client = await createDirectly(suite, CLIENTS, {
			name: 'Harbour Logistics',
			externalId: newExternalId('CL'),
			contactPersons: [
				{
					name: 'Mia Wagner',
					isMain: true,
					jobTitle: 'Dispatcher',
					email: 'mia@harbour.example',
					phone: '+49 40 1234567',
				},
			],
		});
		const [person] = client.contactPersons as Array<IDataObject & { id: string }>;
		return { client, person };
	};
	const personPath = (clientId: string, personId: string) =>
		`${contactPersonsOf(clientId)}/${personId}`;

	describe('Create', () => {
		const create = (clientId: INodeParameterResourceLocator, parameters: INodeParameters = {}) => ({
			resource: 'contactPerson',
			operation: 'create',
			clientId,
			name: 'Ben Koch',
			isMain: false,
			...parameters,
		});

		it("sends exactly the fields filled in to the client's contact persons", async () => {
			const { client } = await newClient();
			const externalId = newExternalId('CRM');
			const { items, error } = await suite.run(
				create(picked(client.id), {
					additionalFields: { jobTitle: 'Site manager', mobile: '+49 170 1234567', externalId },
				}),
			);

			expect(error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([
				{
					method: 'POST',
					path: contactPersonsOf(client.id),
					body: {
						name: 'Ben Koch',
						isMain: false,
						jobTitle: 'Site manager',
						mobile: '+49 170 1234567',
						externalId,
					},
				},
			]);
			expect(json(items)).toEqual([
				expect.objectContaining({ id: expect.any(String), clientId: client.id, name: 'Ben Koch' }),
			]);
		});

		it('finds a client given by its external ID, then creates the person under its ID', async () => {
			const { client } = await newClient();
			const { error } = await suite.run(create(byExternalId(client.externalId as string)));

			expect(error).toBeUndefined();
			expect(requestsSeen(suite)).toEqual([
				{ method: 'GET', path: `${CLIENTS}/external-id/${client.externalId}` },
				{
					method: 'POST',
					path: contactPersonsOf(client.id),
					body: { name: 'Ben Koch', isMain: false },
				},
			]);
		});

		it('fails a client external ID the API does not know by the field, writing nothing', async () => {
			const { error } = await suite.run(create(byExternalId('ERP-NO-SUCH-CLIENT')));

			expect(error?.message).toBe(
				"'Client' must be the external ID of an existing client [item 0]",
			);
			expect(writesSeen(suite)).toEqual([]);
		});

		itRefusesAnItemWithout(suite, 'Name', async () => {
			const { client } = await newClient();
			return create(picked(client.id), { name: '={{ $json.name }}' });
		});

		it('under Continue On Fail, fails only the item whose client is unknown, each output paired', async () => {
			const { client } = await newClient();
			const { items, errorItems } = await suite.run(
				create(byExternalId('={{ $json.client }}'), { name: '={{ $json.name }}' }),
				{
					onError: 'continueErrorOutput',
					items: [
						{ client: client.externalId, name: 'Ben Koch' },
						{ client: 'ERP-NO-SUCH-CLIENT', name: 'Nobody' },
						{ client: client.externalId, name: 'Lea Brandt' },
					],
				},
			);

			expect(paired(items)).toEqual([
				[0, expect.objectContaining({ name: 'Ben Koch', clientId: client.id })],
				[2, expect.objectContaining({ name: 'Lea Brandt', clientId: client.id })],
			]);
			expect(paired(errorItems)).toEqual([
				[
					1,
					expect.objectContaining({
						error: expect.stringMatching(
							/^'Client' must be the external ID of an existing client \[item 1\]\. Received the text "ERP-NO-SUCH-CLIENT"\./,
						),
					}),
				],
			]);
			expect(writesSeen(suite).map((request) => request.body)).toEqual([
				{ name: 'Ben Koch', isMain: false },
				{ name: 'Lea Brandt', isMain: false },
			]);
		});
	});

	describe('Update', () => {
		const update = (clientId: string, personId: string, parameters: INodeParameters) => ({
			resource: 'contactPerson',
			operation: 'update',
			clientId: picked(clientId),
			contactPersonId: picked(personId),
			...parameters,
		});

		const persons: UpdatableKind<Awaited<ReturnType<typeof newClient>>> = {
			suite,
			recordName: 'person',
			newRecord: newClient,
			pathOf: ({ client, person }) => personPath(client.id, person.id),
			update: ({ client, person }, parameters) => update(client.id, person.id, parameters),
		};

		itSendsOnlyTheUpdateFields(persons, {
			updateFields: { jobTitle: 'Head of dispatch', isMain: false },
			output: ({ person }) => ({ id: person.id, jobTitle: 'Head of dispatch' }),
			after: () => ({
				name: 'Mia Wagner',
				email: 'mia@harbour.example',
				phone: '+49 40 1234567',
				jobTitle: 'Head of dispatch',
				isMain: false,
			}),
		});

		declareCommonUpdateTests(persons, {
			cleared: ['phone'],
			setAndCleared: { field: 'phone', value: '+49 40 7654321', label: 'Phone' },
			emptyExpression: {
				updateFields: { email: '={{ $json.email }}', department: '={{ $json.department }}' },
				item: { department: 'Logistics' },
				sent: { department: 'Logistics' },
			},
		});
	});

	describe('Delete', () => {
		const remove = (clientId: string, personId: string) => ({
			resource: 'contactPerson',
			operation: 'delete',
			clientId: picked(clientId),
			contactPersonId: picked(personId),
		});

		it('outputs deleted with the IDs once the API has deleted the person', async () => {
			const { client, person } = await newClient();
			const { items, error } = await suite.run(remove(client.id, person.id));

			expect(error).toBeUndefined();
			expect(requestsSeen(suite)).toEqual([
				{ method: 'DELETE', path: personPath(client.id, person.id) },
			]);
			expect(json(items)).toEqual([
				{ deleted: true, success: true, clientId: client.id, id: person.id },
			]);
			expect(await readBack(suite, personPath(client.id, person.id))).toBeUndefined();
		});

		it('fails a person the client does not have by the field, never as deleted', async () => {
			const { client } = await newClient();
			const { items } = await suite.run(remove(client.id, MISSING_ID), {
				onError: 'continueRegularOutput',
			});

			expect(json(items)).toEqual([
				{
					error: expect.stringMatching(
						/^Not found \(HTTP 404\): no record has the ID you gave \[item 0\]\. .*The field at fault is 'Contact Person'\./,
					),
					id: MISSING_ID,
				},
			]);
		});
	});
});
