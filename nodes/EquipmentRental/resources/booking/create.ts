import { createOperation } from '../../writes/create';
import { bookingRecord } from './record';

// https://ram-api.syniotec.com/reference/create-booking: POST /bookings
export const { option, fields } = createOperation(
	bookingRecord,
	'Book a piece of equipment or a person for a product of a contract, from a start to an end',
);
