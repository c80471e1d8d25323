import type { IDataObject, IN8nHttpFullResponse, IPollFunctions } from 'n8n-workflow';

import { apiRequestOptions } from '../EquipmentRental/shared/apiRequestOptions';
import { apiError, isFailure, malformedResponseError } from '../EquipmentRental/shared/errors';
import { withRetries } from '../EquipmentRental/shared/retry';

/**
 * GETs a path of the Integration API with the node's credential and returns the answer's body, with
 * the main node's error mapping. Transient failures are retried here: a failed poll ends in an
 * error execution, and the changes it was reading wait for the next poll.
 */
export async function getFromApi(
	context: IPollFunctions,
	path: string,
	qs: IDataObject = {},
): Promise<unknown> {
	const { baseUrl, accessToken } = await context.getCredentials<{
		baseUrl: string;
		accessToken?: string;
	}>('equipmentRentalApi');
	return await withRetries(
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
				},
			)) as IN8nHttpFullResponse;
			// The trigger's paths hold no record ID: a 404 is a wrong address.
			if (isFailure(response)) throw apiError(context, response, { accessToken, baseUrl });
			// A body cut off in transit arrives as text; it is worth another try.
			if (typeof response.body !== 'object' || response.body === null) {
				throw malformedResponseError(context, 'a JSON object or array');
			}
			return response.body;
		},
		{ repeatable: true },
	);
}
