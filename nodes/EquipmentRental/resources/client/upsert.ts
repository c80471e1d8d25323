import { upsertOperation } from '../../writes/upsert';
import { clientRecord } from './record';

// https://ram-api.syniotec.com/reference/clients: GET /clients/external-id/{externalId}, then
// PATCH /clients/{id} or POST /clients
export const { option, fields } = upsertOperation(
	clientRecord,
	'Create a client, or update the one with the same external ID (e.g. from an ERP): safe to run again',
);
