import { updateOperation } from '../../writes/update';
import { contactPersonRecord } from './record';

// https://ram-api.syniotec.com/reference/clients: PATCH /clients/{clientId}/contact-persons/{id}
export const { option, fields } = updateOperation(
	contactPersonRecord,
	"Change fields of a client's contact person; fields not added under Update Fields stay as they are",
);
