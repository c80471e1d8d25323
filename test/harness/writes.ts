/**
 * What the tests of the master-data writes (test/writes/) share: the collections' paths, pickers'
 * values as the editor saves them, external IDs no record has yet, and the requests the sandbox saw,
 * read as evidence.
 */
import type { IDataObject, INodeParameterResourceLocator } from 'n8n-workflow';

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
