import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { EquipmentRentalApi } from '../credentials/EquipmentRentalApi.credentials';
import { runNode } from './harness/engine';

/** Answers every request with an empty page and records what it was asked. */
async function recordingServer(): Promise<{ url: string; seen: IncomingMessage[]; server: Server }> {
	const seen: IncomingMessage[] = [];
	const server = createServer((request, response) => {
		seen.push(request);
		response.setHeader('Content-Type', 'application/json');
		response.end(JSON.stringify({ content: [], total: 0 }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('Credential', () => {
	let recorder: Awaited<ReturnType<typeof recordingServer>>;
	beforeAll(async () => (recorder = await recordingServer()));
	afterAll(() => {
		recorder.server.closeAllConnections();
		recorder.server.close();
	});
	beforeEach(() => (recorder.seen.length = 0));

	it.each([
		['without a trailing slash', '', '/master-data'],
		['with a trailing slash', '/', '/master-data'],
		['with a path prefix', '/api/', '/api/master-data'],
	])('builds the right URL from a base URL %s, with the bearer token', async (_case, suffix, expectedStart) => {
		await runNode({
			parameters: { resource: 'equipmentModel', operation: 'getAll', limit: 1 },
			credentials: { baseUrl: `${recorder.url}${suffix}`, accessToken: 'token-1' },
		});

		expect(recorder.seen.map((request) => request.url)).toEqual([
			`${expectedStart}/v1/equipment-management/models?page=1&limit=1`,
		]);
		expect(recorder.seen[0].headers.authorization).toBe('Bearer token-1');
	});

	it('tests the credential with one cheap authenticated list request', () => {
		const credential = new EquipmentRentalApi();
		expect(credential.test.request).toMatchObject({
			url: '/master-data/v1/equipment-management/models',
			qs: { page: 1, limit: 1 },
		});
		expect(credential.authenticate.properties.headers).toEqual({
			Authorization: '=Bearer {{$credentials.accessToken}}',
		});
		expect(credential.properties.find((property) => property.name === 'accessToken')?.typeOptions).toEqual({
			password: true,
		});
	});
});
