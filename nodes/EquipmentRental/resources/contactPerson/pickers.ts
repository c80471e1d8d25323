import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { CLIENTS, CLIENTS_PATH } from '../../../shared/paths';
import { getFromApi } from '../../../shared/transport';
import {
	chooseFirst,
	chosenId,
	filtered,
	idPicker,
	listItem,
	nameWithNumber,
} from '../../operations/pickers';

export const contactPersonPicker = idPicker({
	displayName: 'Contact Person',
	name: 'contactPersonId',
	description:
		"One of the client's contact persons: picked by name from the list, or given by its ID or by the external ID another system gave it",
	search: searchContactPersons,
	recordName: 'contact person',
	byExternalId: true,
});

/** The chosen client's contact persons (an array: the reference shows no paging), by name. */
async function searchContactPersons(this: ILoadOptionsFunctions, filter?: string) {
	const clientId = await chosenId(this, 'clientId', CLIENTS);
	if (!clientId) throw chooseFirst(this, 'client');
	const persons = await getFromApi(
		this,
		`${CLIENTS_PATH}/${encodeURIComponent(clientId)}/contact-persons`,
		{},
		{ forPicker: true, pathHasIds: true },
	);
	return filtered(
		persons,
		(person) => listItem(nameWithNumber(person.name, person.jobTitle, person.id), person.id),
		filter,
	);
}

export const contactPersonSearches = { searchContactPersons };
