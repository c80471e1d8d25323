import { deleteOperation } from '../../writes/delete';
import { equipmentRecord } from './record';

// https://ram-api.syniotec.com/reference/equipments: DELETE /equipments/{id}
export const { option, fields } = deleteOperation(
	equipmentRecord,
	'Permanently delete a piece of equipment',
);
