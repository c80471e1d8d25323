import { CONTRACTS_PATH } from '../../shared/paths';
import { idPicker } from '../../shared/pickers';
import { getRecordOperation } from '../../shared/recordOperations';

export const contractPicker = idPicker({
	displayName: 'Contract',
	name: 'contractId',
	description: 'The contract, picked by title from the list or given by its ID',
	searchListMethod: 'searchContracts',
	recordName: 'contract',
});

// https://ram-api.syniotec.com/reference/contracts: GET /contracts/{id}
export const { option, fields } = getRecordOperation({
	resource: 'contract',
	value: 'get',
	name: 'Get',
	action: 'Get a contract',
	description: 'Get one contract by ID',
	url: `${CONTRACTS_PATH}/{id}`,
	idField: contractPicker,
});
