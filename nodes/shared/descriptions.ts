import type { INodeProperties } from 'n8n-workflow';

import { EXAMPLE_UUID, FILTERS_COLLECTION_NAME } from './parameters';

/** The node's Resource selector: the kinds of record and report its operations are about. */
export const resourceField: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Booking', value: 'booking' },
		{ name: 'Client', value: 'client' },
		{ name: 'Contact Person', value: 'contactPerson' },
		{ name: 'Contract', value: 'contract' },
		{ name: 'Equipment', value: 'equipment' },
		{ name: 'Equipment Distance', value: 'equipmentDistance' },
		{ name: 'Equipment Model', value: 'equipmentModel' },
		{ name: 'Equipment Usage', value: 'equipmentUsage' },
		{ name: 'Equipment Working Time', value: 'equipmentWorkingHours' },
		{ name: 'Inventory', value: 'inventory' },
		{ name: 'Product', value: 'product' },
		{ name: 'Quote', value: 'quote' },
		{ name: 'Release', value: 'release' },
	],
	default: 'quote',
};

/** A collection of a form's optional fields; each operation sets its own options. */
function fieldsCollection(displayName: string, name: string): INodeProperties {
	return {
		displayName,
		name,
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [],
	};
}

/** A create's optional fields. */
export const additionalFieldsCollection = fieldsCollection('Additional Fields', 'additionalFields');

/** An update's fields: only those added are sent. */
export const updateFieldsCollection: INodeProperties = {
	...fieldsCollection('Update Fields', 'updateFields'),
	description:
		'Only the fields added here are sent and changed; Empty Values says what one does whose value comes out empty',
};

/** The Filters collection of a list; each list sets its own options. */
export const filtersCollection: INodeProperties = {
	displayName: 'Filters',
	name: FILTERS_COLLECTION_NAME,
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [],
};

// Filters of equipment models shared by Get Many equipment models and the trigger's model event.

export const brandId: INodeProperties = {
	displayName: 'Brand ID',
	name: 'brandId',
	type: 'string',
	default: '',
	placeholder: `e.g. ${EXAMPLE_UUID}`,
	description: 'Only models of the brand with this UUID',
};

export const search: INodeProperties = {
	displayName: 'Search',
	name: 'search',
	type: 'string',
	default: '',
	placeholder: 'e.g. excavator',
	description: 'Only the models whose name contains this text, ignoring case',
};

// What the date fields take (ItemParameters.calendarDate and dateTime), for their descriptions: the
// forms sheets and n8n's expressions give, and how a value without an offset is read.

/** The end of a date-and-time field's description, before its final period. */
export const DATE_TIME_FORMS =
	"E.g. 2024-06-01 08:00 (as sheets write it), 2024-06-01T08:00:00Z or {{ $now }}. Without an offset it is read in the workflow's timezone, a date alone as 00:00 that day; sent in UTC";

/** The end of a calendar-date field's description, before its final period. */
export const CALENDAR_DATE_FORMS =
	"E.g. 2024-06-01, or a date and time (2024-06-01 08:00, {{ $today }}), which counts as its day in the workflow's timezone; sent as YYYY-MM-DD";
