import { upsertOperation } from '../../writes/upsert';
import { bookingRecord } from './record';

// https://ram-api.syniotec.com/reference/get-booking-by-external-id, then PATCH /bookings/{id}
// (update-booking) or POST /bookings (create-booking)
export const { option, fields } = upsertOperation(
	bookingRecord,
	'Create a booking, or update the one with the same external ID (e.g. from an ERP): safe to run again',
);
