import { updateOperation } from '../../writes/update';
import { contractRecord } from './record';

// https://ram-api.syniotec.com/reference/contracts: PATCH /contracts/{id}
export const { option, fields } = updateOperation(
	contractRecord,
	'Change fields of a contract; fields not added under Update Fields stay as they are',
);
