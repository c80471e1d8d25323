import { BOOKINGS_PATH } from '../../../shared/paths';
import { externalIdField, getRecordOperation } from '../../operations/recordOperations';

// https://ram-api.syniotec.com/reference/get-booking-by-external-id
export const { option, fields } = getRecordOperation({
	resource: 'booking',
	value: 'getByExternalId',
	name: 'Get by External ID',
	action: 'Get a booking by external ID',
	description: 'Get one booking, with its releases, by the ID another system gave it',
	url: `${BOOKINGS_PATH}/external-id/{externalId}`,
	idField: externalIdField,
});
