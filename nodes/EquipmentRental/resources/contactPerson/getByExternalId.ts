import { externalIdField } from '../../operations/recordOperations';
import { contactPersonRead, contactPersonRecord } from './record';

// https://ram-api.syniotec.com/reference/clients: GET /clients/{clientId}/contact-persons/external-id/{externalId}
export const { option, fields } = contactPersonRead(
	'getByExternalId',
	'Get by External ID',
	'Get a contact person by external ID',
	"Get one of a client's contact persons by the ID another system gave it",
	contactPersonRecord.externalIdUrl,
	externalIdField,
	'externalId',
);
