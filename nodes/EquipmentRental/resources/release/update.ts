import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { DATE_TIME_FORMS, updateFieldsCollection } from '../../../shared/descriptions';
import { requestPerItem } from '../../engine/itemRouting';
import { EXAMPLE_UUID, withoutUnset } from '../../../shared/parameters';
import { byIdMode, externalIdMode } from '../../operations/pickers';
import { releasePicker } from './pickers';

/**
 * The booking whose releases Release's list shows (the reference has no release list: a booking
 * embeds its releases, https://ram-api.syniotec.com/reference/bookings). Only read by that list,
 * never sent.
 */
const bookingForList: INodeProperties = {
	displayName: 'Booking (to List Its Releases)',
	name: 'booking',
	type: 'resourceLocator',
	default: { mode: 'id', value: '' },
	description:
		"The booking whose releases Release's list shows, by its ID or external ID. Only used for that list; not sent.",
	modes: [byIdMode, externalIdMode],
};

const bookingId: INodeProperties = {
	displayName: 'Booking ID',
	name: 'bookingId',
	type: 'string',
	default: '',
	placeholder: `e.g. ${EXAMPLE_UUID}`,
	description:
		"Identifier of the booking the release belongs to (the vendor's reference types it as text; in practice a UUID)",
};
const endDate: INodeProperties = {
	displayName: 'End Date',
	name: 'endDate',
	type: 'dateTime',
	default: '',
	description: `End of the release. ${DATE_TIME_FORMS}.`,
};
const externalId: INodeProperties = {
	displayName: 'External ID',
	name: 'externalId',
	type: 'string',
	default: '',
	description: 'Identifier of the release in another system',
};
const percentage: INodeProperties = {
	displayName: 'Percentage',
	name: 'percentage',
	type: 'number',
	default: 0,
	description:
		'Percentage of the release, a number (the API does not document its range or meaning further)',
};
const quantity: INodeProperties = {
	displayName: 'Quantity',
	name: 'quantity',
	type: 'number',
	default: 0,
	description: 'Quantity released, a number, sent as you give it; fractions are allowed, e.g. 2.5',
};
const reason: INodeProperties = {
	displayName: 'Reason',
	name: 'reason',
	type: 'string',
	default: '',
	description: 'Why the release was made or changed',
};
const startDate: INodeProperties = {
	displayName: 'Start Date',
	name: 'startDate',
	type: 'dateTime',
	default: '',
	description: `Start of the release. ${DATE_TIME_FORMS}.`,
};

const updateFields: INodeProperties = {
	...updateFieldsCollection,
	options: [bookingId, endDate, externalId, percentage, quantity, reason, startDate],
};

export const option: INodePropertyOptions = {
	name: 'Update',
	value: 'update',
	action: 'Update a release',
	description:
		'Change fields of a release of a booking; fields not added under Update Fields stay as they are',
	routing: requestPerItem({
		method: 'PATCH',
		url: '/master-data/v1/booking-management/releases/{id}',
		parts: (item) => {
			const id = item.identifier(releasePicker) as string;
			const body = withoutUnset({
				startDate: item.dateTime(startDate, updateFields),
				endDate: item.dateTime(endDate, updateFields),
				bookingId: item.identifier(bookingId, updateFields),
				percentage: item.number(percentage, {}, updateFields),
				quantity: item.number(quantity, {}, updateFields),
				reason: item.text(reason, updateFields),
				externalId: item.identifier(externalId, updateFields),
			});
			if (Object.keys(body).length === 0) {
				throw item.invalid(
					updateFields,
					'given at least one field to change',
					undefined,
					'Add a field under Update Fields.',
				);
			}
			return { path: { id }, body };
		},
		fieldsByApiName: {
			id: releasePicker,
			startDate,
			endDate,
			bookingId,
			percentage,
			quantity,
			reason,
			externalId,
		},
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['release'], operation: ['update'] } },
	[bookingForList, releasePicker, updateFields],
);
