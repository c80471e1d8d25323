import { idPicker } from '../../operations/pickers';

export const contactPersonPicker = idPicker({
	displayName: 'Contact Person',
	name: 'contactPersonId',
	description:
		"One of the client's contact persons: picked by name from the list, or given by its ID or by the external ID another system gave it",
	searchListMethod: 'searchContactPersons',
	recordName: 'contact person',
	byExternalId: true,
});
