import { deleteOperation } from '../../writes/delete';
import { contractRecord } from './record';

// https://ram-api.syniotec.com/reference/contracts: DELETE /contracts/{id}
export const { option, fields } = deleteOperation(contractRecord, 'Permanently delete a contract');
