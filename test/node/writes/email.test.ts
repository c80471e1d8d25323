/**
 * E-mail fields (a client's, a contact person's, a client's Contact Persons entries', a contract's
 * on-site contact's) through n8n's engine against the sandbox in strict mode: text that cannot be an
 * address fails its own item, naming the field and the item, and nothing is sent for it; what real
 * addresses look like is sent, trimmed. The evidence is the requests the sandbox saw.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../harness/sandbox';
import {
	CLIENTS,
	CONTRACTS,
	createDirectly,
	json,
	newExternalId,
	paired,
	picked,
	requestsSeen,
	writesSeen,
} from '../../harness/writes';

const EMAIL = '={{ $json.email }}';
const NOT_AN_ADDRESS = 'info(at)mueller-bau.de';
/** A structure's UUID: the reference lists no structures, and the sandbox takes any. */
const STRUCTURE_ID = '123e4567-e89b-42d3-a456-426614174000';

describe('E-mail fields', () => {
	const suite = useSandbox({ strict: true });

	const newClient = async () =>
		await createDirectly(suite, CLIENTS, {
			name: 'Harbour Logistics',
			externalId: newExternalId('CL'),
			contactPersons: [{ name: 'Mia Wagner', isMain: true }],
		});

	/**
	 * A write with an e-mail field given by `EMAIL`, run over three items: what each item needs
	 * besides its address (the record it updates, its external ID), the field's label, and where its
	 * body carries the address.
	 */
	interface EmailWrite {
		name: string;
		label: string;
		/** The operation's parameters and the three items' own values. */
		setUp: () => Promise<{ parameters: INodeParameters; items: IDataObject[] }>;
		sent: (body: IDataObject) => unknown;
	}

	const threeTimes = (item: (index: number) => IDataObject) => [0, 1, 2].map(item);
	const ownClients = async () =>
		await Promise.all([0, 1, 2].map(async () => ({ id: (await newClient()).id })));
	const asEmail = (body: IDataObject) => body.email;
	/** The addresses the writes carried, in order of their text: items are sent side by side. */
	const addressesSent = (write: EmailWrite) =>
		writesSeen(suite)
			.map((request) => write.sent(request.body as IDataObject))
			.sort();

	const writes: EmailWrite[] = [
		{
			name: 'Client > Create',
			label: 'Email',
			setUp: async () => ({
				parameters: {
					resource: 'client',
					operation: 'create',
					name: 'Riverbank Civil Works',
					additionalFields: { email: EMAIL },
				},
				items: threeTimes(() => ({})),
			}),
			sent: asEmail,
		},
		{
			name: 'Client > Create or Update',
			label: 'Email',
			setUp: async () => ({
				parameters: {
					resource: 'client',
					operation: 'upsert',
					externalId: '={{ $json.erpId }}',
					name: 'Riverbank Civil Works',
					additionalFields: { email: EMAIL },
				},
				items: threeTimes(() => ({ erpId: newExternalId('ERP') })),
			}),
			sent: asEmail,
		},
		{
			name: 'Client > Update',
			label: 'Email',
			setUp: async () => ({
				parameters: {
					resource: 'client',
					operation: 'update',
					clientId: picked('={{ $json.id }}'),
					updateFields: { email: EMAIL },
				},
				items: await ownClients(),
			}),
			sent: asEmail,
		},
		{
			name: "Client > Create, a Contact Persons entry's",
			label: 'Contact Person 1: Email',
			setUp: async () => ({
				parameters: {
					resource: 'client',
					operation: 'create',
					name: 'Riverbank Civil Works',
					additionalFields: {
						contactPersons: { contactPerson: [{ name: 'Mia Wagner', isMain: true, email: EMAIL }] },
					},
				},
				items: threeTimes(() => ({})),
			}),
			sent: (body) => (body.contactPersons as IDataObject[])[0].email,
		},
		{
			name: 'Contact Person > Create',
			label: 'Email',
			setUp: async () => ({
				parameters: {
					resource: 'contactPerson',
					operation: 'create',
					clientId: picked((await newClient()).id),
					name: 'Ben Koch',
					isMain: false,
					additionalFields: { email: EMAIL },
				},
				items: threeTimes(() => ({})),
			}),
			sent: asEmail,
		},
		{
			name: 'Contact Person > Create or Update',
			label: 'Email',
			setUp: async () => ({
				parameters: {
					resource: 'contactPerson',
					operation: 'upsert',
					clientId: picked((await newClient()).id),
					externalId: '={{ $json.crmId }}',
					name: 'Ben Koch',
					isMain: false,
					additionalFields: { email: EMAIL },
				},
				items: threeTimes(() => ({ crmId: newExternalId('CRM') })),
			}),
			sent: asEmail,
		},
		{
			name: 'Contact Person > Update',
			label: 'Email',
			setUp: async () => {
				const clients = await Promise.all([0, 1, 2].map(newClient));
				return {
					parameters: {
						resource: 'contactPerson',
						operation: 'update',
						clientId: picked('={{ $json.clientId }}'),
						contactPersonId: picked('={{ $json.id }}'),
						updateFields: { email: EMAIL },
					},
					items: clients.map((client) => ({
						clientId: client.id,
						id: (client.contactPersons as Array<{ id: string }>)[0].id,
					})),
				};
			},
			sent: asEmail,
		},
		{
			name: 'Contract > Create',
			label: 'Contact Email',
			setUp: async () => ({
				parameters: {
					resource: 'contract',
					operation: 'create',
					clientId: picked(suite.fixtures.clientId),
					startDate: '2025-01-01T00:00:00Z',
					endDate: '2099-12-31T00:00:00Z',
					structureId: STRUCTURE_ID,
					additionalFields: { contactEmail: EMAIL },
				},
				items: threeTimes(() => ({})),
			}),
			sent: (body) => body.contactEmail,
		},
		{
			name: 'Contract > Update',
			label: 'Contact Email',
			setUp: async () => {
				const contracts = await Promise.all(
					[0, 1, 2].map(
						async () =>
							await createDirectly(suite, CONTRACTS, {
								clientId: suite.fixtures.clientId,
								startDate: '2025-01-01T00:00:00Z',
								endDate: '2099-12-31T00:00:00Z',
								structureId: STRUCTURE_ID,
							}),
					),
				);
				return {
					parameters: {
						resource: 'contract',
						operation: 'update',
						contractId: picked('={{ $json.id }}'),
						updateFields: { contactEmail: EMAIL },
					},
					items: contracts.map(({ id }) => ({ id })),
				};
			},
			sent: (body) => body.contactEmail,
		},
	];

	describe.each(writes.map((write) => [write.name, write] as const))('%s', (_name, write) => {
		it(`under Continue On Fail, fails the item whose ${write.label} is no e-mail address alone, sending nothing for it`, async () => {
			const { parameters, items: own } = await write.setUp();
			const emails = ['office@north.example', NOT_AN_ADDRESS, 'office@south.example'];
			const { items, error } = await suite.run(parameters, {
				onError: 'continueRegularOutput',
				items: own.map((item, index) => ({ ...item, email: emails[index] })),
			});

			expect(error).toBeUndefined();
			expect(paired(items)).toEqual([
				[0, expect.objectContaining({ id: expect.any(String) })],
				[
					1,
					// Beside the error, the record the item names, where it names one (writes.test.ts).
					expect.objectContaining({
						error: `'${write.label}' must be an e-mail address [item 1]. Received the text "${NOT_AN_ADDRESS}".`,
					}),
				],
				[2, expect.objectContaining({ id: expect.any(String) })],
			]);
			expect(addressesSent(write)).toEqual(['office@north.example', 'office@south.example']);
			expect(JSON.stringify(requestsSeen(suite))).not.toContain('mueller-bau');
		});

		it('sends what real addresses look like, trimmed: plus signs, subdomains, capitals, letters of any script', async () => {
			const { parameters, items: own } = await write.setUp();
			const emails = [
				' a.b+c@sub.example.co.uk ',
				'Max.Müller@müller-bau.de',
				'INFO@MUELLER-BAU.DE',
			];
			const { items, error } = await suite.run(parameters, {
				onError: 'continueRegularOutput',
				items: own.map((item, index) => ({ ...item, email: emails[index] })),
			});

			expect(error).toBeUndefined();
			expect(json(items)).not.toContainEqual(expect.objectContaining({ error: expect.anything() }));
			expect(addressesSent(write)).toEqual(
				['a.b+c@sub.example.co.uk', 'Max.Müller@müller-bau.de', 'INFO@MUELLER-BAU.DE'].sort(),
			);
		});
	});
});
