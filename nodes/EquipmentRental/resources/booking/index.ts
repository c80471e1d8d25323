import { resourceDescription } from '../../shared/recordOperations';
import * as get from './get';
import * as getByExternalId from './getByExternalId';

export const bookingDescription = resourceDescription('booking', [get, getByExternalId], 'get');
