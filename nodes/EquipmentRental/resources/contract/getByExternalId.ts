import { CONTRACTS_PATH } from '../../../shared/paths';
import { externalIdField, getRecordOperation } from '../../operations/recordOperations';

// https://ram-api.syniotec.com/reference/get-contract-by-external-id
export const { option, fields } = getRecordOperation({
	resource: 'contract',
	value: 'getByExternalId',
	name: 'Get by External ID',
	action: 'Get a contract by external ID',
	description: 'Get one contract by the ID another system gave it',
	url: `${CONTRACTS_PATH}/external-id/{externalId}`,
	idField: externalIdField,
});
