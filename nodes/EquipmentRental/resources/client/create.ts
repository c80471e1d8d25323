import { createOperation } from '../../writes/create';
import { clientRecord } from './record';

// https://ram-api.syniotec.com/reference/create-client: POST /clients
export const { option, fields } = createOperation(
	clientRecord,
	'Create a client, optionally with its contact persons',
);
