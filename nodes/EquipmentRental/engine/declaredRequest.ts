import type { Field } from '../../shared/parameters';
import type { ReferencedKind } from '../../shared/paths';
import type { ExternalIdLookup, ItemRequest, RequestParts } from './itemRequest';

/** A request as data: its method and URL, and the form's field behind each name it carries. */
export interface RequestData {
	method: string;
	/** Relative to the Base URL; each `{name}` is a path parameter. */
	url: string;
	/** The form's field behind each path parameter, query parameter and body field, by API name. */
	path?: Record<string, string>;
	query?: Record<string, string>;
	body?: Record<string, string>;
}

/**
 * What an operation sends, as plain data: its request as its file declares it (itemRequest.ts).
 * Every operation's routing is the same hook (itemRouting.ts), so the routing alone does not say
 * what an operation sends; this does, and the description snapshot prints it, so that a change of
 * what is sent is a diff to review there.
 */
export interface DeclaredRequest extends RequestData {
	/** Whether the operation reads before any item of the run writes (the run's prepare phase). */
	prepares: boolean;
	lookups?: ExternalIdLookup[];
	orInstead?: RequestData;
}

type Carrier = 'path' | 'query' | 'body';

/**
 * A request as data. A name in the URL's placeholders is a path parameter; any other is carried in
 * the query by a GET or a DELETE (they send no body) and in the body by the other methods, as the
 * operations build their parts.
 */
function asData(method: string, url: string, fields: Record<string, Field>): RequestData {
	const placeholders = new Set([...url.matchAll(/\{(\w+)\}/g)].map(([, name]) => name));
	const carrierOf = (apiName: string): Carrier => {
		if (placeholders.has(apiName)) return 'path';
		return method === 'GET' || method === 'DELETE' ? 'query' : 'body';
	};
	const carried: Partial<Record<Carrier, Record<string, string>>> = {};
	for (const [apiName, field] of Object.entries(fields)) {
		const carrier = carrierOf(apiName);
		carried[carrier] = { ...carried[carrier], [apiName]: field.name };
	}
	return { method, url, ...carried };
}

/** What the operation declaring `request` sends; `prepares` where it has reads to prepare. */
export function declaredRequest<Parts extends RequestParts>(
	request: ItemRequest<Parts>,
	prepares: boolean,
): DeclaredRequest {
	const {
		method,
		url,
		fieldsByApiName,
		fieldsSent = fieldsByApiName,
		lookups,
		orInstead,
	} = request;
	return {
		...asData(method, url, fieldsSent),
		prepares,
		...(lookups?.length ? { lookups } : {}),
		...(orInstead
			? { orInstead: asData(orInstead.method, orInstead.url, orInstead.fieldsSent) }
			: {}),
	};
}

/**
 * The record of `kind` that `field` may name by external ID, found by its lookup; or, where
 * `readWhole`, in its collection read whole for the run, when the kind has a list.
 */
export function lookupOf(
	field: Field,
	kind: ReferencedKind,
	{ readWhole = false } = {},
): ExternalIdLookup {
	return {
		field: field.name,
		url: kind.externalIdUrl,
		...(readWhole && kind.list ? { wholeRead: kind.list.url } : {}),
	};
}
