import type { IDataObject } from 'n8n-workflow';

import {
	additionalInformationField,
	booleanField,
	dateTimeField,
	numberField,
	optionsField,
	referenceField,
	text,
	withHint,
	withRequired,
} from '../../operations/bodyFields';
import { entriesField } from '../../operations/entryLists';
import type { ItemSender } from '../../engine/itemRequest';
import type { ItemParameters } from '../../../shared/parameters';
import { EXAMPLE_UUID } from '../../../shared/parameters';
import { BOOKINGS, BOOKINGS_PATH, EQUIPMENT, EQUIPMENTS_PATH } from '../../../shared/paths';
import { idPicker } from '../../operations/pickers';
import { recordAt } from '../../operations/references';
import type { RecordKind } from '../../writes/recordKind';
import { contractReference } from '../contract/record';
import { searchEquipment } from '../equipment/pickers';
import { periodTypeOptions, productReference } from '../product/record';
import { bookingId } from './get';

// The bodies of https://ram-api.syniotec.com/reference/create-booking and .../update-booking,
// field by field. The create page's example says "RESERVRD" where its body says RESERVED: the
// body's spelling is offered.

const startDate = dateTimeField({
	name: 'startDate',
	displayName: 'Start Date',
	description: 'When the booking starts',
});
const endDate = dateTimeField({
	name: 'endDate',
	displayName: 'End Date',
	description: 'When the booking ends',
});
// The entity booked is a piece of equipment or a person; only equipment has a list to pick from,
// and an external ID to be found by.
const entityId = referenceField(
	idPicker({
		displayName: 'Entity',
		name: 'entityId',
		description:
			'The piece of equipment (picked from the list, or by its ID or external ID) or the person (by ID) that is booked',
		search: searchEquipment,
		recordName: 'piece of equipment',
		byExternalId: true,
	}),
	EQUIPMENT,
	{ idIsUuid: true },
);
const productId = withHint(
	productReference('The product booked'),
	'Leave empty to book the product of the piece of equipment booked (its productId); the output then says productFromEquipment: true',
);
const contractId = contractReference('The contract the booking belongs to');
const status = optionsField(
	{
		name: 'status',
		displayName: 'Status',
		description: "The booking's status. Other values can be given by expression.",
	},
	[
		{ name: 'Reserved', value: 'RESERVED' },
		{ name: 'In Progress', value: 'IN_PROGRESS' },
	],
	{ open: true },
);
const periodType = optionsField(
	{
		name: 'periodType',
		displayName: 'Period Type',
		description: 'How the booking counts its days. Other values can be given by expression.',
	},
	periodTypeOptions,
	{ open: true },
);
const changePrice = booleanField({
	name: 'changePrice',
	displayName: 'Change Price',
	description: "Whether the booking's prices replace the product's",
});
const quantity = numberField(
	{
		name: 'quantity',
		displayName: 'Quantity',
		description: 'How many are booked; fractions are allowed, e.g. 5.5',
	},
	{ min: 0 },
);
const normalUsage = numberField(
	{
		name: 'normalUsage',
		displayName: 'Normal Usage',
		description: 'The usage included in the normal price, in Normal Usage Type units, e.g. 10',
	},
	{ min: 0 },
);
const normalUsageType = text(
	'normalUsageType',
	'Normal Usage Type',
	'The unit of Normal Usage, as the API names it',
	'e.g. DAY',
);
const normalPrice = numberField(
	{
		name: 'normalPrice',
		displayName: 'Normal Price',
		description: 'The price for the normal usage, e.g. 100.00',
	},
	{ min: 0 },
);
const exceptionalUsagePrice = numberField(
	{
		name: 'exceptionalUsagePrice',
		displayName: 'Exceptional Usage Price',
		description: 'The price for usage beyond the normal, e.g. 150.00',
	},
	{ min: 0 },
);
const externalId = text(
	'externalId',
	'External ID',
	'The ID another system (e.g. an ERP) gave the booking',
	'e.g. ERP-B-1042',
);
const pickUpAddress = text(
	'pickUpAddress',
	'Pick-Up Address',
	'Where the booked item is picked up',
);
const deliveryAddress = text(
	'deliveryAddress',
	'Delivery Address',
	'Where the booked item is delivered',
);
const selfPickUp = booleanField({
	name: 'selfPickUp',
	displayName: 'Self Pick-Up',
	description: 'Whether the client picks it up itself',
});

/** The fields both pages list. */
const onBothPages = [
	startDate,
	endDate,
	entityId,
	status,
	changePrice,
	normalUsage,
	normalPrice,
	exceptionalUsagePrice,
	periodType,
	normalUsageType,
	externalId,
	pickUpAddress,
	deliveryAddress,
	selfPickUp,
	quantity,
];

const attachedProducts = entriesField(
	{
		name: 'attachedProducts',
		displayName: 'Attached Products',
		description: 'Service products booked with it, e.g. delivery',
		entryName: 'attachedProduct',
		entryDisplayName: 'Attached Product',
		example: `[{"productId": "${EXAMPLE_UUID}", "quantity": 1, "price": 50}]`,
	},
	[
		withRequired(productReference('The attached product'), true),
		periodType,
		quantity,
		numberField(
			{ name: 'price', displayName: 'Price', description: 'The price per unit, e.g. 50.00' },
			{ min: 0 },
		),
		changePrice,
	],
);

/**
 * A booking whose Product the item leaves empty books the product of the piece of equipment booked,
 * which the equipment names (a chat names the equipment, not its product); an entity that is no
 * piece of equipment with a product (a person) fails the item, asking for the Product.
 */
async function productOfEquipment(
	body: IDataObject,
	item: ItemParameters,
	send: ItemSender,
): Promise<{ body: IDataObject; notes: IDataObject }> {
	if (body.productId !== undefined) return { body, notes: {} };
	const equipment = await recordAt(`${EQUIPMENTS_PATH}/{id}`, { id: String(body.entityId) }, send);
	const equipmentProduct = equipment?.productId;
	if (typeof equipmentProduct !== 'string' || equipmentProduct === '') {
		throw item.invalid(
			productId.property,
			'set: the entity booked is no piece of equipment with a product',
			undefined,
			`The API has ${equipment ? 'no product for the piece of equipment' : 'no piece of equipment'} with the ID ${String(body.entityId)} (a person, for one, has none). Give the Product.`,
		);
	}
	return { body: { ...body, productId: equipmentProduct }, notes: { productFromEquipment: true } };
}

export const bookingRecord: RecordKind = {
	resource: 'booking',
	...BOOKINGS,
	collectionUrl: BOOKINGS_PATH,
	recordPicker: bookingId,
	updateMethod: 'PATCH',
	requiredOnCreate: ['startDate', 'endDate', 'entityId', 'productId', 'contractId'],
	fillIn: { fields: ['productId'], complete: productOfEquipment },
	// The API gives a new booking a status, a quantity and a billing status.
	alwaysSet: ['status', 'quantity', 'billingStatus'],
	fields: [...onBothPages, productId, contractId, attachedProducts],
	// "All fields are optional. Only include the fields you want to update." The update page has no
	// product, contract or attached products, and adds billing status and additional information.
	updatableFields: [
		...onBothPages,
		additionalInformationField('booking'),
		text(
			'billingStatus',
			'Billing Status',
			'How far the booking is billed, as the API names it',
			'e.g. PARTIALLY_BILLED',
		),
	],
};
