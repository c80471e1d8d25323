import { createOperation } from '../../writes/create';
import { contractRecord } from './record';

// https://ram-api.syniotec.com/reference/create-contract: POST /contracts
export const { option, fields } = createOperation(
	contractRecord,
	'Create a contract for a client, from its start to its end',
);
