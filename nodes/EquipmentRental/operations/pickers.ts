import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyMode,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { getFromApi } from '../../shared/transport';
import type { ReferencedKind } from '../../shared/paths';
import { EXAMPLE_UUID, EXTERNAL_ID_MODE } from '../../shared/parameters';

/** How many records a picker asks for per page as the user scrolls: the reference's default page size. */
const PICKER_PAGE_SIZE = 20;

// A picker's modes by ID and by the external ID another system gave the record (references.ts), shared
// by every picker. They sit under a `modes` key because n8n's package scanner, whose rule
// node-param-default-missing takes a mode anywhere else for a parameter, reads no lint suppressions.
const sharedModes: { modes: INodePropertyMode[] } = {
	modes: [
		{ displayName: 'By ID', name: 'id', type: 'string', placeholder: `e.g. ${EXAMPLE_UUID}` },
		{
			displayName: 'Ext. ID',
			name: EXTERNAL_ID_MODE,
			type: 'string',
			placeholder: 'e.g. ERP-10042',
		},
	],
};
export const [byIdMode, externalIdMode] = sharedModes.modes;

/**
 * A picker's list (one of n8n's `methods.listSearch`), given the search text and the token of the
 * page before. The node registers it under the function's own name, the name its field gives n8n.
 */
export type PickerSearch = (
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/**
 * An ID field as n8n's resource locator: "From List" (searchable, filled by `search`) or "By ID".
 * The node reads both, and a plain ID saved by version 0.2.0 of this package as well (read with
 * extractValue, see parameters.ts).
 */
export function idPicker({
	displayName,
	name,
	description,
	search,
	recordName,
	required = true,
	byExternalId = false,
}: {
	displayName: string;
	name: string;
	description: string;
	search: PickerSearch;
	/** What the list holds, for its placeholder, e.g. "client". */
	recordName: string;
	required?: boolean;
	/** Also by external ID (externalIdMode): the ID another system gave the record, looked up before sending. */
	byExternalId?: boolean;
}): INodeProperties {
	return {
		displayName,
		name,
		type: 'resourceLocator',
		required,
		default: { mode: 'list', value: '' },
		description,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: `Select a ${recordName}...`,
				typeOptions: { searchListMethod: search.name, searchable: true },
			},
			byIdMode,
			...(byExternalId ? [externalIdMode] : []),
		],
	};
}

/** The page a picker shows next, from the token of the page before (the page number). */
function pageOf(paginationToken: unknown): number {
	const page = Number(paginationToken);
	return Number.isInteger(page) && page > 1 ? page : 1;
}

/**
 * One page of a picker's list, read from an API list (`{ content, total }`) with the user's search
 * text sent as the API's `search`: the next page comes as the user scrolls. A failure is thrown, and
 * the editor shows it in the list.
 */
export async function searchPage(
	context: ILoadOptionsFunctions,
	path: string,
	{
		qs = {},
		filter,
		paginationToken,
	}: { qs?: IDataObject; filter?: string; paginationToken?: unknown },
	toItem: (record: IDataObject) => INodeListSearchItems | undefined,
): Promise<INodeListSearchResult> {
	const page = pageOf(paginationToken);
	const body = (await getFromApi(
		context,
		path,
		{ ...qs, ...(filter ? { search: filter } : {}), page, limit: PICKER_PAGE_SIZE },
		{ forPicker: true },
	)) as { content?: unknown; total?: unknown };
	const records = Array.isArray(body.content) ? (body.content as IDataObject[]) : [];
	const total = Number(body.total);
	const more = Number.isFinite(total) ? page * PICKER_PAGE_SIZE < total : records.length > 0;
	return {
		results: records.flatMap((record) => toItem(record) ?? []),
		paginationToken: more ? String(page + 1) : undefined,
	};
}

/**
 * The ID of the record another picker of the node names (empty when not chosen yet): as chosen, or
 * found by its external ID where given so.
 */
export async function chosenId(
	context: ILoadOptionsFunctions,
	name: string,
	kind: ReferencedKind,
): Promise<string> {
	const picked = context.getCurrentNodeParameter(name) as
		{ mode?: unknown; value?: unknown } | string | undefined;
	const value = typeof picked === 'object' ? picked?.value : picked;
	const given =
		typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
	if (!given || typeof picked !== 'object' || picked.mode !== EXTERNAL_ID_MODE) return given;
	const record = (await getFromApi(
		context,
		kind.externalIdUrl.replace('{externalId}', encodeURIComponent(given)),
		{},
		{ forPicker: true, pathHasIds: true },
	)) as IDataObject;
	return String(record.id);
}

/** Text of a record's field, or undefined when it has none. */
export function textOf(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== ''
		? value.trim()
		: typeof value === 'number'
			? String(value)
			: undefined;
}

/** A name followed by its number, e.g. "Acme Construction (10042)". */
export function nameWithNumber(name: unknown, number: unknown, fallback: unknown): string {
	const title = textOf(name) ?? textOf(fallback) ?? '';
	const suffix = textOf(number);
	return suffix && suffix !== title ? `${title} (${suffix})` : title;
}

/** An entry of a picker's list: the record's name, and its ID as the value; none without an ID. */
export function listItem(name: string, value: unknown): INodeListSearchItems | undefined {
	const id = textOf(value);
	return id === undefined ? undefined : { name: name || id, value: id };
}

/** A picker that needs another field chosen first says so in its list. */
export function chooseFirst(context: ILoadOptionsFunctions, what: string): NodeOperationError {
	return new NodeOperationError(context.getNode(), `Choose the ${what} first`, {
		description: `This list shows the ${what}'s records: pick or enter the ${what} above, then open the list again.`,
	});
}

/** Whether `name` contains the user's search text, ignoring case (lists the API cannot search). */
function matchesFilter(name: string, filter: string | undefined): boolean {
	return !filter || name.toLowerCase().includes(filter.toLowerCase());
}

/** The records of a list the API cannot search or page, filtered here by the search text. */
export function filtered(
	records: unknown,
	toItem: (record: IDataObject) => INodeListSearchItems | undefined,
	filter: string | undefined,
): INodeListSearchResult {
	const items = (Array.isArray(records) ? (records as IDataObject[]) : []).flatMap(
		(record) => toItem(record) ?? [],
	);
	return { results: items.filter((item) => matchesFilter(item.name, filter)) };
}
