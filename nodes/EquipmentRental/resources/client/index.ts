import { resourceDescription } from '../../operations/recordOperations';
import * as create from './create';
import * as deleteClient from './delete';
import * as get from './get';
import * as getAll from './getAll';
import * as getByExternalId from './getByExternalId';
import * as update from './update';
import * as upsert from './upsert';

export const clientDescription = resourceDescription(
	'client',
	[create, upsert, deleteClient, get, getByExternalId, getAll, update],
	'get',
);
