import type {
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	PostReceiveAction,
} from 'n8n-workflow';

import type { Field, ItemParameters } from '../../shared/parameters';
import type { NodeRun } from './nodeRun';

/*
 * What an operation declares to be sent for each item (its request, its parts, its work), and the
 * `send` its work is given: the contract between the operations and the per-item routing
 * (itemRouting.ts).
 */

/** What one item adds to an operation's request: path parameters, query and body. */
export interface RequestParts {
	/**
	 * Another request of the item's run than the operation's own, e.g. a read before its write: its
	 * method and URL (each `{name}` filled from `path`). The operation's own error mapping applies.
	 */
	method?: IHttpRequestMethods;
	url?: string;
	path?: Record<string, string>;
	qs?: IDataObject;
	body?: IDataObject;
}

/** The names the API knows the parts of a request by. */
type ApiNames<Parts extends RequestParts> = Extract<
	| keyof NonNullable<Parts['path']>
	| keyof NonNullable<Parts['qs']>
	| keyof NonNullable<Parts['body']>,
	string
>;

/** An operation's request, as its file declares it. */
export interface ItemRequest<Parts extends RequestParts> {
	method: IHttpRequestMethods;
	/** Relative to the Base URL; each `{name}` is filled from the item's `path` part. */
	url: string;
	/** Reads one item's parameters, each checked, into the parts of its request. */
	parts: (item: ItemParameters) => Parts;
	/**
	 * The form's field behind each name the API knows, exactly the names `parts` sends: an API error
	 * that names the field at fault then names it by its label in the form.
	 */
	fieldsByApiName: NoInfer<{ [name in ApiNames<Parts>]: Field }>;
	/** Turns the API's answer into the item's output; runs after the answer is checked for errors. */
	output?: PostReceiveAction[];
	/**
	 * What the output says beside the API's answer, from the parts of the operation's own request:
	 * the records it changed and the values it sent, where the API answers only `{ success: true }`
	 * (a sheet of changes then shows which row changed what). The API's own fields come first and
	 * win.
	 */
	changed?: (parts: Parts) => IDataObject;
	/**
	 * What identifies the record the item is about, as the item gave it (e.g. its external ID): a
	 * failed item's output carries it beside the error under Continue On Fail, so that a sheet of
	 * failures says which row each was. Read without the checks, which may be what failed.
	 */
	identifies?: (item: ItemParameters) => IDataObject;
	/**
	 * What the operation does to a record, as a failed run's error reports it (e.g. `attached`);
	 * by default from the method (`created` for POST, `updated` for PATCH and PUT, ...). A Create or
	 * Update's output says it per item (`upserted`).
	 */
	outcome?: string;
	/**
	 * The form's field behind each name the request carries, where `fieldsByApiName` names more (a
	 * write's labels cover every field of its record, any of which an API error may name): declared
	 * for the description snapshot (declaredRequest.ts). By default `fieldsByApiName`.
	 */
	fieldsSent?: Record<string, Field>;
	/**
	 * The records an item may name by external ID, each found with a read before the request that
	 * needs its ID (a Get's read of the record found is its answer): declared for the description
	 * snapshot (declaredRequest.ts).
	 */
	lookups?: ExternalIdLookup[];
	/**
	 * The request some items send instead of the operation's own (a Create or Update's update of the
	 * record it finds), and the form's field behind each name it carries: declared for the
	 * description snapshot (declaredRequest.ts).
	 */
	orInstead?: { method: IHttpRequestMethods; url: string; fieldsSent: Record<string, Field> };
}

/** A record an item may name by external ID, and the reads that find it. */
export interface ExternalIdLookup {
	/** The form's field that names the record. */
	field: string;
	/** A GET of the record by its external ID. */
	url: string;
	/**
	 * A GET, page by page, of the collection the run reads whole instead when its pages are fewer
	 * than the records the run's items name (a sync's references).
	 */
	wholeRead?: string;
}

/**
 * How an item's run sends a request built from its parts: over the routed request, with the API's
 * answer checked, a GET retried when it fails for a passing reason.
 */
export interface ItemSender {
	(parts: RequestParts): Promise<INodeExecutionData[]>;
	/** The run of the node the item belongs to, which all its items share. */
	readonly run: NodeRun;
}

/** The API a run sends to: the credential's Base URL, as the engine has read it for the run. */
export interface ApiAddress {
	baseUrl: string;
}

/**
 * What an operation does for one item once its parameters are read and checked (`parts`):
 * `prepare` makes the reads its write needs (records named by external ID), for every item of the
 * run before any item performs (nodeRun.ts); `perform` sends the operation's own requests
 * and returns the item's output. A read has nothing to prepare.
 */
export interface ItemWork<Parts extends RequestParts, Prepared> {
	prepare?: (
		this: IExecutePaginationFunctions,
		parts: Parts,
		item: ItemParameters,
		send: ItemSender,
		api: ApiAddress,
	) => Promise<Prepared>;
	perform: (
		this: IExecutePaginationFunctions,
		prepared: Prepared,
		item: ItemParameters,
		send: ItemSender,
		api: ApiAddress,
	) => Promise<INodeExecutionData[]>;
}

/** A write's `perform` that sends its request as `prepare` made it (its path and body). */
export async function sendPrepared(
	prepared: RequestParts,
	_item: ItemParameters,
	send: ItemSender,
): Promise<INodeExecutionData[]> {
	return await send(prepared);
}
