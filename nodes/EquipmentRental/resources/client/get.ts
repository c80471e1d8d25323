import { CLIENTS, CLIENTS_PATH } from '../../../shared/paths';
import { getRecordOperation } from '../../operations/recordOperations';
import { clientPicker } from './pickers';

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
