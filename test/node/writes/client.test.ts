/**
 * Client: Create, Update and Delete through n8n's engine against the sandbox in strict mode (it
 * refuses body fields the vendor's reference does not list). The evidence is the request the
 * sandbox saw: the body is exactly what the form was given, and an update sends only its fields.
 */
import type { INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../harness/sandbox';
import {
	CLIENTS,
	createDirectly,
	declareCommonDeleteTests,
	declareCommonUpdateTests,
	itNamesTheFieldAtFaultInEachDialect,
	itRefusesAnItemWithout,
	itSendsOnlyTheUpdateFields,
	json,
	MISSING_ID,
	newExternalId,
	paired,
	recordKindWithId,
	writesSeen,
} from '../../harness/writes';

describe('Client', () => {
	const suite = useSandbox({ strict: true });
	afterEach(() => suite.sandbox.setOptions({ errorDialect: 'message' }));

	const create = (parameters: INodeParameters) => ({
		resource: 'client',
		operation: 'create',
		name: 'Riverbank Civil Works',
		...parameters,
	});
	const newClient = async () =>
		await createDirectly(suite, CLIENTS, {
			name: 'Harbour Logistics',
			externalId: newExternalId('CL'),
			city: 'Hamburg',
			email: 'office@harbour.example',
			creditLimit: 20000,
			status: 'ACTIVE',
		});
	const clients = recordKindWithId({
		suite,
		recordName: 'client',
		fieldLabel: 'Client',
		newRecord: newClient,
		resource: 'client',
		collection: CLIENTS,
		idParameter: 'clientId',
	});

	describe('Create', () => {
		it('sends exactly the fields filled in: texts, numbers, booleans, options and contact persons', async () => {
			const externalId = newExternalId('ERP');
			const { items, error } = await suite.run(
				create({
					additionalFields: {
						externalId,
						number: '70042',
						status: 'INACTIVE',
						partnerType: 'CRAFT',
						creditLimit: 50000,
						usedLimit: 1250.5,
						paymentTerms: 30,
						frameContract: true,
						selfInsurance: false,
						city: 'Berlin',
						email: 'office@riverbank.example',
						contactPersons: {
							contactPerson: [
								{ name: 'Mia Wagner', isMain: true, email: 'mia@riverbank.example' },
								{ name: 'Ben Koch', isMain: false, jobTitle: 'Site manager' },
							],
						},
					},
				}),
			);

			expect(error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([
				{
					method: 'POST',
					path: CLIENTS,
					body: {
						name: 'Riverbank Civil Works',
						externalId,
						number: '70042',
						status: 'INACTIVE',
						partnerType: 'CRAFT',
						creditLimit: 50000,
						usedLimit: 1250.5,
						paymentTerms: 30,
						frameContract: true,
						selfInsurance: false,
						city: 'Berlin',
						email: 'office@riverbank.example',
						contactPersons: [
							{ name: 'Mia Wagner', isMain: true, email: 'mia@riverbank.example' },
							{ name: 'Ben Koch', isMain: false, jobTitle: 'Site manager' },
						],
					},
				},
			]);
			expect(json(items)).toEqual([
				expect.objectContaining({
					id: expect.any(String),
					name: 'Riverbank Civil Works',
					externalId,
					contactPersons: [
						expect.objectContaining({ name: 'Mia Wagner', isMain: true }),
						expect.objectContaining({ name: 'Ben Koch', isMain: false }),
					],
				}),
			]);
		});

		it('sends the name alone when nothing else is filled in', async () => {
			await suite.run(create({}));

			expect(writesSeen(suite)).toEqual([
				{ method: 'POST', path: CLIENTS, body: { name: 'Riverbank Civil Works' } },
			]);
		});

		it('leaves out an additional field whose expression comes out empty', async () => {
			await suite.run(
				create({ additionalFields: { city: '={{ $json.city }}', email: '={{ $json.email }}' } }),
				{ items: [{ email: 'office@riverbank.example' }] },
			);

			expect(writesSeen(suite)[0].body).toEqual({
				name: 'Riverbank Civil Works',
				email: 'office@riverbank.example',
			});
		});

		it('sends a Status given by expression as it is, for the API to judge', async () => {
			await suite.run(create({ additionalFields: { status: '={{ "BLOCKED" }}' } }));

			expect(writesSeen(suite)[0].body).toEqual({
				name: 'Riverbank Civil Works',
				status: 'BLOCKED',
			});
		});

		itRefusesAnItemWithout(suite, 'Name', () => create({ name: '={{ $json.name }}' }));

		it('refuses a contact person without a name before sending, naming the entry', async () => {
			const { error } = await suite.run(
				create({
					additionalFields: {
						contactPersons: {
							contactPerson: [
								{ name: 'Mia Wagner', isMain: true },
								{ name: '', isMain: false },
							],
						},
					},
				}),
			);

			expect(error?.message).toBe(
				"'Contact Person 2: Name' must be set: this field is required [item 0]",
			);
			expect(suite.sandbox.requests).toEqual([]);
		});

		it('under Continue On Fail, fails only the bad item, each output paired with its input', async () => {
			const { items, errorItems } = await suite.run(
				create({
					name: '={{ $json.name }}',
					additionalFields: { creditLimit: '={{ $json.limit }}' },
				}),
				{
					onError: 'continueErrorOutput',
					items: [
						{ name: 'North Quarry', limit: 1000 },
						{ name: 'Bad Limit Ltd', limit: 'lots' },
						{ name: 'South Quarry', limit: 2000 },
					],
				},
			);

			expect(paired(items)).toEqual([
				[0, expect.objectContaining({ name: 'North Quarry', creditLimit: 1000 })],
				[2, expect.objectContaining({ name: 'South Quarry', creditLimit: 2000 })],
			]);
			expect(paired(errorItems)).toEqual([
				[1, expect.objectContaining({ error: expect.stringMatching(/^'Credit Limit' must be /) })],
			]);
			expect(writesSeen(suite).map((request) => request.body)).toEqual([
				{ name: 'North Quarry', creditLimit: 1000 },
				{ name: 'South Quarry', creditLimit: 2000 },
			]);
		});

		itNamesTheFieldAtFaultInEachDialect(
			suite,
			() => create({ additionalFields: { externalId: suite.fixtures.clientExternalId } }),
			{
				message: 'The API rejected the request (HTTP 409)',
				said: 'is already taken',
				field: 'External ID',
			},
		);

		describe('Contact Persons given as JSON', () => {
			const PERSONS = [
				{ name: 'Mia Wagner', isMain: true, email: 'mia@riverbank.example' },
				{ name: 'Ben Koch', isMain: false, jobTitle: 'Site manager' },
			];
			const createClient = (additionalFields: INodeParameters) => create({ additionalFields });
			const bodies = () => writesSeen(suite).map((request) => request.body);
			const personsAsJson = (value: unknown) =>
				({ contactPersonsInput: 'json', contactPersonsJson: value }) as INodeParameters;

			it('sends exactly what the fields send for the same persons', async () => {
				await suite.run(createClient({ contactPersons: { contactPerson: PERSONS } }));
				const fromFields = bodies();
				suite.sandbox.resetStats();
				const { error } = await suite.run(createClient(personsAsJson('={{ $json.persons }}')), {
					items: [{ persons: PERSONS }],
				});

				expect(error).toBeUndefined();
				expect(fromFields).toEqual([{ name: 'Riverbank Civil Works', contactPersons: PERSONS }]);
				expect(bodies()).toEqual(fromFields);
				expect(writesSeen(suite)[0].path).toBe(CLIENTS);
			});

			it.each([
				[
					'a person without a name',
					[{ isMain: true }],
					"'Contact Person 1: Name' must be set: this field is required [item 0]",
				],
				[
					'an e-mail address that is none',
					[{ name: 'Mia Wagner', isMain: true, email: 'mia(at)riverbank.example' }],
					"'Contact Person 1: Email' must be an e-mail address [item 0]",
				],
			])('fails %s before sending, naming the entry', async (_case, persons, message) => {
				const { error } = await suite.run(createClient(personsAsJson(JSON.stringify(persons))));

				expect(error?.message).toBe(message);
				expect(suite.sandbox.requests).toEqual([]);
			});

			it('sends no contact persons for an empty list, as for an empty fixed collection', async () => {
				await suite.run(createClient(personsAsJson('[]')));

				expect(bodies()).toEqual([{ name: 'Riverbank Civil Works' }]);
			});
		});
	});

	describe('Update', () => {
		itSendsOnlyTheUpdateFields(clients, {
			updateFields: { city: 'Bremen', creditLimit: 25000, frameContract: false },
			output: ({ id }) => ({ id, city: 'Bremen' }),
			after: (client) => ({
				name: client.name,
				email: client.email,
				status: 'ACTIVE',
				city: 'Bremen',
				creditLimit: 25000,
				frameContract: false,
			}),
		});

		declareCommonUpdateTests(clients, {
			cleared: ['email', 'creditLimit'],
			keptAfterClear: { city: 'Hamburg' },
			setAndCleared: { field: 'email', value: 'new@harbour.example', label: 'Email' },
			nothingToChange: { updateFields: {}, clearFields: [] },
			emptyExpression: {
				updateFields: { city: '={{ $json.city }}', phone: '={{ $json.phone }}' },
				item: { phone: '+49 40 1234567' },
				sent: { phone: '+49 40 1234567' },
				kept: { city: 'Hamburg' },
			},
		});

		it('fails an unknown client by the field, changing nothing', async () => {
			const { error } = await suite.run(
				clients.update({ id: MISSING_ID }, { updateFields: { city: 'Bremen' } }),
			);

			expect(error?.message).toBe('Not found (HTTP 404): no record has the ID you gave [item 0]');
			expect(error?.description).toContain("The field at fault is 'Client'.");
		});
	});

	describe('Delete', () => {
		declareCommonDeleteTests(clients, {
			because: 'its contracts name it',
			id: () => suite.fixtures.clientId,
			error:
				/^The API rejected the request \(HTTP 409\) \[item 0\]\. The API said: .* is still named by \d+ contracts/,
		});
	});
});
