import type { BodyField } from '../../operations/bodyFields';
import { entriesField } from '../../operations/entryLists';
import {
	additionalInformationField,
	booleanField,
	emailField,
	numberField,
	optionsField,
	referenceTo,
	text,
	textField,
} from '../../operations/bodyFields';
import { CLIENTS, CLIENTS_PATH } from '../../../shared/paths';
import type { RecordKind } from '../../writes/recordKind';
import { clientPicker, searchClients } from './pickers';

// The body of https://ram-api.syniotec.com/reference/create-client, field by field; the clients
// page's model gives the types the create page leaves as "object" or "enum".

/** A contact person's fields (https://ram-api.syniotec.com/reference/create-contact-person). */
export const contactPersonFields: BodyField[] = [
	textField({
		name: 'name',
		displayName: 'Name',
		description: 'Full name of the contact person',
		placeholder: 'e.g. John Smith',
		required: true,
	}),
	booleanField({
		name: 'isMain',
		displayName: 'Is Main',
		description: "Whether this is the client's main contact person",
		required: true,
	}),
	text('jobTitle', 'Job Title', 'Job title, e.g. Project Manager'),
	text('department', 'Department', 'Department, e.g. Operations'),
	emailField({ name: 'email', displayName: 'Email', description: 'Email address' }),
	text('phone', 'Phone', 'Phone number', 'e.g. +49 30 1234567'),
	text('mobile', 'Mobile', 'Mobile phone number', 'e.g. +49 170 1234567'),
	text(
		'externalId',
		'External ID',
		'The ID another system (e.g. a CRM) gave the contact person',
		'e.g. CRM-C-1042',
	),
];

/** The client another record refers to. */
export const clientReference = referenceTo(CLIENTS, {
	displayName: 'Client',
	name: 'clientId',
	search: searchClients,
	listedBy: 'name',
});

const clientFields: BodyField[] = [
	text('name', 'Name', "The client's name", 'e.g. Acme Construction'),
	text(
		'number',
		'Number',
		"The client's number (the reference's create page types it as text)",
		'e.g. 10042',
	),
	text(
		'externalId',
		'External ID',
		'The ID another system (e.g. an ERP) gave the client',
		'e.g. ERP-10042',
	),
	optionsField(
		{
			name: 'status',
			displayName: 'Status',
			description: "The client's status. Other values can be given by expression.",
		},
		[
			{ name: 'Active', value: 'ACTIVE' },
			{ name: 'Inactive', value: 'INACTIVE' },
		],
		{ open: true },
	),
	optionsField(
		{
			name: 'partnerType',
			displayName: 'Partner Type',
			description: 'The kind of partner. Other values can be given by expression.',
		},
		[
			{ name: 'Industry', value: 'INDUSTRY' },
			{ name: 'Craft', value: 'CRAFT' },
			{ name: 'Public', value: 'PUBLIC' },
		],
		{ open: true },
	),
	text('longName', 'Long Name', "The client's full legal name"),
	text('creditworthiness', 'Creditworthiness', 'Credit rating, as the API names it'),
	numberField(
		{ name: 'creditLimit', displayName: 'Credit Limit', description: 'Credit limit, an amount' },
		{ min: 0 },
	),
	numberField(
		{
			name: 'usedLimit',
			displayName: 'Used Limit',
			description: 'Part of the credit limit in use, an amount',
		},
		{ min: 0 },
	),
	numberField(
		{
			name: 'paymentTerms',
			displayName: 'Payment Terms',
			description: 'Payment terms, e.g. days until payment is due',
		},
		{ min: 0 },
	),
	text('pricing', 'Pricing', 'Pricing information'),
	booleanField({
		name: 'frameContract',
		displayName: 'Frame Contract',
		description: 'Whether the client has a frame contract',
	}),
	booleanField({
		name: 'selfInsurance',
		displayName: 'Self Insurance',
		description: 'Whether the client insures the equipment itself',
	}),
	text(
		'structureId',
		'Structure ID',
		'The ID of the organisational structure (e.g. branch) the client belongs to',
	),
	text('street', 'Street', 'Street'),
	text('streetAndNumber', 'Street and Number', 'Street and house number', 'e.g. Hauptstraße 1'),
	text('postalCode', 'Postal Code', 'Postal code', 'e.g. 10115'),
	text('city', 'City', 'City', 'e.g. Berlin'),
	text('country', 'Country', 'Country', 'e.g. Germany'),
	text('phone', 'Phone', 'Phone number', 'e.g. +49 30 1234567'),
	text('fax', 'Fax', 'Fax number'),
	emailField({ name: 'email', displayName: 'Email', description: 'Email address' }),
	text('website', 'Website', 'Website', 'e.g. https://example.com'),
	additionalInformationField('client'),
];

const contactPersons = entriesField(
	{
		name: 'contactPersons',
		displayName: 'Contact Persons',
		description: 'Contact persons created with the client',
		entryName: 'contactPerson',
		entryDisplayName: 'Contact Person',
		example: '[{"name": "Jane Doe", "isMain": true, "email": "jane.doe@example.com"}]',
	},
	contactPersonFields,
);

export const clientRecord: RecordKind = {
	resource: 'client',
	...CLIENTS,
	collectionUrl: CLIENTS_PATH,
	recordPicker: clientPicker,
	updateMethod: 'PATCH',
	requiredOnCreate: ['name'],
	// The API numbers a record that is given none.
	alwaysSet: ['number'],
	fields: [...clientFields, contactPersons],
	// Contact persons change through their own operations (the Contact Person resource).
	updatableFields: clientFields,
};
