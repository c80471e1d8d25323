import { upsertOperation } from '../../writes/upsert';
import { contractRecord } from './record';

// https://ram-api.syniotec.com/reference/contracts: GET /contracts/external-id/{externalId}, then
// PATCH /contracts/{id} or POST /contracts
export const { option, fields } = upsertOperation(
	contractRecord,
	'Create a contract, or update the one with the same external ID (e.g. from an ERP): safe to run again',
);
