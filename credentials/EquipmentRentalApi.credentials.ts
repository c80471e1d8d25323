import type {
	IAuthenticateRuleResponseCode,
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

const BASE_URL_RULE =
	'The Base URL is the address of the Integration API without /master-data or /analytics, e.g. https://integration-api.ram.syniotec.com.';

function testFailure(status: number, message: string): IAuthenticateRuleResponseCode {
	return { type: 'responseCode', properties: { value: status, message } };
}

export class EquipmentRentalApi implements ICredentialType {
	name = 'equipmentRentalApi';

	displayName = 'Equipment Rental API';

	icon = {
		light: 'file:../nodes/EquipmentRental/equipmentRental.svg',
		dark: 'file:../nodes/EquipmentRental/equipmentRental.dark.svg',
	} as const;

	// The editor links an address outside docs.n8n.io as it is, without n8n's "?utm_..." query, so
	// the #fragment still leads to the section.
	documentationUrl = 'https://github.com/equipment-rental/n8n-nodes-equipment-rental#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://integration-api.ram.syniotec.com',
			description:
				"Address of the Integration API, without the /master-data or /analytics part. The vendor's reference names https://integration-api.ram.syniotec.com.",
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'Token sent as "Authorization: Bearer <token>" with every request',
		},
	];

	// A function, not a generic authenticate (`=Bearer {{$credentials.accessToken}}`): n8n evaluates
	// a generic one's expression for every request it sends (CredentialsHelper.authenticate), in a
	// fresh expression context each time, about 0.25 ms of CPU per request (docs/performance.md).
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => ({
		...requestOptions,
		headers: {
			...requestOptions.headers,
			Authorization: `Bearer ${credentials.accessToken as string}`,
		},
	});

	// The cheapest authenticated call: one equipment model. Where n8n applies a rule (see the
	// README's Credentials section for the versions that do not), it shows the rule's message
	// instead of the bare status text.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ $credentials.baseUrl.replace(/\\/+$/, "") }}',
			url: '/master-data/v1/equipment-management/models',
			qs: { page: 1, limit: 1 },
			// As in the node: a Base URL that redirects fails here rather than later.
			disableFollowRedirect: true,
		},
		rules: [
			testFailure(401, 'Authorization failed (HTTP 401): the API did not accept the Access Token'),
			testFailure(
				403,
				'Access forbidden (HTTP 403): the Access Token may not read equipment models',
			),
			testFailure(404, `Not found (HTTP 404): the API has no such address. ${BASE_URL_RULE}`),
			...[301, 302, 307, 308].map((status) =>
				testFailure(
					status,
					`The API answered with a redirect (HTTP ${status}). Set the Base URL to the address the API now answers at (for example https:// rather than http://).`,
				),
			),
		],
	};
}
