import { CLIENTS, CLIENTS_PATH } from '../../shared/paths';
import { idPicker } from '../../shared/pickers';
import { getRecordOperation } from '../../shared/recordOperations';

export const clientPicker = idPicker({
	displayName: 'Client',
	name: 'clientId',
	description:
		'The client: picked by name from the list, or given by its ID or by the external ID another system gave it',
	searchListMethod: 'searchClients',
	recordName: 'client',
	byExternalId: true,
});

// https://ram-api.syniotec.com/reference/clients: GET /clients/{id}
export const { option, fields } = getRecordOperation({
	resource: 'client',
	value: 'get',
	name: 'Get',
	action: 'Get a client',
	description:
		'Get one client by ID or external ID, with its custom price list ID, status and contact persons',
	url: `${CLIENTS_PATH}/{id}`,
	idField: clientPicker,
	kind: CLIENTS,
});
