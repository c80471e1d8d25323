import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IHttpRequestMethods,
	INodeExecutionData,
	INodePropertyRouting,
	NodeOperationError,
	PostReceiveAction,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { checkApiResponse, failureSentences, toItemError } from '../../shared/errors';
import { nothingFoundAnswer } from './nothingFound';
import type { Field } from '../../shared/parameters';
import { ItemParameters } from '../../shared/parameters';
import type { NodeRun } from './nodeRun';
import { nodeRunOf } from './nodeRun';
import type { RequestPace } from '../../shared/requestPace';
import { paceOf } from './paceOfRun';

type RequestData = DeclarativeRestApiSettings.ResultOptions;

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
}

/**
 * How an item's run sends a request built from its parts: over the routed request, with the API's
 * answer checked, a GET retried when it fails for a passing reason.
 */
export interface SendParts {
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
		send: SendParts,
		api: ApiAddress,
	) => Promise<Prepared>;
	perform: (
		this: IExecutePaginationFunctions,
		prepared: Prepared,
		item: ItemParameters,
		send: SendParts,
		api: ApiAddress,
	) => Promise<INodeExecutionData[]>;
}

/**
 * Fills `{name}` placeholders of the routed URL, each value encoded as exactly one path segment.
 */
function fillPath(url: string, values: Record<string, string> = {}): string {
	return url.replace(/\{(\w+)\}/g, (_placeholder, name: string) => {
		if (values[name] === undefined) throw new Error(`No value for the path parameter {${name}}`);
		return encodeURIComponent(values[name]);
	});
}

function withParts(request: RequestData, parts: RequestParts, baseURL: string): RequestData {
	return {
		...request,
		options: {
			...request.options,
			baseURL,
			method: parts.method ?? request.options.method,
			url: fillPath(parts.url ?? request.options.url ?? '', parts.path),
			qs: { ...request.options.qs, ...parts.qs },
			body: parts.body,
		},
	};
}

/**
 * Sends a routed request in the run's pace (requestPace.ts), which retries a refused request and a
 * GET that fails for a passing reason. Other writes are not repeated, since a write whose answer
 * was lost may still have been applied.
 */
async function sendInPace(
	context: IExecutePaginationFunctions,
	pace: RequestPace,
	request: RequestData,
	whenTurnComes: () => Promise<Error | undefined>,
): Promise<INodeExecutionData[]> {
	const repeatable = (request.options.method ?? 'GET').toUpperCase() === 'GET';
	return await pace.send(
		context,
		async () => {
			// The engine writes into the options it sends; each attempt gets its own copy.
			const options = {
				...request.options,
				headers: { ...request.options.headers },
				qs: { ...request.options.qs },
			};
			return await context.makeRoutingRequest({ ...request, options });
		},
		{ repeatable, whenTurnComes },
	);
}

/** The answer's items, each followed by what the request changed where the answer does not say. */
function withChanges(answer: INodeExecutionData[], changes: IDataObject): INodeExecutionData[] {
	return answer.map((item) => ({
		...item,
		json: {
			...item.json,
			...Object.fromEntries(Object.entries(changes).filter(([name]) => !(name in item.json))),
		},
	}));
}

/**
 * `error` in the form in which n8n-core's RoutingNode passes it on as it is. RoutingNode
 * (routing-node.js, runNode; the same code in n8n-core of n8n 1.85.4, 1.123.81, 2.8.4 and 2.41.1)
 * rethrows a failed item's error unchanged only when it is an instance of its own n8n-workflow's
 * NodeApiError; any other error it wraps in a new NodeApiError with httpCode "none" (its message and
 * description kept, the engine's stack), which the editor shows as "Error code none" and an error
 * workflow receives as `httpCode: "none"`. n8n records and shows an error by its fields (name,
 * message, description, httpCode, context, stack), not by its class: a NodeOperationError of the
 * node (a field found wrong, a record named by external ID that the API lacks) keeps all of them,
 * its name included, and takes NodeApiError's prototype only to pass that check. Done only as the
 * error leaves the node (throwingItemErrors): until then the node tells its own errors from the
 * API's by their class (runReport.ts, nodeRun.ts).
 */
function passedOnUnchanged(error: NodeApiError | NodeOperationError): NodeApiError {
	return error instanceof NodeApiError
		? error
		: Object.setPrototypeOf(error, NodeApiError.prototype);
}

type Pagination = (
	this: IExecutePaginationFunctions,
	routed: RequestData,
) => Promise<INodeExecutionData[]>;

/**
 * The `pagination` RoutingNode calls for an item: `itemRun`, throwing every error as the item's own
 * (toItemError), in the form RoutingNode passes on (passedOnUnchanged): an API error with its HTTP
 * status, the node's own error without one.
 */
function throwingItemErrors(itemRun: Pagination): Pagination {
	return async function pagination(this: IExecutePaginationFunctions, routed: RequestData) {
		try {
			return await itemRun.call(this, routed);
		} catch (error) {
			throw passedOnUnchanged(toItemError(this, error));
		}
	};
}

/** What identifies a failed item's record (see ItemRequest), or nothing when it cannot be read. */
function identity(
	identifies: ItemRequest<RequestParts>['identifies'],
	context: IExecutePaginationFunctions,
): IDataObject {
	try {
		return identifies?.(new ItemParameters(context)) ?? {};
	} catch {
		// The value itself failed (an expression that throws): the error says so.
		return {};
	}
}

/**
 * Whether the node runs as an AI agent's tool: n8n loads the tool variant of a node under its type
 * name followed by "Tool" (n8n 1.85 to 2.41, load-nodes-and-credentials). There a failure is the
 * tool's answer, so that the model reads it and can explain it or ask again: from AI Agent 3 on, n8n
 * runs a tool as a node of the workflow and a thrown error ends the whole execution.
 */
function runsAsAiTool(context: IExecutePaginationFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

/**
 * n8n's Batching under Request Options, as RoutingNode reads it (every `size` items, a pause of
 * `interval` ms; no pause without an interval).
 */
function batchingOf(context: IExecutePaginationFunctions): { size: number; interval: number } {
	const batch = context.getNodeParameter('requestOptions.batching.batch', {}) as {
		batchSize?: number;
		batchInterval?: number;
	};
	return {
		size: batch.batchSize !== undefined && batch.batchSize > 0 ? batch.batchSize : 1,
		interval: batch.batchInterval ?? 0,
	};
}

/**
 * The credential's Base URL, read once per run. As the node's request default it would be an
 * expression RoutingNode evaluates for every item (routing-node.js runNode, n8n 1.85 to 2.41).
 */
const baseUrls = new WeakMap<NodeRun, Promise<string>>();
async function baseUrlOf(run: NodeRun, context: IExecutePaginationFunctions): Promise<string> {
	let baseUrl = baseUrls.get(run);
	if (!baseUrl) {
		baseUrl = context
			.getCredentials<{ baseUrl: string }>('equipmentRentalApi')
			.then(({ baseUrl: given }) => String(given).replace(/\/+$/, ''));
		baseUrls.set(run, baseUrl);
	}
	return await baseUrl;
}

/** What a record an operation's output item stands for came to, when the operation does not say. */
const OUTCOME_BY_METHOD: Record<string, string> = {
	GET: 'read',
	POST: 'created',
	PUT: 'updated',
	PATCH: 'updated',
	DELETE: 'deleted',
};

/**
 * The routing of an operation that reads, sends and outputs one input item at a time, each item
 * going through the run's phases (nodeRun.ts): its parameters checked (`parts`), the reads
 * it needs before writing made (`work.prepare`), its requests sent (`work.perform`).
 *
 * n8n-core 2.8.1's RoutingNode (routing-node.js, runNode) runs a declarative node in two steps.
 * First, in one loop over the items, it evaluates each item's parameters and routed request: an
 * error there is the whole node's, even with Continue on Fail. Then it starts each item's request
 * without waiting for the others, in a promise of its own that calls, for that item, the routing's
 * `preSend` functions, then `operations.pagination` if `send.paginate` is set (otherwise the request
 * itself), and `postReceive` with the answer. Of these per-item functions only `pagination` holds
 * the whole item: it sends the request (`makeRoutingRequest`, which also runs postReceive) and
 * returns the item's output. So every operation runs there, paging or not: its parameters are
 * checked per item (a wrong one fails its own item, before anything is sent); its output is paired
 * with its input item, which RoutingNode leaves to WorkflowExecute, whose guess by item counts
 * leaves the items of several lists unpaired; and its failure is output here under Continue on
 * Fail (and as an AI tool, see runsAsAiTool), because RoutingNode would output `{ json: {}, error }`
 * without pairedItem.
 */
function routingPerItem<Parts extends RequestParts, Prepared>(
	request: ItemRequest<Parts>,
	work: Required<ItemWork<Parts, Prepared>>,
): INodePropertyRouting {
	const { method, url, fieldsByApiName, output = [], changed, identifies, outcome } = request;
	const writes = method !== 'GET';
	return {
		request: { method, url },
		// Not paging: what makes RoutingNode call `operations.pagination` below (see above).
		send: { paginate: true },
		// The API's errors arrive as answers (apiRequestOptions.ts): checked first, for every operation.
		output: {
			postReceive: [
				checkApiResponse({ fieldLabels: fieldsByApiName, pathHasIds: /\{\w+\}/.test(url) }),
				...output,
			],
		},
		operations: {
			pagination: throwingItemErrors(async function (
				this: IExecutePaginationFunctions,
				routed: RequestData,
			) {
				const index = this.getItemIndex();
				const pairedItem = { item: index };
				const stopsOnFailure = !this.continueOnFail() && !runsAsAiTool(this);
				const run = nodeRunOf(this, { stopsOnFailure, writes });
				// Read with the item's checks: a wrong Request Options value fails them.
				let pace: RequestPace;
				let ownParts: RequestParts = {};
				const send: SendParts = Object.assign(
					async (parts: RequestParts) => {
						const withItsParts = withParts(routed, parts, api.baseUrl);
						if (run.phase !== 'perform' && withItsParts.options.method !== 'GET')
							throw new Error('A write was sent before every item of the run was prepared');
						const answer = await sendInPace(
							this,
							pace,
							withItsParts,
							async () => await run.heldBack(index),
						);
						const ownRequest = parts.method === undefined && parts.url === undefined;
						if (ownRequest) ownParts = parts;
						// The operation's own request is built from the operation's parts.
						return changed && ownRequest ? withChanges(answer, changed(parts as Parts)) : answer;
					},
					{ run },
				);
				const api = { baseUrl: '' };
				const item = new ItemParameters(this);
				const items = await run.runItem(index, {
					check: () => {
						pace = paceOf(run, this);
						return request.parts(item);
					},
					prepare: async (parts) => {
						api.baseUrl = await baseUrlOf(run, this);
						return await work.prepare.call(this, parts, item, send, api);
					},
					perform: async (prepared) => {
						await run.batchTurn(index, batchingOf(this));
						return await work.perform.call(this, prepared, item, send, api);
					},
					inTurn: async (phaseWork) => await pace.forItem(this, phaseWork),
					outcomesOf: (outputItems) =>
						outputItems.map(({ json }) => ({
							outcome:
								typeof json.upserted === 'string'
									? json.upserted
									: (outcome ?? OUTCOME_BY_METHOD[method] ?? 'done'),
							id: json.id === undefined || json.id === null ? undefined : String(json.id),
						})),
					toItemError: (error) => toItemError(this, error),
					// `json.error`, and no `error` property: n8n-core's WorkflowExecute replaces the json of
					// an item that carries `error` with `{ error: message }`, losing the explanation. It
					// sends an item to the error output only when `error` is its json's one field, and adds
					// the input item's fields (the row) itself (handleNodeErrorOutput); on the regular
					// output the item names the record it was about.
					failureOutput: (itemError) => [
						{
							json: {
								error: failureSentences(itemError),
								...(this.getNode().onError === 'continueErrorOutput'
									? {}
									: identity(identifies, this)),
							},
						},
					],
				});
				// The items are the run's own, and a list has thousands: they are paired in place, not
				// copied.
				for (const outputItem of items) outputItem.pairedItem = pairedItem;
				if (items.length === 0 && method === 'GET' && runsAsAiTool(this))
					return [{ json: nothingFoundAnswer(this, ownParts, fieldsByApiName), pairedItem }];
				return items;
			}),
		},
	};
}

/** A write's `perform` that sends its request as `prepare` made it (its path and body). */
export async function sendPrepared(
	prepared: RequestParts,
	_item: ItemParameters,
	send: SendParts,
): Promise<INodeExecutionData[]> {
	return await send(prepared);
}

/** The routing of an operation that sends `request` once for each input item. */
export function requestPerItem<Parts extends RequestParts>(
	request: ItemRequest<Parts>,
): INodePropertyRouting {
	return runPerItem(request, sendPrepared);
}

/**
 * The routing of an operation that does `work` for each input item, sending the requests it
 * needs: a read's `perform`, or a write's `prepare` and `perform`.
 */
export function runPerItem<Parts extends RequestParts, Prepared = Parts>(
	request: ItemRequest<Parts>,
	work: ItemWork<Parts, Prepared> | ItemWork<Parts, Parts>['perform'],
): INodePropertyRouting {
	const { prepare = async (parts: Parts) => parts as unknown as Prepared, perform } =
		typeof work === 'function'
			? { perform: work as unknown as ItemWork<Parts, Prepared>['perform'] }
			: work;
	return routingPerItem(request, { prepare, perform });
}
