import { updateOperation } from '../../writes/update';
import { clientRecord } from './record';

// https://ram-api.syniotec.com/reference/clients: PATCH /clients/{id}
export const { option, fields } = updateOperation(
	clientRecord,
	'Change fields of a client; fields not added under Update Fields stay as they are',
);
