import { idPicker } from '../../operations/pickers';

/** One of the chosen client's contracts. */
export const clientContractPicker = idPicker({
	displayName: 'Contract',
	name: 'contractId',
	description:
		"The client's contract the quote belongs to: picked from the chosen client's contracts, or given by its UUID or by the external ID another system gave it",
	searchListMethod: 'searchClientContracts',
	recordName: 'contract',
	byExternalId: true,
});
