import { resourceDescription } from '../../shared/recordOperations';
import * as get from './get';
import * as getAll from './getAll';
import * as getByExternalId from './getByExternalId';

export const clientDescription = resourceDescription(
	'client',
	[get, getByExternalId, getAll],
	'get',
);
