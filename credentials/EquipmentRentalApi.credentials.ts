import type {
	IAuthenticateGeneric,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

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
			placeholder: 'https://api.example.com',
			description: 'Address of the Integration API, without the /master-data or /analytics part',
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

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: { Authorization: '=Bearer {{$credentials.accessToken}}' },
		},
	};

	// The cheapest authenticated call: one equipment model.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ $credentials.baseUrl.replace(/\\/+$/, "") }}',
			url: '/master-data/v1/equipment-management/models',
			qs: { page: 1, limit: 1 },
			// As in the node: a Base URL that redirects fails here rather than later.
			disableFollowRedirect: true,
		},
	};
}
