import { CONTRACTS, CONTRACTS_PATH } from '../../../shared/paths';
import { getRecordOperation } from '../../operations/recordOperations';
import { contractPicker } from './pickers';

// https://ram-api.syniotec.com/reference/contracts: GET /contracts/{id}
export const { option, fields } = getRecordOperation({
	resource: 'contract',
	value: 'get',
	name: 'Get',
	action: 'Get a contract',
	description: 'Get one contract by ID or external ID',
	url: `${CONTRACTS_PATH}/{id}`,
	idField: contractPicker,
	kind: CONTRACTS,
});
