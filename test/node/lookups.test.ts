/**
 * The reference's read operations and the pickers (issue: find what the writes need): every new
 * operation through n8n's engine, every picker's list as the editor opens it, against the sandbox.
 */
import type { IDataObject, INodeParameterResourceLocator, INodeParameters } from 'n8n-workflow';

import { useSandbox } from '../harness/sandbox';

interface Client extends IDataObject {
	id: string;
	name: string;
	customPriceId?: string;
}
interface Contract extends IDataObject {
	id: string;
	clientId: string;
}

/** A picker's value as the editor saves it after a pick from the list. */
const picked = (value: string): INodeParameterResourceLocator => ({
	__rl: true,
	mode: 'list',
	value,
});

describe('Lookups', () => {
	const suite = useSandbox();
	const store = () =>
		suite.sandbox.store as unknown as {
			clients: Client[];
			contracts: Contract[];
			products: Map<string, { id: string; type: string; priceItems: Array<{ id: string }> }>;
			equipment: Array<{ id: string; title: string; invNumber: string | null }>;
			attachments: Map<string, Set<string>>;
		};
	const json = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json);
	const ok = async (parameters: INodeParameters) => {
		const { items, error } = await suite.run(parameters);
		expect(error).toBeUndefined();
		return json(items);
	};

	describe('operations', () => {
		it('Client > Get: by a picked client, and by a plain ID as 0.2.0 saved fields', async () => {
			const { acmeClientId } = suite.fixtures;
			for (const clientId of [picked(acmeClientId), acmeClientId]) {
				const [client] = await ok({ resource: 'client', operation: 'get', clientId });
				expect(client).toMatchObject({ id: acmeClientId, name: 'Acme Construction' });
			}
			expect(suite.sandbox.requests.map((request) => request.path)).toEqual([
				`/master-data/v1/client-management/clients/${acmeClientId}`,
				`/master-data/v1/client-management/clients/${acmeClientId}`,
			]);
		});

		it('Client > Get by External ID', async () => {
			const [client] = await ok({
				resource: 'client',
				operation: 'getByExternalId',
				externalId: suite.fixtures.clientExternalId,
			});
			expect(client.externalId).toBe(suite.fixtures.clientExternalId);
		});

		it('Client > Get Many: every client once, a search, and a limit', async () => {
			const all = await ok({ resource: 'client', operation: 'getAll', returnAll: true });
			expect(all.map((client) => client.id).sort()).toEqual(
				store()
					.clients.map((client) => client.id)
					.sort(),
			);
			const found = await ok({
				resource: 'client',
				operation: 'getAll',
				returnAll: true,
				filters: { search: 'acme' },
			});
			expect(found.map((client) => client.name)).toContain('Acme Construction');
			expect(await ok({ resource: 'client', operation: 'getAll', limit: 5 })).toHaveLength(5);
		});

		it("Contract > Get Many: a client's contracts, Get and Get by External ID", async () => {
			const { acmeClientId, acmeBerlinContractId, contractExternalId } = suite.fixtures;
			const contracts = await ok({
				resource: 'contract',
				operation: 'getAll',
				returnAll: true,
				filters: { clientId: acmeClientId },
			});
			expect(contracts.map((contract) => contract.id).sort()).toEqual(
				store()
					.contracts.filter((contract) => contract.clientId === acmeClientId)
					.map((contract) => contract.id)
					.sort(),
			);
			const [contract] = await ok({
				resource: 'contract',
				operation: 'get',
				contractId: picked(acmeBerlinContractId),
			});
			expect(contract.id).toBe(acmeBerlinContractId);
			const [byExternalId] = await ok({
				resource: 'contract',
				operation: 'getByExternalId',
				externalId: contractExternalId,
			});
			expect(byExternalId.externalId).toBe(contractExternalId);
		});

		it('Product > Get, Get by External ID and Get Many by type', async () => {
			const { equipmentProductId, productExternalId } = suite.fixtures;
			const [product] = await ok({
				resource: 'product',
				operation: 'get',
				productId: picked(equipmentProductId),
			});
			expect(product).toMatchObject({ id: equipmentProductId, type: 'RESOURCE' });
			expect(Array.isArray(product.priceList)).toBe(true);
			const [byExternalId] = await ok({
				resource: 'product',
				operation: 'getByExternalId',
				externalId: productExternalId,
			});
			expect(byExternalId.externalId).toBe(productExternalId);
			const services = await ok({
				resource: 'product',
				operation: 'getAll',
				returnAll: true,
				filters: { type: 'SERVICE' },
			});
			expect(services.length).toBe(
				[...store().products.values()].filter((candidate) => candidate.type === 'SERVICE').length,
			);
			expect(services.every((service) => service.type === 'SERVICE')).toBe(true);
		});

		it('Product > Add Price Item, then Delete Price Item: each says success only when done', async () => {
			const { equipmentProductId } = suite.fixtures;
			const tiers = () =>
				store()
					.products.get(equipmentProductId)!
					.priceItems.map((item) => item.id);
			const before = tiers();
			expect(
				await ok({
					resource: 'product',
					operation: 'addPriceItem',
					productId: picked(equipmentProductId),
					from: 30,
					price: 70.5,
				}),
			).toEqual([{ success: true, productId: equipmentProductId, from: 30, price: 70.5 }]);
			const [added] = tiers().filter((id) => !before.includes(id));
			expect(suite.sandbox.requests.at(-1)?.body).toEqual({ from: 30, price: 70.5 });

			expect(
				await ok({
					resource: 'product',
					operation: 'deletePriceItem',
					productId: picked(equipmentProductId),
					priceId: picked(added),
				}),
			).toEqual([{ success: true, productId: equipmentProductId, priceId: added }]);
			expect(tiers()).toEqual(before);

			const { error } = await suite.run({
				resource: 'product',
				operation: 'deletePriceItem',
				productId: picked(equipmentProductId),
				priceId: picked(added),
			});
			expect(error?.message).toBe('Not found (HTTP 404): no record has the ID you gave [item 0]');
			expect(error?.description).toContain("The field at fault is 'Price Item'.");
		});

		it('Product > Detach Service undoes Attach Service', async () => {
			const { inventoryProductId, serviceProductId } = suite.fixtures;
			const link = (operation: string) => ({
				resource: 'product',
				operation,
				productId: picked(inventoryProductId),
				serviceProductId: picked(serviceProductId),
			});
			const linked = { success: true, productId: inventoryProductId, serviceProductId };
			expect(await ok(link('attach'))).toEqual([linked]);
			expect(await ok(link('detach'))).toEqual([linked]);
			expect(store().attachments.get(inventoryProductId)?.has(serviceProductId) ?? false).toBe(
				false,
			);
			expect(suite.sandbox.requests.at(-1)?.body).toEqual({ productId: serviceProductId });
		});

		it('Booking > Get and Get by External ID: the booking with its releases', async () => {
			const { bookingId, bookingExternalId, releaseId } = suite.fixtures;
			const [booking] = await ok({ resource: 'booking', operation: 'get', bookingId });
			expect((booking.releases as IDataObject[]).map((release) => release.id)).toContain(releaseId);
			const [byExternalId] = await ok({
				resource: 'booking',
				operation: 'getByExternalId',
				externalId: bookingExternalId,
			});
			expect(byExternalId.id).toBe(bookingId);
		});

		it('Equipment > Get and Get Many', async () => {
			const all = await ok({ resource: 'equipment', operation: 'getAll', returnAll: true });
			expect(all).toHaveLength(store().equipment.length);
			const [first] = await ok({
				resource: 'equipment',
				operation: 'get',
				equipmentId: picked(String(all[0].id)),
			});
			expect(first).toEqual(all[0]);
		});

		it.each(['equipmentUsage', 'equipmentWorkingHours'])(
			'%s > Get: one item per equipment for the day',
			async (resource) => {
				const records = await ok({ resource, operation: 'get', date: suite.fixtures.usageDate });
				expect(records.length).toBeGreaterThan(0);
				expect(suite.sandbox.requests[0].path).toMatch(
					new RegExp(`^/analytics/v1/equipment-(usage|working-hours)/${suite.fixtures.usageDate}$`),
				);
				const equipmentIds = records.map((record) => (record.equipment as IDataObject).id);
				expect(new Set(equipmentIds).size).toBe(records.length);
			},
		);
	});

	describe('pickers', () => {
		it('Client: pages as the user scrolls, each client once, and searches through the API', async () => {
			const first = await suite.search('searchClients', {});
			expect(first.results).toHaveLength(20);
			expect(first.paginationToken).toBe('2');
			const seen = [...first.results];
			let token = first.paginationToken;
			while (token !== undefined) {
				const page = await suite.search('searchClients', {}, undefined, String(token));
				seen.push(...page.results);
				token = page.paginationToken;
			}
			expect(seen.map((result) => result.value).sort()).toEqual(
				store()
					.clients.map((client) => client.id)
					.sort(),
			);

			const found = await suite.search('searchClients', {}, 'acme');
			expect(found.results[0]).toMatchObject({ value: suite.fixtures.acmeClientId });
			expect(found.results[0].name).toMatch(/^Acme Construction/);
			expect(suite.sandbox.requests.at(-1)?.query.search).toBe('acme');
		});

		it("Contract in Create Quote: only the chosen client's contracts, and a word when none is chosen", async () => {
			const { acmeClientId, acmeBerlinContractId } = suite.fixtures;
			const quote = (clientId: INodeParameterResourceLocator) => ({
				resource: 'quote',
				operation: 'create',
				clientId,
			});
			const { results } = await suite.search('searchClientContracts', quote(picked(acmeClientId)));
			expect(results.map((result) => result.value).sort()).toEqual(
				store()
					.contracts.filter((contract) => contract.clientId === acmeClientId)
					.map((contract) => contract.id)
					.sort(),
			);
			expect(results.find((result) => result.value === acmeBerlinContractId)?.name).toMatch(
				/Berlin/,
			);

			await expect(suite.search('searchClientContracts', quote(picked('')))).rejects.toThrow(
				'Choose the client first',
			);
		});

		it('Product, Service Product and Price Item: services only for a service, tiers of the chosen product', async () => {
			const { equipmentProductId } = suite.fixtures;
			const services = await suite.search('searchServiceProducts', {});
			const products = store().products;
			expect(services.results.length).toBeGreaterThan(0);
			expect(
				services.results.every((result) => products.get(String(result.value))?.type === 'SERVICE'),
			).toBe(true);

			const tiers = await suite.search('searchPriceItems', {
				resource: 'product',
				operation: 'updatePriceItem',
				productId: picked(equipmentProductId),
			});
			expect(tiers.results.map((result) => result.value)).toEqual(
				products.get(equipmentProductId)!.priceItems.map((item) => item.id),
			);
			expect(tiers.results[0].name).toMatch(/^From 1: /);
		});

		it('Custom Price List: the price lists of clients, by client name', async () => {
			const lists = await suite.search('searchCustomPriceLists', {}, 'acme');
			expect(lists.results.map((result) => result.value)).toContain(
				store().clients.find((client) => client.id === suite.fixtures.acmeClientId)?.customPriceId,
			);
		});

		it('Release: the releases of the booking given by ID or by external ID', async () => {
			const { bookingId, bookingExternalId, releaseId } = suite.fixtures;
			for (const booking of [
				{ __rl: true as const, mode: 'id', value: bookingId },
				{ __rl: true as const, mode: 'externalId', value: bookingExternalId },
			]) {
				const { results } = await suite.search('searchBookingReleases', {
					resource: 'release',
					operation: 'update',
					booking,
				});
				expect(results.map((result) => result.value)).toContain(releaseId);
			}
		});

		it('Equipment: named by title and inventory number, searched by inventory number', async () => {
			const unit = store().equipment.find((candidate) => candidate.invNumber === 'INV-10001')!;
			const { results } = await suite.search('searchEquipment', {}, 'INV-10001');
			expect(results).toEqual([{ name: `${unit.title} (INV-10001)`, value: unit.id }]);
		});

		it('a failing API shows its error in the list at once, without retries', async () => {
			suite.sandbox.setOptions({ faults: { rate: 1, kinds: ['503'] } });
			try {
				// A picker's list has no items: its message ends with the status, not with an item.
				await expect(suite.search('searchClients', {})).rejects.toThrow(/\(HTTP 503\)$/);
				expect(suite.sandbox.requests).toHaveLength(1);
			} finally {
				suite.sandbox.setOptions({ faults: null });
			}
		});
	});
});
