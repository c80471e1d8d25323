import { resourceDescription } from '../../operations/recordOperations';
import * as create from './create';
import * as deleteBooking from './delete';
import * as get from './get';
import * as getByExternalId from './getByExternalId';
import * as update from './update';
import * as upsert from './upsert';

export const bookingDescription = resourceDescription(
	'booking',
	[create, upsert, deleteBooking, get, getByExternalId, update],
	'get',
);
