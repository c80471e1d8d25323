import { idPicker } from '../../operations/pickers';

export const contractPicker = idPicker({
	displayName: 'Contract',
	name: 'contractId',
	description:
		'The contract: picked by title from the list, or given by its ID or by the external ID another system gave it',
	searchListMethod: 'searchContracts',
	recordName: 'contract',
	byExternalId: true,
});
