import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';

import { CLIENTS_PATH } from '../../../shared/paths';
import { idPicker, listItem, nameWithNumber, searchPage } from '../../operations/pickers';

export const clientPicker = idPicker({
	displayName: 'Client',
	name: 'clientId',
	description:
		'The client: picked by name from the list, or given by its ID or by the external ID another system gave it',
	search: searchClients,
	recordName: 'client',
	byExternalId: true,
});

/** A client as the pickers list it, e.g. "Acme Construction (10042)". */
export function clientName(client: IDataObject): string {
	return nameWithNumber(client.name, client.number, client.id);
}

export async function searchClients(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) {
	return await searchPage(this, CLIENTS_PATH, { filter, paginationToken }, (client) =>
		listItem(clientName(client), client.id),
	);
}

export const clientSearches = { searchClients };
