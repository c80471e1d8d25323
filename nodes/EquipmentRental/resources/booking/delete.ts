import { deleteOperation } from '../../writes/delete';
import { bookingRecord } from './record';

// https://ram-api.syniotec.com/reference/bookings: DELETE /bookings/{id}
export const { option, fields } = deleteOperation(bookingRecord, 'Permanently delete a booking');
