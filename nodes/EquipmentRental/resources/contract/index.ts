import { resourceDescription } from '../../operations/recordOperations';
import * as create from './create';
import * as deleteContract from './delete';
import * as get from './get';
import * as getAll from './getAll';
import * as getByExternalId from './getByExternalId';
import * as update from './update';
import * as upsert from './upsert';

export const contractDescription = resourceDescription(
	'contract',
	[create, upsert, deleteContract, get, getByExternalId, getAll, update],
	'get',
);
