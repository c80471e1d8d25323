import { EQUIPMENTS_PATH } from '../../../shared/paths';
import { externalIdField, getRecordOperation } from '../../operations/recordOperations';

// https://ram-api.syniotec.com/reference/equipments: GET /equipments/external-id/{externalId}
export const { option, fields } = getRecordOperation({
	resource: 'equipment',
	value: 'getByExternalId',
	name: 'Get by External ID',
	action: 'Get a piece of equipment by external ID',
	description: 'Get one piece of equipment by the ID another system gave it',
	url: `${EQUIPMENTS_PATH}/external-id/{externalId}`,
	idField: externalIdField,
});
