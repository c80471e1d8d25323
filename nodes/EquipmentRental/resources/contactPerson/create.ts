import { createOperation } from '../../writes/create';
import { contactPersonRecord } from './record';

// https://ram-api.syniotec.com/reference/create-contact-person: POST /clients/{clientId}/contact-persons
export const { option, fields } = createOperation(
	contactPersonRecord,
	'Add a contact person to a client',
);
