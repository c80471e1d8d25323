import { updateOperation } from '../../writes/update';
import { bookingRecord } from './record';

// https://ram-api.syniotec.com/reference/update-booking: PATCH /bookings/{id}
export const { option, fields } = updateOperation(
	bookingRecord,
	'Change fields of a booking; fields not added under Update Fields stay as they are',
);
