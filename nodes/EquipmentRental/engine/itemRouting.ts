import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	INodeExecutionData,
	INodePropertyRouting,
} from 'n8n-workflow';

import { failureSentences, mayHaveBeenDone, toItemError } from '../../shared/errors';
import { inEventLoopSlice } from '../../shared/eventLoopSlices';
import { checkApiResponse } from './answerCheck';
import { nothingFoundAnswer } from './nothingFound';
import { ItemParameters } from '../../shared/parameters';
import type { ItemRequest, ItemSender, ItemWork, RequestParts } from './itemRequest';
import { sendPrepared } from './itemRequest';
import { declaredRequest } from './declaredRequest';
import { throwingItemErrors } from './errorHandover';
import { baseUrlOf, batchingOf, runsAsAiTool } from './runSettings';
import { nodeRunOf } from './nodeRun';
import { UNCHANGED } from './runReport';
import type { RequestPace } from '../../shared/requestPace';
import { failedAnswerHeard, paceOfRun } from './paceOfRun';

type RequestData = DeclarativeRestApiSettings.ResultOptions;

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
	whenTurnComes: (opening: boolean) => Promise<Error | undefined>,
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
 * An item's output in a try of n8n's Retry On Fail: a record that an earlier try of the execution
 * wrote, found holding its values now, says what that try did (`created`, `updated`).
 */
function asWrittenBefore(
	items: INodeExecutionData[],
	writtenBefore: string | undefined,
): INodeExecutionData[] {
	if (writtenBefore === undefined) return items;
	for (const { json } of items) if (json.upserted === UNCHANGED) json.upserted = writtenBefore;
	return items;
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
				failedAnswerHeard,
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
				const send: ItemSender = Object.assign(
					async (parts: RequestParts) => {
						const withItsParts = withParts(routed, parts, api.baseUrl);
						if (run.phase !== 'perform' && withItsParts.options.method !== 'GET')
							throw new Error('A write was sent before every item of the run was prepared');
						const sent = sendInPace(
							this,
							pace,
							withItsParts,
							async (opening) => await run.reasonNotToSend(opening),
						);
						const itsMethod = withItsParts.options.method ?? 'GET';
						// Noted for n8n's next try of the run, if it comes (nodeRun.ts, writtenBefore).
						if (itsMethod !== 'GET')
							sent.catch((error: unknown) => {
								if (mayHaveBeenDone(error))
									run.mayHaveWritten(index, OUTCOME_BY_METHOD[itsMethod] ?? 'done');
							});
						const answer = await sent;
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
					// RoutingNode calls this hook for every item in one loop: the checks wait past it.
					check: async () =>
						await inEventLoopSlice(() => {
							pace = paceOfRun(run, this);
							return request.parts(item);
						}),
					prepare: async (parts) => {
						api.baseUrl = await baseUrlOf(run, this);
						return await work.prepare.call(this, parts, item, send, api);
					},
					perform: async (prepared) => {
						await run.batchTurn(index, batchingOf(run, this));
						const performed = await work.perform.call(this, prepared, item, send, api);
						return asWrittenBefore(performed, run.writtenBefore(index));
					},
					inTurn: async (phaseWork) => await pace.forItem(this, phaseWork),
					// What the run did to records: a preview's items and the records listed beside the rows
					// (Create or Update's notInInput) are outputs, not writes.
					outcomesOf: (outputItems) =>
						outputItems
							.filter(({ json }) => json.preview !== true && json.upserted !== 'notInInput')
							.map(({ json }) => ({
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
	const routing = routingPerItem(request, { prepare, perform });
	// What the operation sends rides on its hook as data, for the description snapshot. RoutingNode
	// only checks that `pagination` is a function and calls it (routing-node.js, runNode, in the
	// n8n-core of n8n 1.85.4, 1.123.81, 2.8.4 and 2.41.1), and the description n8n sends the
	// editor is JSON, which leaves functions out with their properties: the data changes nothing
	// n8n does. A key beside the routing's own would be read as routing.
	const sends = declaredRequest(request, typeof work !== 'function' && work.prepare !== undefined);
	Object.assign(routing.operations!.pagination!, { sends });
	return routing;
}
