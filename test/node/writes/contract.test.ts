/**
 * Contract: Create, Update and Delete through n8n's engine against the sandbox in strict mode. The
 * evidence is the request the sandbox saw: date-times of the workflow's timezone arrive in UTC, the
 * client given by its external ID arrives as its ID, and an update sends only its fields.
 */
import type { INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../../harness/sandbox';
import {
	byExternalId,
	CLIENTS,
	CONTRACTS,
	createDirectly,
	declareCommonDeleteTests,
	declareCommonUpdateTests,
	itNamesTheFieldAtFaultInEachDialect,
	itRefusesAnItemWithout,
	itSendsOnlyTheUpdateFields,
	json,
	newExternalId,
	paired,
	picked,
	readBack,
	recordKindWithId,
	requestsSeen,
	writesSeen,
} from '../../harness/writes';

const STRUCTURE_ID = '123e4567-e89b-42d3-a456-426614174000';

describe('Contract', () => {
	const suite = useSandbox({ strict: true });
	afterEach(() => suite.sandbox.setOptions({ errorDialect: 'message' }));

	const create = (parameters: INodeParameters = {}) => ({
		resource: 'contract',
		operation: 'create',
		clientId: picked(suite.fixtures.clientId),
		startDate: '2025-07-01T08:00:00',
		endDate: '2099-12-31T18:00:00',
		structureId: STRUCTURE_ID,
		...parameters,
	});
	/** A contract of its own, that no booking names. */
	const newContract = async () =>
		await createDirectly(suite, CONTRACTS, {
			clientId: suite.fixtures.clientId,
			startDate: '2025-05-01T00:00:00.000Z',
			endDate: '2099-09-30T00:00:00.000Z',
			structureId: STRUCTURE_ID,
			title: 'Harbour bridge',
			city: 'Hamburg',
			point: { lat: 53.54, lng: 9.98 },
			externalId: newExternalId('CT'),
		});
	const contracts = recordKindWithId({
		suite,
		recordName: 'contract',
		fieldLabel: 'Contract',
		newRecord: newContract,
		resource: 'contract',
		collection: CONTRACTS,
		idParameter: 'contractId',
	});

	describe('Create', () => {
		it('sends exactly the fields filled in, date-times of the workflow timezone in UTC', async () => {
			const { items, error } = await suite.run(
				create({
					additionalFields: {
						title: 'Berlin Hauptbahnhof site',
						zipCode: '10557',
						point: { coordinates: { lat: 52.5251, lng: 13.3694 } },
						selfPickUp: true,
						contractPosition: 'Site manager',
					},
				}),
				{ timezone: 'Europe/Berlin' },
			);

			expect(error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([
				{
					method: 'POST',
					path: CONTRACTS,
					body: {
						clientId: suite.fixtures.clientId,
						startDate: '2025-07-01T06:00:00.000Z',
						endDate: '2099-12-31T17:00:00.000Z',
						structureId: STRUCTURE_ID,
						title: 'Berlin Hauptbahnhof site',
						zipCode: '10557',
						point: { lat: 52.5251, lng: 13.3694 },
						selfPickUp: true,
						contractPosition: 'Site manager',
					},
				},
			]);
			expect(json(items)).toEqual([
				expect.objectContaining({
					id: expect.any(String),
					clientId: suite.fixtures.clientId,
					title: 'Berlin Hauptbahnhof site',
				}),
			]);
		});

		it('sends a date-time with an offset as that moment in UTC', async () => {
			await suite.run(create({ startDate: '2025-07-01T08:00:00-04:00' }), {
				timezone: 'Asia/Tokyo',
			});

			expect(writesSeen(suite)[0].body).toMatchObject({ startDate: '2025-07-01T12:00:00.000Z' });
		});

		it('finds the client given by its external ID and sends its ID', async () => {
			const { error } = await suite.run(
				create({ clientId: byExternalId(suite.fixtures.clientExternalId) }),
			);

			expect(error).toBeUndefined();
			expect(requestsSeen(suite)).toEqual([
				{ method: 'GET', path: `${CLIENTS}/external-id/${suite.fixtures.clientExternalId}` },
				{
					method: 'POST',
					path: CONTRACTS,
					body: expect.objectContaining({ clientId: suite.fixtures.clientId }),
				},
			]);
		});

		it('fails a client external ID the API does not know by the field, writing nothing', async () => {
			const { error } = await suite.run(create({ clientId: byExternalId('ERP-NO-SUCH-CLIENT') }));

			expect(error?.message).toBe(
				"'Client' must be the external ID of an existing client [item 0]",
			);
			expect(error?.description).toContain('The API has no client with this external ID.');
			expect(writesSeen(suite)).toEqual([]);
		});

		itRefusesAnItemWithout(suite, 'Structure ID', () =>
			create({ structureId: '={{ $json.structure }}' }),
		);

		it('refuses a Location without its latitude before sending', async () => {
			const { error } = await suite.run(
				create({ additionalFields: { point: { coordinates: { lng: 13.3694 } } } }),
			);

			expect(error?.message).toBe(
				"'Location: Latitude' must be set: this field is required [item 0]",
			);
			expect(suite.sandbox.requests).toEqual([]);
		});

		it('under Continue On Fail, fails only the item with a wrong date, each output paired', async () => {
			const { items, errorItems } = await suite.run(create({ startDate: '={{ $json.start }}' }), {
				onError: 'continueErrorOutput',
				items: [{ start: '2025-07-01' }, { start: 'next Monday' }, { start: '2025-08-01' }],
			});

			expect(paired(items)).toEqual([
				[0, expect.objectContaining({ startDate: '2025-07-01T00:00:00.000Z' })],
				[2, expect.objectContaining({ startDate: '2025-08-01T00:00:00.000Z' })],
			]);
			expect(paired(errorItems)).toEqual([
				[1, expect.objectContaining({ error: expect.stringMatching(/^'Start Date' must be /) })],
			]);
			expect(writesSeen(suite)).toHaveLength(2);
		});

		itNamesTheFieldAtFaultInEachDialect(suite, () => create({ endDate: '2025-06-30T00:00:00Z' }), {
			message: 'The API rejected the request (HTTP 400)',
			said: 'is before startDate',
			field: 'End Date',
		});
	});

	describe('Update', () => {
		itSendsOnlyTheUpdateFields(contracts, {
			updateFields: { title: 'Harbour bridge, phase 2', endDate: '2099-10-31T12:00:00' },
			runOptions: { timezone: 'America/New_York' },
			sent: { title: 'Harbour bridge, phase 2', endDate: '2099-10-31T16:00:00.000Z' },
			output: ({ id }) => ({ id, title: 'Harbour bridge, phase 2' }),
			after: (contract) => ({
				city: 'Hamburg',
				point: { lat: 53.54, lng: 9.98 },
				startDate: contract.startDate,
				structureId: STRUCTURE_ID,
			}),
		});

		it('moves the contract to a client given by its external ID, sending its ID', async () => {
			const contract = await newContract();
			const { acmeClientId } = suite.fixtures;
			const acme = await readBack(suite, `${CLIENTS}/${acmeClientId}`);
			suite.sandbox.resetStats();
			const { error } = await suite.run(
				contracts.update(contract, {
					updateFields: { clientId: byExternalId(acme!.externalId as string) },
				}),
			);

			expect(error).toBeUndefined();
			expect(requestsSeen(suite)).toEqual([
				{ method: 'GET', path: `${CLIENTS}/external-id/${acme!.externalId}` },
				{ method: 'PATCH', path: `${CONTRACTS}/${contract.id}`, body: { clientId: acmeClientId } },
			]);
		});

		declareCommonUpdateTests(contracts, {
			cleared: ['point', 'city'],
			setAndCleared: { field: 'city', value: 'Kiel', label: 'City' },
			nothingToChange: { updateFields: {} },
			emptyExpression: {
				updateFields: { city: '={{ $json.city }}', contactName: '={{ $json.contact }}' },
				item: { contact: 'Jonas Berg' },
				sent: { contactName: 'Jonas Berg' },
			},
		});
	});

	describe('Delete', () => {
		declareCommonDeleteTests(contracts, {
			because: 'bookings name it',
			id: () => suite.fixtures.contractId,
			error: /^The API rejected the request \(HTTP 409\) \[item 0\]\. .*bookings/,
		});
	});
});
