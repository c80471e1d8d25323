import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';

import { CONTRACTS_PATH } from '../../../shared/paths';
import { idPicker, listItem, nameWithNumber, searchPage } from '../../operations/pickers';

export const contractPicker = idPicker({
	displayName: 'Contract',
	name: 'contractId',
	description:
		'The contract: picked by title from the list, or given by its ID or by the external ID another system gave it',
	search: searchContracts,
	recordName: 'contract',
	byExternalId: true,
});

/** A contract as the pickers list it, by its title and number. */
export const contractItem = (contract: IDataObject) =>
	listItem(nameWithNumber(contract.title, contract.number, contract.id), contract.id);

export async function searchContracts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) {
	return await searchPage(this, CONTRACTS_PATH, { filter, paginationToken }, contractItem);
}

export const contractSearches = { searchContracts };
