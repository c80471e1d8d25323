/**
 * What the node answers an AI agent when it runs as a tool (its type name ending in "Tool", as n8n
 * loads it for an agent) and finds nothing: one item whose sentence says what was asked for and that
 * nothing matched, instead of no items, which n8n hands the model as `""` (AI Agent 3) or `[]`. As a
 * workflow's step, the node still outputs no items.
 */
import { useSandbox } from '../harness/sandbox';

const CLIENTS_PATH = '/master-data/v1/client-management/clients';

describe('An AI tool that finds nothing', () => {
	const suite = useSandbox();

	const findClient = { resource: 'client', operation: 'getAll', returnAll: true };

	it('answers that no client was found for the search it was given', async () => {
		const { items, error } = await suite.run(
			{ ...findClient, filters: { search: 'Nothere Ltd' } },
			{ asTool: true },
		);

		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			{ result: "No client was found for Search 'Nothere Ltd'." },
		]);
		expect(suite.sandbox.requests.map((request) => [request.path, request.query.search])).toEqual([
			[CLIENTS_PATH, 'Nothere Ltd'],
		]);
	});

	it('names every filter it was given, by its label and the value sent', async () => {
		const { items } = await suite.run(
			{ ...findClient, filters: { search: 'Nothere Ltd', status: 'INACTIVE' } },
			{ asTool: true },
		);

		expect(items.map((item) => item.json)).toEqual([
			{ result: "No client was found for Search 'Nothere Ltd' and Status 'INACTIVE'." },
		]);
		expect(suite.sandbox.requests[0].query).toMatchObject({
			search: 'Nothere Ltd',
			status: 'INACTIVE',
		});
	});

	it('names the day of a report without records', async () => {
		const { items } = await suite.run(
			{ resource: 'equipmentDistance', operation: 'get', date: '2001-01-01' },
			{ asTool: true },
		);

		expect(items.map((item) => item.json)).toEqual([
			{ result: "No equipment distance was found for Date '2001-01-01'." },
		]);
		expect(suite.sandbox.requests.map((request) => request.path)).toEqual([
			'/analytics/v1/equipment-distance/2001-01-01',
		]);
	});

	it('answers the records where the search matches, and no sentence', async () => {
		const { items } = await suite.run(
			{ ...findClient, filters: { search: 'Acme' } },
			{ asTool: true },
		);

		expect(items.length).toBeGreaterThan(0);
		for (const { json } of items) {
			expect(json).not.toHaveProperty('result');
			expect(String(json.name)).toContain('Acme');
		}
	});

	it('outputs no items as a step of a workflow, as an empty list in n8n does', async () => {
		const { items, error } = await suite.run({ ...findClient, filters: { search: 'Nothere Ltd' } });

		expect(error).toBeUndefined();
		expect(items).toEqual([]);
		expect(suite.sandbox.requests.map((request) => request.query.search)).toEqual(['Nothere Ltd']);
	});
});
