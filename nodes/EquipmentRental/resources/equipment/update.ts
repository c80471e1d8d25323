import { updateOperation } from '../../writes/update';
import { equipmentRecord } from './record';

// https://ram-api.syniotec.com/reference/equipments: PUT /equipments/{id}, which may replace the
// record: the node reads it first and sends its fields with the changes over them.
export const { option, fields } = updateOperation(
	equipmentRecord,
	'Change fields of a piece of equipment; its other fields keep their values',
);
