import type {
	IDataObject,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';

import { apiRequestOptions } from './apiRequestOptions';
import { apiError, isFailure, malformedResponseError } from './errors';
import { parallelRequestsField } from './requestOptionFields';
import { RequestPace } from './requestPace';

// A picker's list waits this long at most: the editor shows the failure in the list instead.
const PICKER_TIMEOUT_MS = 15_000;

interface ReadOptions {
	/** A picker's read: no retries and a short timeout, so that the editor shows a failure at once. */
	forPicker?: boolean;
	/** Whether the path holds an ID the user gave: only then can a 404 be the ID's fault. */
	pathHasIds?: boolean;
}

/**
 * How long a poll waits at most for an API that keeps refusing its requests as rate-limited: the
 * changes it was reading wait for the next poll.
 */
const POLL_MAX_RATE_LIMIT_WAIT_MS = 30_000;

/**
 * The pace of the requests sent outside a run of the node, with the same policy as a run's
 * (requestPace.ts): a poll's pages share one pace, at the node's default Parallel Requests, and a
 * refusal pauses them; a picker's list sends one request and does not wait out a refusal, so that the
 * editor shows it at once.
 */
const pacesOfContexts = new WeakMap<object, RequestPace>();
function paceOutsideRun(context: object, forPicker: boolean): RequestPace {
	let pace = pacesOfContexts.get(context);
	if (!pace) {
		pace = new RequestPace({
			parallelRequests: forPicker ? 1 : (parallelRequestsField.default as number),
			maxRateLimitWaitMs: forPicker ? 0 : POLL_MAX_RATE_LIMIT_WAIT_MS,
		});
		pacesOfContexts.set(context, pace);
	}
	return pace;
}

/**
 * GETs a path of the Integration API with the node's credential and returns the answer's body, with
 * the node's error mapping, outside an item's routed request: the trigger's polls and the pickers'
 * lists. It keeps the pace and retry policy of every request of the package (requestPace.ts): a poll
 * retries transient failures (a failed poll ends in an error execution, and the changes it was
 * reading wait for the next poll); a picker's read is not retried.
 */
export async function getFromApi(
	context: IPollFunctions | ILoadOptionsFunctions,
	path: string,
	qs: IDataObject = {},
	{ forPicker = false, pathHasIds = false }: ReadOptions = {},
): Promise<unknown> {
	const { baseUrl, accessToken } = await context.getCredentials<{
		baseUrl: string;
		accessToken?: string;
	}>('equipmentRentalApi');
	return await paceOutsideRun(context, forPicker).send(
		context,
		async () => {
			const response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				'equipmentRentalApi',
				{
					method: 'GET',
					baseURL: String(baseUrl).replace(/\/+$/, ''),
					url: path,
					qs,
					...apiRequestOptions(),
					returnFullResponse: true,
					...(forPicker ? { timeout: PICKER_TIMEOUT_MS } : {}),
				},
			)) as IN8nHttpFullResponse;
			if (isFailure(response))
				throw apiError(context, response, { accessToken, baseUrl, pathHasIds });
			// A body cut off in transit arrives as text; it is worth another try.
			if (typeof response.body !== 'object' || response.body === null) {
				throw malformedResponseError(context, 'a JSON object or array');
			}
			return response.body;
		},
		{ repeatable: !forPicker },
	);
}
