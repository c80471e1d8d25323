import type {
	DeclarativeRestApiSettings,
	IExecutePaginationFunctions,
	INodeExecutionData,
	NodeOperationError,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { toItemError } from '../../shared/errors';

type RequestData = DeclarativeRestApiSettings.ResultOptions;

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

export type Pagination = (
	this: IExecutePaginationFunctions,
	routed: RequestData,
) => Promise<INodeExecutionData[]>;

/**
 * The `pagination` RoutingNode calls for an item: `itemRun`, throwing every error as the item's own
 * (toItemError), in the form RoutingNode passes on (passedOnUnchanged): an API error with its HTTP
 * status, the node's own error without one.
 */
export function throwingItemErrors(itemRun: Pagination): Pagination {
	return async function pagination(this: IExecutePaginationFunctions, routed: RequestData) {
		try {
			return await itemRun.call(this, routed);
		} catch (error) {
			throw passedOnUnchanged(toItemError(this, error));
		}
	};
}
