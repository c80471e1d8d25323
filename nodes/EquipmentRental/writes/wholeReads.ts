import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ErrorContext } from '../../shared/errors';
import { itemSuffix, toItemError } from '../../shared/errors';
import type { CollectionList, ReferencedKind } from '../../shared/paths';
import type { BodyField } from '../operations/bodyFields';
import type { ItemSender } from '../engine/itemRequest';
import type { FetchPage } from '../../shared/pagination';
import { asPage, readList } from '../../shared/pagination';
import type { WholeRead } from '../engine/runState';
import { collectionKey } from '../engine/runState';
import { namedSoFar, shareRead, sharedRead } from './executionReads';

/** A kind of record, as far as a whole read knows it: its list, where the API has one. */
interface ListableKind {
	list?: CollectionList;
}

/**
 * The largest page the whole read asks for. The reference shows no maximum: an API that serves
 * fewer per page is read at its size (pagination.ts notices a silent cap).
 */
export const WHOLE_READ_PAGE_SIZE = 1000;
/**
 * The most records a run reads whole of one collection, kept as the API answers them (about 1.1 KB a
 * client with every field filled, docs/performance.md): 53 MB at most, which a loop's batches share
 * for up to SHARED_READ_LIFETIME_MS (executionReads.ts). Past it, each row is looked up by itself.
 */
export const MOST_RECORDS_READ_WHOLE = 50_000;

/** What a whole read is for. */
interface Wanted {
	/** How many external IDs the rows to find name: a read costs fewer requests than that many. */
	rows: number;
	/** Every record, read whatever it costs (a run that lists what no row names). */
	every?: boolean;
}

function asWholeRead(records: IDataObject[], every: boolean): WholeRead {
	const byExternalId = new Map<string, IDataObject>();
	const keep = (record: IDataObject) => {
		const { externalId } = record;
		if (typeof externalId !== 'string' || externalId === '') return;
		byExternalId.set(externalId, record);
	};
	for (const record of records) keep(record);
	let doubted = false;
	return {
		doubt: () => (doubted = true),
		get doubted() {
			return doubted;
		},
		// A copy: the caller's output item must not change what the run holds.
		find: (externalId) => {
			const record = byExternalId.get(externalId);
			return record && structuredClone(record);
		},
		keep,
		forget: (externalId) => byExternalId.delete(externalId),
		every: () => (every ? structuredClone(records) : []),
	};
}

/**
 * Reads the collection whole if its pages are fewer than the distinct external IDs to look for in
 * it (`rows`), and not more than MOST_RECORDS_READ_WHOLE records; the first page, asked for anyway,
 * tells how many there are. An array list is one request. Any failure of the read (a page
 * that fails, a list that keeps changing while read) leaves the run to look each row up: it never
 * compares against part of a list.
 */
async function readWholeIfCheaper(
	list: CollectionList,
	path: Record<string, string>,
	wanted: Wanted,
	send: ItemSender,
	context: ErrorContext,
): Promise<WholeRead | undefined> {
	const { rows, every = false } = wanted;
	if (rows < 2 && !every) return undefined;
	try {
		if (!list.paged) {
			const [answer] = await send({ method: 'GET', url: list.url, path });
			return Array.isArray(answer?.json)
				? asWholeRead(answer.json as IDataObject[], every)
				: undefined;
		}
		const fetchPage: FetchPage = async (page, limit) =>
			asPage(
				context,
				(await send({ method: 'GET', url: list.url, path, qs: { page, limit } }))[0]?.json,
			);
		const first = await fetchPage(1, WHOLE_READ_PAGE_SIZE);
		const pageSize = Math.max(1, first.content.length);
		const pages = first.total <= pageSize ? 1 : Math.ceil(first.total / pageSize);
		if (every && first.total > MOST_RECORDS_READ_WHOLE) throw tooManyToList(context, first.total);
		if (!every && (pages >= rows || first.total > MOST_RECORDS_READ_WHOLE)) return undefined;
		// The first page is not asked for twice.
		let firstServed = false;
		const pageOnce: FetchPage = async (page, limit) => {
			if (page === 1 && limit === WHOLE_READ_PAGE_SIZE && !firstServed) {
				firstServed = true;
				return first;
			}
			return await fetchPage(page, limit);
		};
		const records = await readList(context, pageOnce, Infinity, WHOLE_READ_PAGE_SIZE, Infinity);
		return asWholeRead(records, every);
	} catch (error) {
		// Every record asked for is every record or a failure: never part of a list.
		if (every) throw toItemError(context, error);
		return undefined;
	}
}

function tooManyToList(context: ErrorContext, total: number): NodeOperationError {
	return new NodeOperationError(
		context.getNode(),
		`The collection holds ${total.toLocaleString('en-US')} records, more than the ${MOST_RECORDS_READ_WHOLE.toLocaleString('en-US')} a run can list${itemSuffix(context)}`,
		{
			itemIndex: context.getItemIndex?.(),
			description:
				'Include Records Not in Input reads the whole collection, and lists no part of one. Turn the option off, or find the records no row names in smaller parts (e.g. with Get Many and its filters).',
		},
	);
}

/**
 * The read an earlier run of the node in this execution shared (a loop's earlier batch), kept
 * current with the node's writes since; or else the run's own, where the external IDs the node's
 * runs in the execution have named so far (`named` by this one) outnumber the list's pages, which
 * is then shared (executionReads.ts). A loop whose first batches are smaller than the list's pages
 * looks their rows up, and reads the list once its batches together name more rows than that.
 */
async function sharedOrRead(
	list: CollectionList,
	path: Record<string, string>,
	{ named, sharedKey }: { named: number; sharedKey: string },
	send: ItemSender,
	context: ErrorContext,
): Promise<WholeRead | undefined> {
	const { execution } = send.run.state;
	const shared = sharedRead(execution, sharedKey);
	if (shared && !shared.doubted) return shared;
	const rows = namedSoFar(execution, sharedKey, named);
	const wholeRead = await readWholeIfCheaper(list, path, { rows }, send, context);
	if (wholeRead) shareRead(execution, sharedKey, wholeRead);
	return wholeRead;
}

/**
 * The records of `kind` at `path` as the run of `send` holds them, read whole (once per run and
 * collection, shared by its items) where the kind has a list and that costs fewer requests than
 * looking up the external IDs the run's rows name (`named`, asked for once the run's rows are
 * known); undefined where each row is to be looked up by itself. Where `sharedAs` gives the API the
 * node writes to (its credential and Base URL), the node's runs in one execution share one read
 * (sharedOrRead); a run that lists `every` record reads its own. Both are asked once per read.
 */
export async function wholeReadOf(
	kind: ListableKind,
	path: Record<string, string>,
	{
		named,
		every = false,
		sharedAs,
	}: {
		named: () => ReadonlySet<string>;
		every?: boolean;
		sharedAs?: () => string | undefined;
	},
	send: ItemSender,
	context: ErrorContext,
): Promise<WholeRead | undefined> {
	if (!kind.list) return undefined;
	const reads = send.run.state.wholeReads;
	const key = collectionKey(kind.list, path);
	let wholeRead = reads.get(key);
	if (!wholeRead) {
		const rows = named().size;
		const api = every ? undefined : sharedAs?.();
		wholeRead =
			api === undefined
				? readWholeIfCheaper(kind.list, path, { rows, every }, send, context)
				: sharedOrRead(kind.list, path, { named: rows, sharedKey: `${api} ${key}` }, send, context);
		reads.set(key, wholeRead);
	}
	return await wholeRead;
}

/**
 * Reads whole, once for the run, each kind of record that `body` names by external ID through
 * `fields` and the run's items name more often than its list has pages, so that withIds
 * (recordReferences.ts) finds those references there.
 */
export async function readReferencedWhole(
	context: ErrorContext,
	body: IDataObject,
	fields: BodyField[],
	send: ItemSender,
): Promise<void> {
	for (const kind of new Set(referencedKinds(body, fields))) {
		const named = () =>
			externalIdsNamed(
				send.run
					.checked<{ body?: IDataObject }>()
					.flatMap(({ body: other }) => (other ? [other] : [])),
				fields,
				kind,
			);
		await wholeReadOf(kind, {}, { named }, send, context);
	}
}

/** The kinds of record `body` names by external ID through `fields` (a list's entries included). */
function referencedKinds(body: IDataObject, fields: BodyField[]): ReferencedKind[] {
	return fields.flatMap((field) => {
		const value = body[field.property.name];
		if (value === undefined || value === null) return [];
		if (field.refersTo) return isByExternalId(value) ? [field.refersTo] : [];
		return field.entries
			? (value as IDataObject[]).flatMap((entry) => referencedKinds(entry, field.entries!.fields))
			: [];
	});
}

/** The external IDs of `kind` that `bodies` name through `fields` (a list's entries included). */
function externalIdsNamed(
	bodies: IDataObject[],
	fields: BodyField[],
	kind: ReferencedKind,
	named = new Set<string>(),
): Set<string> {
	for (const body of bodies) {
		for (const field of fields) {
			const value = body[field.property.name];
			if (value === undefined || value === null) continue;
			if (field.refersTo === kind && isByExternalId(value)) named.add(value.externalId);
			else if (field.entries)
				externalIdsNamed(value as IDataObject[], field.entries.fields, kind, named);
		}
	}
	return named;
}

function isByExternalId(value: unknown): value is { externalId: string } {
	return typeof value === 'object' && value !== null && 'externalId' in value;
}
