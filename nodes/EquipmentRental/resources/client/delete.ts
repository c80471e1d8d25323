import { deleteOperation } from '../../writes/delete';
import { clientRecord } from './record';

// https://ram-api.syniotec.com/reference/clients: DELETE /clients/{id}
export const { option, fields } = deleteOperation(clientRecord, 'Permanently delete a client');
