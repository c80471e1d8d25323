import { upsertOperation } from '../../writes/upsert';
import { contactPersonRecord } from './record';

// https://ram-api.syniotec.com/reference/clients: GET .../contact-persons/external-id/{externalId},
// then PATCH .../contact-persons/{id} or POST .../contact-persons
export const { option, fields } = upsertOperation(
	contactPersonRecord,
	"Add a contact person to a client, or update the client's one with the same external ID (e.g. from a CRM): safe to run again",
);
