import type { INodeProperties } from 'n8n-workflow';

import { EXAMPLE_UUID } from '../../shared/parameters';
import { BOOKINGS_PATH } from '../../shared/paths';
import { getRecordOperation } from '../../shared/recordOperations';

// The reference documents no list of bookings, so there is nothing to pick from.
export const bookingId: INodeProperties = {
	displayName: 'Booking ID',
	name: 'bookingId',
	type: 'string',
	required: true,
	default: '',
	placeholder: `e.g. ${EXAMPLE_UUID}`,
	description: 'The ID of the booking, e.g. from a contract (Contract > Get lists its bookings)',
};

// https://ram-api.syniotec.com/reference/bookings: GET /bookings/{id}
export const { option, fields } = getRecordOperation({
	resource: 'booking',
	value: 'get',
	name: 'Get',
	action: 'Get a booking',
	description: 'Get one booking by ID, with its releases',
	url: `${BOOKINGS_PATH}/{id}`,
	idField: bookingId,
});
