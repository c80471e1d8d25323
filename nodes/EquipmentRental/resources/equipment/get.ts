import { EQUIPMENT, EQUIPMENTS_PATH } from '../../shared/paths';
import { idPicker } from '../../shared/pickers';
import { getRecordOperation } from '../../shared/recordOperations';

export const equipmentPicker = idPicker({
	displayName: 'Equipment',
	name: 'equipmentId',
	description:
		'The piece of equipment: picked from the list, or given by its ID or by the external ID another system gave it',
	searchListMethod: 'searchEquipment',
	recordName: 'piece of equipment',
	byExternalId: true,
});

// https://ram-api.syniotec.com/reference/equipments: GET /equipments/{id}
export const { option, fields } = getRecordOperation({
	resource: 'equipment',
	value: 'get',
	name: 'Get',
	action: 'Get a piece of equipment',
	description:
		'Get one piece of equipment by ID or external ID, with its model, brand and inventory number',
	url: `${EQUIPMENTS_PATH}/{id}`,
	idField: equipmentPicker,
	kind: EQUIPMENT,
});
