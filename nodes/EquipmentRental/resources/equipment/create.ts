import { createOperation } from '../../writes/create';
import { equipmentRecord } from './record';

// https://ram-api.syniotec.com/reference/equipments: POST /equipments
export const { option, fields } = createOperation(
	equipmentRecord,
	'Add a piece of equipment to the fleet',
);
