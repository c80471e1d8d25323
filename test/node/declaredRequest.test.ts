/**
 * What each operation declares it sends (nodes/EquipmentRental/engine/declaredRequest.ts), which the
 * description snapshot prints, against what the sandbox sees when n8n's engine runs the operation:
 * every request is the operation's own or one of its lookups by external ID, and carries no field
 * the declaration leaves out.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { EquipmentRental } from '../../nodes/EquipmentRental/EquipmentRental.node';
import type {
	DeclaredRequest,
	RequestData,
} from '../../nodes/EquipmentRental/engine/declaredRequest';
import type { SandboxRequest } from '../harness/sandbox';
import { useSandbox } from '../harness/sandbox';
import { byExternalId, newExternalId } from '../harness/writes';

/** What the description declares that `operation` of `resource` sends. */
function declaredFor(resource: string, operation: string): DeclaredRequest {
	const field = new EquipmentRental().description.properties.find(
		(property: INodeProperties) =>
			property.name === 'operation' && property.displayOptions?.show?.resource?.[0] === resource,
	)!;
	const option = (field.options as INodePropertyOptions[]).find(
		({ value }) => value === operation,
	)!;
	const pagination = option.routing!.operations!.pagination as unknown as {
		sends: DeclaredRequest;
	};
	return pagination.sends;
}

/** `url` with each `{name}` standing for one path segment. */
const asPattern = (url: string) => new RegExp(`^${url.replace(/\{\w+\}/g, '[^/]+')}$`);

// A list is read page by page, whatever the operation's own query.
const PAGING = ['page', 'limit'];

/** The requests `declared` does not account for: their method, path and any field it leaves out. */
function undeclared(requests: SandboxRequest[], declared: DeclaredRequest): string[] {
	const lookupUrls = (declared.lookups ?? []).flatMap(({ url, wholeRead }) =>
		wholeRead ? [url, wholeRead] : [url],
	);
	const operationRequests: RequestData[] = [
		declared,
		...(declared.orInstead ? [declared.orInstead] : []),
	];
	return requests.flatMap(({ method, path, query, body }) => {
		const own = operationRequests.find(
			(request) => request.method === method && asPattern(request.url).test(path),
		);
		const lookup = method === 'GET' && lookupUrls.some((url) => asPattern(url).test(path));
		if (!own && !lookup) return [`${method} ${path}`];
		const queryNames = [...PAGING, ...Object.keys(own?.query ?? {})];
		const bodyNames = Object.keys(own?.body ?? {});
		return [
			...Object.keys(query).filter((name) => !queryNames.includes(name)),
			...Object.keys((body as object | undefined) ?? {}).filter(
				(name) => !bodyNames.includes(name),
			),
		].map((name) => `${method} ${path}: ${name}`);
	});
}

describe('What an operation declares it sends', () => {
	const suite = useSandbox({ strict: true });
	const fixtures = () => suite.sandbox.store.fixtures;
	const updateContactPersonByExternalIds = async () =>
		await suite.run({
			resource: 'contactPerson',
			operation: 'update',
			clientId: byExternalId(fixtures().clientExternalId),
			contactPersonId: byExternalId(fixtures().contactPersonExternalId),
			updateFields: { jobTitle: 'Site manager' },
		});

	it('is what a Get Many sends: its filters and sort in the query, page by page', async () => {
		const { error } = await suite.run({
			resource: 'client',
			operation: 'getAll',
			returnAll: true,
			filters: { search: 'a', status: 'ACTIVE' },
		});

		expect(error).toBeUndefined();
		expect(suite.sandbox.requests[0].query).toMatchObject({ search: 'a', status: 'ACTIVE' });
		expect(undeclared(suite.sandbox.requests, declaredFor('client', 'getAll'))).toEqual([]);
	});

	it('is what an Update by external IDs sends: its lookups, then its path and body', async () => {
		const { error } = await updateContactPersonByExternalIds();

		expect(error).toBeUndefined();
		expect(suite.sandbox.requests.map(({ method }) => method)).toEqual(['GET', 'GET', 'PATCH']);
		expect(undeclared(suite.sandbox.requests, declaredFor('contactPerson', 'update'))).toEqual([]);
	});

	it('is what a Create or Update sends: a create of a new record, an update of one found', async () => {
		const existing = fixtures().clientExternalId;
		const { error } = await suite.run(
			{
				resource: 'client',
				operation: 'upsert',
				externalId: '={{ $json.externalId }}',
				name: '={{ $json.name }}',
			},
			{
				items: [
					{ externalId: existing, name: 'Renamed Ltd' },
					{ externalId: newExternalId('FACE'), name: 'New Ltd' },
				],
			},
		);

		expect(error).toBeUndefined();
		const writes = suite.sandbox.requests.filter(({ method }) => method !== 'GET');
		expect(writes.map(({ method }) => method).sort()).toEqual(['PATCH', 'POST']);
		expect(undeclared(suite.sandbox.requests, declaredFor('client', 'upsert'))).toEqual([]);
	});

	it('would show a field or a request the declaration leaves out', async () => {
		const { error } = await updateContactPersonByExternalIds();

		expect(error).toBeUndefined();
		const update = declaredFor('contactPerson', 'update');
		const bodyWithoutJobTitle = Object.fromEntries(
			Object.entries(update.body!).filter(([name]) => name !== 'jobTitle'),
		);
		expect(undeclared(suite.sandbox.requests, { ...update, body: bodyWithoutJobTitle })).toEqual([
			expect.stringMatching(/^PATCH .*: jobTitle$/),
		]);
		expect(undeclared(suite.sandbox.requests, declaredFor('client', 'update'))).toEqual([
			expect.stringMatching(/^GET .*contact-persons\/external-id\//),
			expect.stringMatching(/^PATCH .*contact-persons\//),
		]);
	});
});
