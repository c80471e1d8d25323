import { resourceDescription } from '../../shared/recordOperations';
import * as get from './get';
import * as getAll from './getAll';
import * as getByExternalId from './getByExternalId';

export const contractDescription = resourceDescription(
	'contract',
	[get, getByExternalId, getAll],
	'get',
);
