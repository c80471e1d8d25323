/**
 * By External ID wherever the node names a record the API finds by external ID (clients, contact
 * persons, contracts, bookings, products, equipment): the record's own Get, Update and Delete, the
 * records an operation refers to, and the seed's operations (Quote > Create's client and contract,
 * price items, attach and detach). Each picker offers the mode; the node looks each distinct
 * external ID up once per run, names the field and the value when the API has none, and refuses a
 * mode the field does not have before anything is sent. Through n8n's engine against the sandbox.
 */
import type { IDataObject, INodeParameters, INodeProperties } from 'n8n-workflow';

import { EquipmentRental } from '../../../nodes/EquipmentRental/EquipmentRental.node';
import type { SandboxRequest } from '../../harness/sandbox';
import { useSandbox } from '../../harness/sandbox';
import {
	byExternalId,
	byId,
	CLIENTS,
	createDirectly,
	json,
	newExternalId,
} from '../../harness/writes';

/** Every picker of the description, collection options and list entries included, by its label. */
function pickers(properties: INodeProperties[], path = ''): Array<[string, INodeProperties]> {
	return properties.flatMap((property) => {
		const here = `${path}${property.name}`;
		const nested = [
			...((property.type === 'collection' ? property.options : []) as INodeProperties[]),
			...(property.type === 'fixedCollection'
				? (property.options as Array<{ values: INodeProperties[] }>).flatMap(
						(option) => option.values,
					)
				: []),
		];
		return [
			...(property.type === 'resourceLocator'
				? [[here, property] as [string, INodeProperties]]
				: []),
			...pickers(nested, `${here}.`),
		];
	});
}

// The records the API has no external ID for: price lists, their price items, releases.
const WITHOUT_EXTERNAL_ID = ['customPriceId', 'priceId', 'releaseId'];

const requestsOf = (requests: SandboxRequest[]) =>
	requests.map((request) => `${request.method} ${request.path}`);

describe('By External ID', () => {
	const suite = useSandbox({ strict: true });
	const fixtures = () => suite.sandbox.store.fixtures;
	const externalIdOf = (collection: IDataObject[] | Map<string, IDataObject>, id: string) =>
		String(
			(collection instanceof Map ? collection.get(id) : collection.find((r) => r.id === id))!
				.externalId,
		);

	it('is offered by every picker of a record the API finds by external ID', () => {
		const { properties } = new EquipmentRental().description;
		const named = pickers(properties).filter(
			([path]) => !WITHOUT_EXTERNAL_ID.some((name) => path.split('.').at(-1) === name),
		);

		expect(named.length).toBeGreaterThanOrEqual(10);
		const lacking = named.filter(
			([, picker]) => !picker.modes?.some((mode) => mode.name === 'externalId'),
		);
		expect(lacking.map(([path]) => path)).toEqual([]);
	});

	describe("a record's own Get, Update and Delete", () => {
		it.each([
			['client', 'clientId', () => fixtures().clientExternalId, () => fixtures().clientId, CLIENTS],
			[
				'contract',
				'contractId',
				() => fixtures().contractExternalId,
				() => fixtures().contractId,
				'/master-data/v1/contract-management/contracts',
			],
			[
				'product',
				'productId',
				() => fixtures().productExternalId,
				() => fixtures().equipmentProductId,
				'/master-data/v1/product-management/products',
			],
			[
				'booking',
				'bookingId',
				() => fixtures().bookingExternalId,
				() => fixtures().bookingId,
				'/master-data/v1/booking-management/bookings',
			],
			[
				'equipment',
				'equipmentId',
				() => externalIdOf(suite.sandbox.store.equipment as IDataObject[], fixtures().equipmentId),
				() => fixtures().equipmentId,
				'/master-data/v1/equipment-management/equipments',
			],
		])(
			'%s > Get reads the record by its external ID, in one request',
			async (resource, picker, externalId, id, collection) => {
				const { items, error } = await suite.run({
					resource,
					operation: 'get',
					[picker]: byExternalId(externalId()),
				});

				expect(error).toBeUndefined();
				expect(json(items)).toEqual([expect.objectContaining({ id: id() })]);
				expect(requestsOf(suite.sandbox.requests)).toEqual([
					`GET ${collection}/external-id/${encodeURIComponent(externalId())}`,
				]);
			},
		);

		it("contact person > Get finds the client's contact person by its external ID", async () => {
			const { items, error } = await suite.run({
				resource: 'contactPerson',
				operation: 'get',
				clientId: byExternalId(fixtures().clientExternalId),
				contactPersonId: byExternalId(fixtures().contactPersonExternalId),
			});

			expect(error).toBeUndefined();
			expect(json(items)).toEqual([expect.objectContaining({ id: fixtures().contactPersonId })]);
			expect(requestsOf(suite.sandbox.requests)).toEqual([
				`GET /master-data/v1/client-management/clients/external-id/${encodeURIComponent(fixtures().clientExternalId)}`,
				expect.stringMatching(
					new RegExp(
						`^GET /master-data/v1/client-management/clients/[^/]+/contact-persons/external-id/${encodeURIComponent(fixtures().contactPersonExternalId)}$`,
					),
				),
			]);
		});

		it('client > Get of two items naming one client by external ID: one lookup, an output item each', async () => {
			const { items, error } = await suite.run(
				{
					resource: 'client',
					operation: 'get',
					clientId: byExternalId(fixtures().clientExternalId),
				},
				{ items: [{}, {}] },
			);

			expect(error).toBeUndefined();
			const [first, second] = json(items);
			expect(first).toEqual(second);
			expect(first).not.toBe(second);
			expect(first).toMatchObject({ externalId: fixtures().clientExternalId });
			expect(requestsOf(suite.sandbox.requests)).toHaveLength(1);
		});

		it('client > Delete deletes the client its external ID names, in one node', async () => {
			const externalId = newExternalId('DEL');
			const created = await createDirectly(suite, CLIENTS, { name: 'To be deleted', externalId });

			const { items, error } = await suite.run({
				resource: 'client',
				operation: 'delete',
				clientId: byExternalId(externalId),
			});

			expect(error).toBeUndefined();
			expect(json(items)).toEqual([expect.objectContaining({ deleted: true, id: created.id })]);
			expect(requestsOf(suite.sandbox.requests)).toEqual([
				`GET ${CLIENTS}/external-id/${externalId}`,
				`DELETE ${CLIENTS}/${created.id}`,
			]);
			expect(
				(suite.sandbox.store.clients as IDataObject[]).filter((c) => c.externalId === externalId),
			).toEqual([]);
		});

		it('client > Update changes the client its external ID names', async () => {
			const externalId = newExternalId('UPD');
			const created = await createDirectly(suite, CLIENTS, { name: 'Before', externalId });

			const { error } = await suite.run({
				resource: 'client',
				operation: 'update',
				clientId: byExternalId(externalId),
				updateFields: { city: 'Bremen' },
			});

			expect(error).toBeUndefined();
			expect(requestsOf(suite.sandbox.requests)).toEqual([
				`GET ${CLIENTS}/external-id/${externalId}`,
				`PATCH ${CLIENTS}/${created.id}`,
			]);
		});

		it('names the field and the value, and deletes nothing, when the API has no record with that external ID', async () => {
			const { error } = await suite.run({
				resource: 'client',
				operation: 'delete',
				clientId: byExternalId('ERP-NO-SUCH-CLIENT'),
			});

			expect(error?.message).toBe(
				"'Client' must be the external ID of an existing client [item 0]",
			);
			expect(error?.description).toContain('Received the text "ERP-NO-SUCH-CLIENT".');
			expect(suite.sandbox.requests.map((request) => request.method)).toEqual(['GET']);
		});
	});

	describe("the seed's operations", () => {
		it('Quote > Create takes its client and contract by external ID, sending their IDs', async () => {
			const { error } = await suite.run({
				resource: 'quote',
				operation: 'create',
				clientId: byExternalId(fixtures().clientExternalId),
				contractId: byExternalId(fixtures().contractExternalId),
				amount: 100,
			});

			expect(error).toBeUndefined();
			const [quote] = suite.sandbox.requests.filter((request) => request.method === 'POST');
			expect(quote.body).toEqual({
				clientId: fixtures().clientId,
				contractId: fixtures().contractId,
				amount: 100,
			});
		});

		it('Add Price Item, Attach Service and Detach Service take their products by external ID', async () => {
			const main = fixtures().productExternalId;
			const service = externalIdOf(
				suite.sandbox.store.products as Map<string, IDataObject>,
				fixtures().serviceProductId,
			);
			const run = async (parameters: INodeParameters) => {
				suite.sandbox.resetStats();
				const { error } = await suite.run({ resource: 'product', ...parameters });
				expect(error).toBeUndefined();
				return suite.sandbox.requests.filter((request) => request.method === 'POST')[0];
			};

			const added = await run({
				operation: 'addPriceItem',
				productId: byExternalId(main),
				from: 50,
				price: 10,
			});
			const attached = await run({
				operation: 'attach',
				productId: byExternalId(main),
				serviceProductId: byExternalId(service),
			});
			const detached = await run({
				operation: 'detach',
				productId: byExternalId(main),
				serviceProductId: byExternalId(service),
			});

			const productPath = `/master-data/v1/product-management/products/${fixtures().equipmentProductId}`;
			expect(added.path).toBe(`${productPath}/price-list`);
			expect([attached.path, attached.body]).toEqual([
				`${productPath}/attach`,
				{ productId: fixtures().serviceProductId },
			]);
			expect([detached.path, detached.body]).toEqual([
				`${productPath}/detach`,
				{ productId: fixtures().serviceProductId },
			]);
		});
	});

	it('looks each distinct external ID up once per run, however many items name it', async () => {
		const items = Array.from({ length: 6 }, (_, index) => ({ amount: 100 + index }));

		const { error } = await suite.run(
			{
				resource: 'quote',
				operation: 'create',
				clientId: byExternalId(fixtures().clientExternalId),
				contractId: byExternalId(fixtures().contractExternalId),
				amount: '={{ $json.amount }}',
			},
			{ items },
		);

		expect(error).toBeUndefined();
		const lookups = suite.sandbox.requests.filter((request) => request.method === 'GET');
		expect(lookups).toHaveLength(2);
		expect(suite.sandbox.requests.filter((request) => request.method === 'POST')).toHaveLength(6);
	});

	describe('a mode the field does not have', () => {
		it.each([
			[
				'a mode no picker has',
				{
					resource: 'client',
					operation: 'get',
					clientId: { __rl: true, mode: 'byName', value: 'Acme' },
				},
				"'Client' must be given in one of its modes, From List, By ID or Ext. ID [item 0]",
			],
			[
				'By External ID where the record has none',
				{
					resource: 'product',
					operation: 'deletePriceItem',
					productId: byId('0f0e1d2c-3b4a-4958-8776-a5b4c3d2e1f0'),
					priceId: byExternalId('ERP-PRICE-1'),
				},
				"'Price Item' must be given in one of its modes, From List or By ID [item 0]",
			],
		])(
			'is refused with the modes it has, before anything is sent: %s',
			async (_case, parameters, message) => {
				const { error } = await suite.run(parameters as INodeParameters);

				expect(error?.message).toBe(message);
				expect(error?.description).toContain('which this field does not have');
				expect(suite.sandbox.requests).toEqual([]);
			},
		);
	});
});
