import type {
	DeclarativeRestApiSettings,
	IDataObject,
	IExecutePaginationFunctions,
	IExecuteSingleFunctions,
	INodeExecutionData,
	INodePropertyRouting,
	NodeOperationError,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { failureSentences, toItemError } from './errors';
import { requestWithRetry } from './retry';

export type RequestData = DeclarativeRestApiSettings.ResultOptions;
export type ItemRun = (
	this: IExecutePaginationFunctions,
	request: RequestData,
) => Promise<INodeExecutionData[]>;

/** What one item adds to an operation's routed request: path parameters, query and body. */
export interface RequestParts {
	path?: Record<string, string>;
	qs?: IDataObject;
	body?: IDataObject;
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

export function withParts(request: RequestData, parts: RequestParts): RequestData {
	return {
		...request,
		options: {
			...request.options,
			url: fillPath(request.options.url ?? '', parts.path),
			qs: { ...request.options.qs, ...parts.qs },
			body: parts.body,
		},
	};
}

/**
 * Runs an operation once per input item through the engine's `pagination` hook. In n8n-core 2.8 it
 * is the only per-item function wrapped around the request: parameters read here fail only their
 * own item (the engine reads routed parameters for every item before sending any), and errors
 * caught here keep their pairedItem, which the engine drops from error items under Continue on Fail
 * and the error output.
 */
export function perItem(run: ItemRun): Pick<INodePropertyRouting, 'send' | 'operations'> {
	return {
		send: { paginate: true },
		operations: {
			async pagination(this: IExecutePaginationFunctions, request: RequestData) {
				const pairedItem = { item: this.getItemIndex() };
				try {
					const items = await run.call(this, request);
					// The items are the run's own, and a list has thousands: they are paired in place, not
					// copied.
					for (const item of items) item.pairedItem = pairedItem;
					return items;
				} catch (error) {
					const itemError = toItemError(this, error);
					if (!this.continueOnFail()) throw passedOnUnchanged(itemError);
					// Only `json.error`, and no `error` property: n8n-core's WorkflowExecute replaces the json
					// of an item that carries `error` with `{ error: message }`, losing the explanation, and
					// sends an item to the error output when `error` is its json's only field.
					return [{ json: { error: failureSentences(itemError) }, pairedItem }];
				}
			},
		},
	};
}

/**
 * `error` in the form in which n8n-core's RoutingNode passes it on as it is. RoutingNode (n8n-core
 * 2.8.1, routing-node.js, runNode) rethrows a failed item's error unchanged only when it is a
 * NodeApiError; any other error it wraps in a new NodeApiError with httpCode "none" and the engine's
 * stack, which the editor shows as "Error code none" on an error that is no API error. n8n records
 * and shows an error by its fields (name, message, description, context, stack), not by its class:
 * a NodeOperationError of the node (a field found wrong before sending) keeps all of them, its name
 * included, and takes NodeApiError's prototype only to pass that check.
 */
function passedOnUnchanged(error: NodeApiError | NodeOperationError): NodeApiError {
	return error instanceof NodeApiError
		? error
		: Object.setPrototypeOf(error, NodeApiError.prototype);
}

/** The run of an operation that sends one request built from the item's parameters. */
export function sendOnce(build: (this: IExecuteSingleFunctions) => RequestParts): ItemRun {
	return async function (request) {
		return await requestWithRetry(this, withParts(request, build.call(this)));
	};
}
