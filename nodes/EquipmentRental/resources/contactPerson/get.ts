import { contactPersonPicker } from './pickers';
import { contactPersonRead, contactPersonRecord } from './record';

// https://ram-api.syniotec.com/reference/clients: GET /clients/{clientId}/contact-persons/{id}
export const { option, fields } = contactPersonRead(
	'get',
	'Get',
	'Get a contact person',
	"Get one of a client's contact persons by ID or external ID",
	`${contactPersonRecord.collectionUrl}/{id}`,
	contactPersonPicker,
	'id',
	{ byPicker: true },
);
