/**
 * What the tests of the master-data writes (test/writes/) share: the collections' paths, pickers'
 * values as the editor saves them, external IDs no record has yet, and the requests the sandbox saw,
 * read as evidence.
 */
import type { IDataObject, INodeParameterResourceLocator, INodeParameters } from 'n8n-workflow';

import type { SandboxSuite } from './sandbox';
import { sandboxClient, TOKEN } from './sandbox';

export const CLIENTS = '/master-data/v1/client-management/clients';
export const CONTRACTS = '/master-data/v1/contract-management/contracts';
export const PRODUCTS = '/master-data/v1/product-management/products';
export const BOOKINGS = '/master-data/v1/booking-management/bookings';
export const EQUIPMENTS = '/master-data/v1/equipment-management/equipments';
export const contactPersonsOf = (clientId: string) => `${CLIENTS}/${clientId}/contact-persons`;

/** A UUID no record of the sandbox has. */
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

/** A picker's value after a pick from its list. */
export const picked = (value: string): INodeParameterResourceLocator => ({
	__rl: true,
	mode: 'list',
	value,
});

/** A picker's value given By ID. */
export const byId = (value: string): INodeParameterResourceLocator => ({
	__rl: true,
	mode: 'id',
	value,
});

/** A picker's value given By External ID: the record is looked up before the write. */
export const byExternalId = (value: string): INodeParameterResourceLocator => ({
	__rl: true,
	mode: 'externalId',
	value,
});

let sequence = 0;
/** An external ID no record has yet, in this run or an earlier one. */
export const newExternalId = (prefix: string) =>
	`${prefix}-${Date.now().toString(36)}-${++sequence}`;

export interface SeenRequest {
	method: string;
	path: string;
	body?: unknown;
}

/** Every request the sandbox saw, in order: method, path and (for writes) body. */
export function requestsSeen(suite: SandboxSuite): SeenRequest[] {
	return suite.sandbox.requests.map(({ method, path, body }) =>
		method === 'GET' || method === 'DELETE' ? { method, path } : { method, path, body },
	);
}

/** The requests that change something (all but reads). */
export function writesSeen(suite: SandboxSuite): SeenRequest[] {
	return requestsSeen(suite).filter((request) => request.method !== 'GET');
}

/** The items' JSON. */
export const json = (items: Array<{ json: IDataObject }>) => items.map((item) => item.json);

/** The output's items as JSON with the input item each is paired with. */
export const paired = (items: Array<{ json: IDataObject; pairedItem?: unknown }>) =>
	items.map((item) => [(item.pairedItem as { item: number }).item, item.json] as const);

/**
 * The error dialects of the sandbox (error-dialects.js) whose answers name the field at fault by a
 * key, pointer or property path; the node then names that field by its label in the form.
 */
export const DIALECTS_NAMING_FIELDS = [
	'message',
	'problem-errors',
	'jsonapi',
	'nested',
	'field-list',
	'violations',
];

/** Requests to the sandbox straight over HTTP, not through the node: to set up and read back. */
export function directApi(suite: SandboxSuite) {
	return sandboxClient(() => suite.sandbox.url, TOKEN);
}

/**
 * Creates a record straight through the API, for a test to change or delete; the request log is
 * then emptied, so that what a test checks is what the node sent.
 */
export async function createDirectly(
	suite: SandboxSuite,
	path: string,
	body: IDataObject,
): Promise<IDataObject & { id: string }> {
	const answer = await directApi(suite)('POST', path, { body });
	if (answer.status !== 201)
		throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
	suite.sandbox.resetStats();
	return answer.body;
}

/** The record at `path` as the API now answers it; undefined when it has none (404). */
export async function readBack(
	suite: SandboxSuite,
	path: string,
): Promise<IDataObject | undefined> {
	const answer = await directApi(suite)('GET', path);
	if (answer.status === 404) return undefined;
	if (answer.status !== 200)
		throw new Error(`GET ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
	return answer.body;
}

/**
 * A kind of record the node writes, as the cases its Update and Delete tests share see it. `R` is
 * what a test holds of one record: the record itself or, for one under another, both.
 */
export interface RecordKind<R> {
	suite: SandboxSuite;
	/** The record as the tests' names call it: 'client', 'piece of equipment'. */
	recordName: string;
	/** A record of its own, made straight through the API, that nothing names. */
	newRecord: () => Promise<R>;
	/** The record's path in the API. */
	pathOf: (record: R) => string;
}

/** A kind of record with one ID of its own, and a Delete operation. */
export interface DeletableKind extends RecordKind<{ id: string }> {
	/** The Delete operation's parameters for the record with this ID. */
	remove: (id: string) => INodeParameters;
	/** The label of the record's field in the form, that a failure names. */
	fieldLabel: string;
}

/** A record that others name, so that the API refuses to delete it. */
export interface RefusedDelete {
	/** Who names it, as the test's name tells: 'bookings name it'. */
	because: string;
	/** The record's ID. */
	id: () => string;
	/** The error the item is failed with. */
	error: RegExp;
}

/**
 * Declares the Delete cases every kind shares: a record deleted is output as deleted with its ID
 * and is gone; one that is not there fails by the field; and (given `refused`) one the API refuses
 * to delete fails and is still there.
 */
export function declareCommonDeleteTests(kind: DeletableKind, refused?: RefusedDelete) {
	const { suite, recordName, remove, pathOf } = kind;

	it(`outputs deleted with the ID once the API has deleted the ${recordName}`, async () => {
		const record = await kind.newRecord();
		const { items, error } = await suite.run(remove(record.id));

		expect(error).toBeUndefined();
		expect(requestsSeen(suite)).toEqual([{ method: 'DELETE', path: pathOf(record) }]);
		expect(json(items)).toEqual([{ deleted: true, success: true, id: record.id }]);
		expect(await readBack(suite, pathOf(record))).toBeUndefined();
	});

	it(`fails a ${recordName} that is not there by the field, never as deleted`, async () => {
		const { items, error } = await suite.run(remove(MISSING_ID), {
			onError: 'continueRegularOutput',
		});

		expect(error).toBeUndefined();
		expect(json(items)).toEqual([
			{
				error: expect.stringMatching(
					new RegExp(
						'^Not found \\(HTTP 404\\): no record has the ID you gave\\. .*' +
							`The field at fault is '${kind.fieldLabel}'\\.`,
					),
				),
			},
		]);
	});

	if (refused)
		it(`fails a ${recordName} the API refuses to delete (${refused.because}), never as deleted`, async () => {
			const id = refused.id();
			const { items } = await suite.run(remove(id), { onError: 'continueRegularOutput' });

			expect(json(items)).toEqual([{ error: expect.stringMatching(refused.error) }]);
			expect(await readBack(suite, pathOf({ id }))).toBeDefined();
		});
}
