import {
	additionalInformationField,
	booleanField,
	dateTimeField,
	emailField,
	numberField,
	objectField,
	referenceTo,
	text,
	uuidField,
} from '../../operations/bodyFields';
import { CONTRACTS, CONTRACTS_PATH } from '../../../shared/paths';
import type { RecordKind } from '../../writes/recordKind';
import { clientReference } from '../client/record';
import { contractPicker, searchContracts } from './pickers';

// The body of https://ram-api.syniotec.com/reference/create-contract, field by field. The page's
// body lists `contractPosition` where the contract's model (the contracts page) has
// `contactPosition`, beside contactName, contactPhone and contactEmail: the body's name is sent (a
// server that checks bodies against its create page takes it), shown as Contact Position, and the
// model's name is the one compared and output (the contracts page's records carry it).

/** The contract another record refers to. */
export const contractReference = referenceTo(CONTRACTS, {
	displayName: 'Contract',
	name: 'contractId',
	search: searchContracts,
	listedBy: 'title',
});

export const contractRecord: RecordKind = {
	resource: 'contract',
	...CONTRACTS,
	collectionUrl: CONTRACTS_PATH,
	recordPicker: contractPicker,
	updateMethod: 'PATCH',
	requiredOnCreate: ['clientId', 'startDate', 'endDate', 'structureId'],
	// The API numbers a record that is given none.
	alwaysSet: ['number'],
	fields: [
		clientReference('The client the contract is with'),
		dateTimeField({
			name: 'startDate',
			displayName: 'Start Date',
			description: 'When the contract begins',
		}),
		dateTimeField({
			name: 'endDate',
			displayName: 'End Date',
			description: 'When the contract ends',
		}),
		uuidField({
			name: 'structureId',
			displayName: 'Structure ID',
			description: 'UUID of the organisational structure (e.g. branch) the contract belongs to',
		}),
		text('title', 'Title', 'A short title of the contract', 'e.g. Berlin Hauptbahnhof site'),
		text(
			'number',
			'Number',
			"The contract's reference number (the API generates one when none is given)",
		),
		text(
			'externalId',
			'External ID',
			'The ID another system (e.g. an ERP) gave the contract',
			'e.g. ERP-K-2042',
		),
		text('constructionName', 'Construction Name', 'Name of the construction site'),
		text('street', 'Street', 'Street of the site'),
		text('zipCode', 'Zip Code', 'Postal code of the site', 'e.g. 10557'),
		text('city', 'City', 'City of the site', 'e.g. Berlin'),
		text('country', 'Country', 'Country of the site', 'e.g. Germany'),
		objectField(
			{
				name: 'point',
				displayName: 'Location',
				description: 'Coordinates of the site',
				entryName: 'coordinates',
				entryDisplayName: 'Coordinates',
			},
			[
				numberField(
					{
						name: 'lat',
						displayName: 'Latitude',
						description: 'Latitude, e.g. 52.5251',
						required: true,
					},
					{ min: -90, max: 90 },
				),
				numberField(
					{
						name: 'lng',
						displayName: 'Longitude',
						description: 'Longitude, e.g. 13.3694',
						required: true,
					},
					{ min: -180, max: 180 },
				),
			],
		),
		text('pickUpAddress', 'Pick-Up Address', 'Where the equipment is picked up'),
		text('deliveryAddress', 'Delivery Address', 'Where the equipment is delivered'),
		booleanField({
			name: 'selfPickUp',
			displayName: 'Self Pick-Up',
			description: 'Whether the client picks the equipment up itself',
		}),
		text('contactName', 'Contact Name', 'Name of the contact person on site'),
		{
			...text(
				'contractPosition',
				'Contact Position',
				"The on-site contact's position (sent as the create page's contractPosition; the contract shows it as contactPosition)",
			),
			readBackAs: 'contactPosition',
		},
		text('contactPhone', 'Contact Phone', "The on-site contact's phone number"),
		emailField({
			name: 'contactEmail',
			displayName: 'Contact Email',
			description: "The on-site contact's email address",
		}),
		additionalInformationField('contract'),
	],
};
