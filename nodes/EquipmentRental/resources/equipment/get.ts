import { EQUIPMENT, EQUIPMENTS_PATH } from '../../../shared/paths';
import { getRecordOperation } from '../../operations/recordOperations';
import { equipmentPicker } from './pickers';

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
