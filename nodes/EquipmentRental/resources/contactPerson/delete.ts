import { deleteOperation } from '../../writes/delete';
import { contactPersonRecord } from './record';

// https://ram-api.syniotec.com/reference/clients: DELETE /clients/{clientId}/contact-persons/{id}
export const { option, fields } = deleteOperation(
	contactPersonRecord,
	"Permanently delete a client's contact person",
);
