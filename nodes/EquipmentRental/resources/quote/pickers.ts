import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { CLIENTS, CONTRACTS_PATH } from '../../../shared/paths';
import { chooseFirst, chosenId, idPicker, searchPage } from '../../operations/pickers';
import { contractItem } from '../contract/pickers';

/** One of the chosen client's contracts. */
export const clientContractPicker = idPicker({
	displayName: 'Contract',
	name: 'contractId',
	description:
		"The client's contract the quote belongs to: picked from the chosen client's contracts, or given by its UUID or by the external ID another system gave it",
	search: searchClientContracts,
	recordName: 'contract',
	byExternalId: true,
});

/** The chosen client's contracts only. */
async function searchClientContracts(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) {
	const clientId = await chosenId(this, 'clientId', CLIENTS);
	if (!clientId) throw chooseFirst(this, 'client');
	return await searchPage(
		this,
		CONTRACTS_PATH,
		{ qs: { clientId }, filter, paginationToken },
		contractItem,
	);
}

export const quoteSearches = { searchClientContracts };
