import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	additionalFieldsCollection,
	CALENDAR_DATE_FORMS,
	DATE_TIME_FORMS,
} from '../../../shared/descriptions';
import { runPerItem } from '../../engine/itemRouting';
import { lookupOf } from '../../engine/declaredRequest';
import { sendPrepared } from '../../engine/itemRequest';
import type { RecordReference } from '../../../shared/parameters';
import { EXAMPLE_UUID, withoutUnset } from '../../../shared/parameters';
import { CLIENTS, CONTRACTS } from '../../../shared/paths';
import { idOf } from '../../operations/references';
import { clientPicker } from '../client/pickers';
import { clientContractPicker } from './pickers';

const AMOUNT_MAX = 100_000_000;

const clientId = {
	...clientPicker,
	description:
		'The client the quote is for: picked by name from the list, or given by its UUID or by the external ID another system gave it',
};

const amount: INodeProperties = {
	displayName: 'Amount',
	name: 'amount',
	type: 'number',
	required: true,
	// No value until one is given: with a default of 0, an Amount never filled in would be sent as a
	// quote for 0 (n8n saves no parameter equal to its default, so 0 typed and 0 left alone look the
	// same when the node runs). Left empty, it stops the item before anything is sent.
	default: null,
	// No minValue/maxValue/numberPrecision: n8n's editor would clamp and round a typed amount when
	// the field loses focus, changing it without a word. The bound is checked when the node runs.
	placeholder: 'e.g. 1250.50',
	description:
		'Total amount of the quote as a number without currency sign, e.g. 1250.50; as text, written as Number Format says (e.g. 1.250,50). Sent as you give it, decimals included; more than 100,000,000 stops the item with an error.',
};

const bookingIds: INodeProperties = {
	displayName: 'Booking IDs',
	name: 'bookingIds',
	type: 'string',
	default: '',
	placeholder: `e.g. ${EXAMPLE_UUID}, ...`,
	description:
		"Identifiers of the bookings the quote covers, separated by commas (an array from an expression works too); the vendor's reference types them as text, in practice UUIDs",
};
const date: INodeProperties = {
	displayName: 'Date',
	name: 'date',
	type: 'dateTime',
	default: '',
	description: `Date of the quote. ${CALENDAR_DATE_FORMS}.`,
};
const deadline: INodeProperties = {
	displayName: 'Deadline',
	name: 'deadline',
	type: 'dateTime',
	default: '',
	description: `Deadline of the quote. ${CALENDAR_DATE_FORMS}.`,
};
const endDate: INodeProperties = {
	displayName: 'End Date',
	name: 'endDate',
	type: 'dateTime',
	default: '',
	description: `End of the period the quote covers. ${DATE_TIME_FORMS}.`,
};
const externalId: INodeProperties = {
	displayName: 'External ID',
	name: 'externalId',
	type: 'string',
	default: '',
	description: 'Identifier of the quote in another system, such as a CRM',
};
const mediaId: INodeProperties = {
	displayName: 'Media ID',
	name: 'mediaId',
	type: 'string',
	default: '',
	placeholder: `e.g. ${EXAMPLE_UUID}`,
	description: 'UUID of a media file to attach to the quote',
};
const mediaName: INodeProperties = {
	displayName: 'Media Name',
	name: 'mediaName',
	type: 'string',
	default: '',
	placeholder: 'e.g. quote.pdf',
	description: 'File name of the attached media',
};
const metadata: INodeProperties = {
	displayName: 'Metadata',
	name: 'metadata',
	type: 'json',
	default: '{}',
	description: 'Free-form JSON object stored with the quote, e.g. {"channel": "chat"}',
};
const quoteId: INodeProperties = {
	displayName: 'Quote ID',
	name: 'quoteId',
	type: 'string',
	default: '',
	placeholder: 'e.g. Q-2024-0042',
	description:
		'Business identifier of the quote, any text, e.g. a quote number from your own numbering',
};
const startDate: INodeProperties = {
	displayName: 'Start Date',
	name: 'startDate',
	type: 'dateTime',
	default: '',
	description: `Start of the period the quote covers. ${DATE_TIME_FORMS}.`,
};
const status: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'options',
	default: 'OPEN',
	options: [
		{ name: 'Open', value: 'OPEN' },
		{ name: 'Pending', value: 'PENDING' },
	],
	description: 'Status of the new quote; the API shows only these two values',
};

const additionalFields: INodeProperties = {
	...additionalFieldsCollection,
	options: [
		bookingIds,
		date,
		deadline,
		endDate,
		externalId,
		mediaId,
		mediaName,
		metadata,
		quoteId,
		startDate,
		status,
	],
};

/** A quote's request: its client and contract (by ID or external ID), then its body. */
interface QuoteParts {
	client: RecordReference;
	contract: RecordReference;
	body: IDataObject;
}

export const option: INodePropertyOptions = {
	name: 'Create',
	value: 'create',
	action: 'Create a quote',
	description:
		"Create a quote for a client and one of its contracts, for an amount. The client's and the contract's UUIDs come from Client > Get Many (search by name) and Contract > Get Many (by client).",
	routing: runPerItem(
		{
			method: 'POST',
			url: '/master-data/v1/quote-management/quotes',
			parts: (item): QuoteParts => ({
				client: item.reference(clientId, undefined, { idIsUuid: true }) as RecordReference,
				contract: item.reference(clientContractPicker, undefined, {
					idIsUuid: true,
				}) as RecordReference,
				body: withoutUnset({
					amount: item.number(amount, { max: AMOUNT_MAX }),
					quoteId: item.identifier(quoteId, additionalFields),
					metadata: item.jsonObject(metadata, additionalFields),
					date: item.calendarDate(date, additionalFields),
					deadline: item.calendarDate(deadline, additionalFields),
					mediaId: item.uuid(mediaId, additionalFields),
					mediaName: item.text(mediaName, additionalFields),
					status: item.text(status, additionalFields),
					bookingIds: item.identifierList(bookingIds, additionalFields),
					startDate: item.dateTime(startDate, additionalFields),
					endDate: item.dateTime(endDate, additionalFields),
					externalId: item.identifier(externalId, additionalFields),
				}),
			}),
			fieldsByApiName: {
				clientId,
				contractId: clientContractPicker,
				amount,
				quoteId,
				metadata,
				date,
				deadline,
				mediaId,
				mediaName,
				status,
				bookingIds,
				startDate,
				endDate,
				externalId,
			},
			lookups: [lookupOf(clientId, CLIENTS), lookupOf(clientContractPicker, CONTRACTS)],
		},
		{
			prepare: async ({ client, contract, body }, item, send) => ({
				body: {
					clientId: await idOf(client, CLIENTS, clientId, item, send),
					contractId: await idOf(contract, CONTRACTS, clientContractPicker, item, send),
					...body,
				},
			}),
			perform: sendPrepared,
		},
	),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['quote'], operation: ['create'] } },
	[clientId, clientContractPicker, amount, additionalFields],
);
