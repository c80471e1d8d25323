/**
 * What the tests of the master-data writes (test/node/writes/) share: the collections' paths, pickers'
 * values as the editor saves them, external IDs no record has yet, the requests the sandbox saw,
 * read as evidence, and the Update and Delete cases that are the same for every kind of record.
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

/** Booking > Create of the seeded equipment and contract, with `parameters` added. */
export const bookingCreation = (
	fixtures: Record<string, string>,
	parameters: INodeParameters = {},
): INodeParameters => ({
	resource: 'booking',
	operation: 'create',
	startDate: '2025-07-01T08:00:00',
	endDate: '2025-07-10T17:00:00',
	entityId: picked(fixtures.equipmentId),
	productId: picked(fixtures.equipmentProductId),
	contractId: picked(fixtures.contractId),
	...parameters,
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
export interface DeletableKind<R extends { id: string } = { id: string }> extends RecordKind<R> {
	/** The record's path, from its ID alone: a record others name is known only by its ID. */
	pathOf: (record: { id: string }) => string;
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
export function declareCommonDeleteTests<R extends { id: string }>(
	kind: DeletableKind<R>,
	refused?: RefusedDelete,
) {
	const { suite, recordName, remove, pathOf } = kind;

	it(`outputs deleted with the ID once the API has deleted the ${recordName}`, async () => {
		const record = await kind.newRecord();
		const { items, error } = await suite.run(remove(record.id));

		expect(error).toBeUndefined();
		expect(requestsSeen(suite)).toEqual([{ method: 'DELETE', path: pathOf(record) }]);
		expect(json(items)).toEqual([{ deleted: true, success: true, id: record.id }]);
		expect(await readBack(suite, pathOf(record))).toBeUndefined();
	});

	it(`fails a ${recordName} that is not there by the field, never as deleted, naming the record the item gave`, async () => {
		const { items, error } = await suite.run(remove(MISSING_ID), {
			onError: 'continueRegularOutput',
		});

		expect(error).toBeUndefined();
		expect(json(items)).toEqual([
			{
				error: expect.stringMatching(
					new RegExp(
						'^Not found \\(HTTP 404\\): no record has the ID you gave \\[item 0\\]\\. .*' +
							`The field at fault is '${kind.fieldLabel}'\\.`,
					),
				),
				id: MISSING_ID,
			},
		]);
	});

	if (refused)
		it(`fails a ${recordName} the API refuses to delete (${refused.because}), never as deleted`, async () => {
			const id = refused.id();
			const { items } = await suite.run(remove(id), { onError: 'continueRegularOutput' });

			expect(json(items)).toEqual([{ error: expect.stringMatching(refused.error), id }]);
			expect(await readBack(suite, pathOf({ id }))).toBeDefined();
		});
}

/** A kind of record with an Update operation. */
export interface UpdatableKind<R> extends RecordKind<R> {
	/** The Update operation's parameters for the record. */
	update: (record: R, parameters: INodeParameters) => INodeParameters;
	/** Whether an update reads the record before it writes (it PUTs the whole record). */
	readsFirst?: boolean;
}

/** A kind of record with one ID of its own, that the node updates and deletes. */
export type RecordKindWithId<R extends { id: string } = { id: string }> = DeletableKind<R> &
	UpdatableKind<R>;

/**
 * A kind of record with one ID of its own, in the collection at `collection`, that the node's
 * `resource` updates and deletes, naming the record by the parameter `idParameter`: a picker
 * (given from its list) unless `plainId`.
 */
export function recordKindWithId<R extends { id: string }>({
	resource,
	collection,
	idParameter,
	plainId = false,
	...kind
}: Omit<RecordKindWithId<R>, 'pathOf' | 'update' | 'remove'> & {
	resource: string;
	collection: string;
	idParameter: string;
	plainId?: boolean;
}): RecordKindWithId<R> {
	const named = (id: string) => ({ [idParameter]: plainId ? id : picked(id) });
	return {
		...kind,
		pathOf: ({ id }) => `${collection}/${id}`,
		update: ({ id }, parameters) => ({
			resource,
			operation: 'update',
			...named(id),
			...parameters,
		}),
		remove: (id) => ({ resource, operation: 'delete', ...named(id) }),
	};
}

/** A field given a value under Update Fields and also listed under Fields to Clear. */
export interface SetAndCleared {
	field: string;
	value: string | number | boolean;
	/** Its label in the form, that the refusal names. */
	label: string;
}

/** Two Update Fields given by expression, the input item that leaves one of them empty. */
export interface EmptyExpression {
	updateFields: INodeParameters;
	item: IDataObject;
	/** The body then sent: the other field alone. */
	sent: IDataObject;
	/** Values the record read back still has, when the test looks. */
	kept?: IDataObject;
}

/** The Update cases every kind that PATCHes its fields shares, and what each is given. */
export interface CommonUpdateCases {
	/** Fields to Clear, sent as null and then gone from the record. */
	cleared: string[];
	/** Values the record read back keeps after the clear, when the test looks. */
	keptAfterClear?: IDataObject;
	setAndCleared: SetAndCleared;
	/** The parameters of an update with nothing to change; none at all unless given. */
	nothingToChange?: INodeParameters;
	emptyExpression: EmptyExpression;
}

/** Declares the test that a field both set and cleared is refused before anything is sent. */
export function itRefusesAFieldBothSetAndCleared<R>(
	kind: UpdatableKind<R>,
	{ field, value, label }: SetAndCleared,
) {
	it('refuses a field both set and cleared, before sending', async () => {
		const record = await kind.newRecord();
		const { error } = await kind.suite.run(
			kind.update(record, { updateFields: { [field]: value }, clearFields: [field] }),
		);

		expect(error?.message).toBe(
			"'Fields to Clear' must be fields not also given a value under Update Fields [item 0]",
		);
		expect(error?.description).toContain(`'${label}' is both set and cleared.`);
		expect(kind.suite.sandbox.requests).toEqual([]);
	});
}

/** Declares the test that an update with nothing to change is refused before anything is sent. */
export function itRefusesAnUpdateWithNothingToChange<R>(
	kind: UpdatableKind<R>,
	nothingToChange: INodeParameters = {},
) {
	const before = kind.readsFirst ? 'before reading or sending' : 'before sending';
	it(`refuses an update with nothing to change, ${before}`, async () => {
		const record = await kind.newRecord();
		const { error } = await kind.suite.run(kind.update(record, nothingToChange));

		expect(error?.message).toBe(
			"'Update Fields' must be given at least one field to change [item 0]",
		);
		expect(kind.suite.sandbox.requests).toEqual([]);
	});
}

/**
 * Declares the Update cases every kind that PATCHes its fields shares: the Fields to Clear sent as
 * null and gone; a field both set and cleared, and an update with nothing to change, refused before
 * sending; an Update Field whose expression comes out empty left out.
 */
export function declareCommonUpdateTests<R>(kind: UpdatableKind<R>, cases: CommonUpdateCases) {
	const { suite, update, pathOf } = kind;

	it('sends the Fields to Clear as null, and the API removes their values', async () => {
		const record = await kind.newRecord();
		await suite.run(update(record, { clearFields: cases.cleared }));

		expect(writesSeen(suite)).toEqual([
			{
				method: 'PATCH',
				path: pathOf(record),
				body: Object.fromEntries(cases.cleared.map((field) => [field, null])),
			},
		]);
		const after = await readBack(suite, pathOf(record));
		for (const field of cases.cleared) expect(after).not.toHaveProperty(field);
		if (cases.keptAfterClear) expect(after).toMatchObject(cases.keptAfterClear);
	});

	itRefusesAFieldBothSetAndCleared(kind, cases.setAndCleared);
	itRefusesAnUpdateWithNothingToChange(kind, cases.nothingToChange);

	it('leaves out an Update Field whose expression comes out empty', async () => {
		const { updateFields, item, sent, kept } = cases.emptyExpression;
		const record = await kind.newRecord();
		await suite.run(update(record, { updateFields }), { items: [item] });

		expect(writesSeen(suite)[0].body).toEqual(sent);
		if (kept) expect(await readBack(suite, pathOf(record))).toMatchObject(kept);
	});
}

/**
 * Declares the test that an item whose required field (by its label) comes out empty is refused
 * before anything is sent, the error naming the field and the item. `parameters` are the
 * operation's, with that field given by an expression the item leaves empty.
 */
export function itRefusesAnItemWithout(
	suite: SandboxSuite,
	label: string,
	parameters: () => INodeParameters | Promise<INodeParameters>,
) {
	it(`refuses an item without ${label} before sending, naming the field and the item`, async () => {
		const { error } = await suite.run(await parameters());

		expect(error?.message).toBe(`'${label}' must be set: this field is required [item 0]`);
		expect(suite.sandbox.requests).toEqual([]);
	});
}

/** How the API refuses a request, as the node's error tells it. */
export interface Refusal {
	/**
	 * The error's message before the item it ends with: 'The API rejected the request (HTTP 409)'.
	 */
	message: string;
	/** What the API said, found in the error's description. */
	said: string;
	/** The label of the field at fault. */
	field: string;
}

/**
 * Declares the test, for each error dialect but the plain message, that the node names the form's
 * field at fault when the API refuses the request `parameters` give, as `refusal` tells.
 */
export function itNamesTheFieldAtFaultInEachDialect(
	suite: SandboxSuite,
	parameters: () => INodeParameters,
	refusal: Refusal,
) {
	it.each(DIALECTS_NAMING_FIELDS.filter((dialect) => dialect !== 'message'))(
		"names the form's field when the API refuses it in the %s dialect",
		async (dialect) => {
			suite.sandbox.setOptions({ errorDialect: dialect });
			const { error } = await suite.run(parameters());

			expect(error?.message).toBe(`${refusal.message} [item 0]`);
			expect(error?.description).toContain(refusal.said);
			expect(error?.description).toContain(`The field at fault is '${refusal.field}'.`);
		},
	);
}

/** An update of some fields, and what it should send, output and leave in the record. */
export interface FieldsUpdate<R> {
	updateFields: INodeParameters;
	/** The body the PATCH sends, when it is not the Update Fields as given. */
	sent?: IDataObject;
	/** How the workflow runs, when it matters (its timezone). */
	runOptions?: Parameters<SandboxSuite['run']>[1];
	/** What the output item shows of the record. */
	output: (record: R) => IDataObject;
	/** What the record read back then holds: its other values kept, the new ones set. */
	after: (record: R) => IDataObject;
}

/**
 * Declares the test that an update PATCHes only its Update Fields, outputs the record and leaves
 * its other values as they were.
 */
export function itSendsOnlyTheUpdateFields<R>(kind: UpdatableKind<R>, change: FieldsUpdate<R>) {
	const { suite, pathOf } = kind;
	it(`sends only the Update Fields, and the ${kind.recordName} keeps its other values`, async () => {
		const record = await kind.newRecord();
		const { items, error } = await suite.run(
			kind.update(record, { updateFields: change.updateFields }),
			change.runOptions,
		);

		expect(error).toBeUndefined();
		expect(writesSeen(suite)).toEqual([
			{ method: 'PATCH', path: pathOf(record), body: change.sent ?? change.updateFields },
		]);
		expect(items[0].json).toMatchObject(change.output(record));
		expect(await readBack(suite, pathOf(record))).toMatchObject(change.after(record));
	});
}
