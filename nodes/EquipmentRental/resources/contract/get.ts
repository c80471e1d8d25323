import { CONTRACTS, CONTRACTS_PATH } from '../../shared/paths';
import { idPicker } from '../../shared/pickers';
import { getRecordOperation } from '../../shared/recordOperations';

export const contractPicker = idPicker({
	displayName: 'Contract',
	name: 'contractId',
	description:
		'The contract: picked by title from the list, or given by its ID or by the external ID another system gave it',
	searchListMethod: 'searchContracts',
	recordName: 'contract',
	byExternalId: true,
});

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
