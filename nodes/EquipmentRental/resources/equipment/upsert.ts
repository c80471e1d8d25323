import { upsertOperation } from '../../writes/upsert';
import { equipmentRecord } from './record';

// https://ram-api.syniotec.com/reference/equipments: GET /equipments/external-id/{externalId},
// then PUT /equipments/{id} (over the record found) or POST /equipments
export const { option, fields } = upsertOperation(
	equipmentRecord,
	'Add a piece of equipment, or update the one with the same external ID (e.g. from an ERP): safe to run again',
);
