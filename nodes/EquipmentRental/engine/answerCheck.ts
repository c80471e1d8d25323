import type {
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';

import type { FailedRequest } from '../../shared/errors';
import { apiError, isFailure, malformedResponseError } from '../../shared/errors';

/*
 * The answer to an operation's request, as RoutingNode hands it to the routing's postReceive: the
 * API's errors arrive as answers (nodes/shared/apiRequestOptions.ts), so this check is what makes a
 * failed answer the item's error. The trigger and the pickers, which send outside RoutingNode,
 * check theirs in nodes/shared/transport.ts with the same error mapping (nodes/shared/errors.ts).
 */

/** Whether an answer's body is neither empty nor JSON (an object or array). */
function isUnreadable(body: unknown): boolean {
	return body !== undefined && body !== null && body !== '' && typeof body !== 'object';
}

/** Whether checkApiResponse fails `response`. */
export function isFailedAnswer(response: IN8nHttpFullResponse): boolean {
	return isFailure(response) || isUnreadable(response.body);
}

/**
 * The postReceive of every operation: fails the item on an HTTP error status or an answer that says
 * it failed (see apiError), or on an answer that is not JSON. Where the spec does not
 * show a success body (create quote, attach, update release), an empty answer becomes
 * `{ "success": true }` so that the item still says what happened.
 */
export function checkApiResponse(request: Pick<FailedRequest, 'fieldLabels' | 'pathHasIds'>) {
	return async function (
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		if (isFailure(response)) {
			const { accessToken, baseUrl } = await this.getCredentials<{
				accessToken?: string;
				baseUrl?: string;
			}>('equipmentRentalApi');
			throw apiError(this, response, { ...request, accessToken, baseUrl });
		}
		if (response.body === undefined || response.body === null || response.body === '')
			return [{ json: { success: true } }];
		if (isUnreadable(response.body)) throw malformedResponseError(this, 'a JSON object or array');
		return items;
	};
}
