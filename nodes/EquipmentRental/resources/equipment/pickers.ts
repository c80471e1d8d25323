import { idPicker } from '../../operations/pickers';

export const equipmentPicker = idPicker({
	displayName: 'Equipment',
	name: 'equipmentId',
	description:
		'The piece of equipment: picked from the list, or given by its ID or by the external ID another system gave it',
	searchListMethod: 'searchEquipment',
	recordName: 'piece of equipment',
	byExternalId: true,
});
