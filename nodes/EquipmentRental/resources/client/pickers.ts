import { idPicker } from '../../operations/pickers';

export const clientPicker = idPicker({
	displayName: 'Client',
	name: 'clientId',
	description:
		'The client: picked by name from the list, or given by its ID or by the external ID another system gave it',
	searchListMethod: 'searchClients',
	recordName: 'client',
	byExternalId: true,
});
