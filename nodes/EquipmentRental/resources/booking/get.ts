import type { INodeProperties } from 'n8n-workflow';

import { BOOKINGS, BOOKINGS_PATH } from '../../../shared/paths';
import { byIdMode, externalIdMode } from '../../operations/pickers';
import { getRecordOperation } from '../../operations/recordOperations';

// The reference documents no list of bookings, so there is nothing to pick from: a booking is given
// by its ID or by its external ID.
export const bookingId: INodeProperties = {
	displayName: 'Booking',
	name: 'bookingId',
	type: 'resourceLocator',
	required: true,
	default: { mode: 'id', value: '' },
	description:
		'The booking, given by its ID (e.g. from a contract: Contract > Get lists its bookings) or by the external ID another system gave it',
	modes: [byIdMode, externalIdMode],
};

// https://ram-api.syniotec.com/reference/bookings: GET /bookings/{id}
export const { option, fields } = getRecordOperation({
	resource: 'booking',
	value: 'get',
	name: 'Get',
	action: 'Get a booking',
	description: 'Get one booking by ID or external ID, with its releases',
	url: `${BOOKINGS_PATH}/{id}`,
	idField: bookingId,
	kind: BOOKINGS,
});
