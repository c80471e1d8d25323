import { CLIENTS_PATH } from '../../../shared/paths';
import { externalIdField, getRecordOperation } from '../../operations/recordOperations';

// https://ram-api.syniotec.com/reference/clients: GET /clients/external-id/{externalId}
export const { option, fields } = getRecordOperation({
	resource: 'client',
	value: 'getByExternalId',
	name: 'Get by External ID',
	action: 'Get a client by external ID',
	description: 'Get one client by the ID another system gave it',
	url: `${CLIENTS_PATH}/external-id/{externalId}`,
	idField: externalIdField,
});
