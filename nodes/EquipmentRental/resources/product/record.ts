import type { BodyField } from '../../operations/bodyFields';
import { entriesField } from '../../operations/entryLists';
import {
	additionalInformationField,
	numberField,
	optionsField,
	referenceTo,
	textField,
} from '../../operations/bodyFields';
import { PRODUCTS, PRODUCTS_PATH } from '../../../shared/paths';
import type { RecordKind } from '../../writes/recordKind';
import { productPicker, searchProducts } from './pickers';

// The bodies of https://ram-api.syniotec.com/reference/create-product and .../update-product,
// field by field; the products page gives the types.

/** The product another record refers to. */
export const productReference = referenceTo(PRODUCTS, {
	displayName: 'Product',
	name: 'productId',
	search: searchProducts,
	listedBy: 'title',
});

/** The booking period types the reference shows (create-booking's examples). */
export const periodTypeOptions = [
	{ name: 'Calendar Days', value: 'CALENDAR_DAYS' },
	{ name: 'Working Days', value: 'WORKING_DAYS' },
];

const title = textField({
	name: 'title',
	displayName: 'Title',
	description: 'The name of the product',
	placeholder: 'e.g. Mini excavator 1.8 t',
});
const number = textField({
	name: 'number',
	displayName: 'Number',
	description: 'Catalogue or internal number (the API generates one when none is given)',
	placeholder: 'e.g. P-1042',
});
const externalId = textField({
	name: 'externalId',
	displayName: 'External ID',
	description: 'The ID another system (e.g. an ERP) gave the product',
	placeholder: 'e.g. ERP-P-1042',
});
const additionalInformation = additionalInformationField('product');
const defaultQuantity = numberField(
	{
		name: 'defaultQuantity',
		displayName: 'Default Quantity',
		description: 'The quantity a booking of the product starts with',
	},
	{ min: 0 },
);
const defaultPeriodType = optionsField(
	{
		name: 'defaultPeriodType',
		displayName: 'Default Period Type',
		description:
			'How a booking of the product counts its days. Other values can be given by expression.',
	},
	periodTypeOptions,
	{ open: true },
);
const type = optionsField(
	{
		name: 'type',
		displayName: 'Type',
		description:
			'A resource (equipment or a person) or a service (e.g. delivery); only services can be attached to other products',
	},
	[
		{ name: 'Resource', value: 'RESOURCE' },
		{ name: 'Service', value: 'SERVICE' },
	],
);
// An enum whose values the pages do not list (create-product's example sends DAYS).
const unitType = textField({
	name: 'unitType',
	displayName: 'Unit Type',
	description: 'The unit the product is measured in, as the API names it',
	placeholder: 'e.g. DAYS',
});
const priceList: BodyField = entriesField(
	{
		name: 'priceList',
		displayName: 'Price List',
		description: 'The price per unit from each quantity on, e.g. from 1: 100, from 3: 70',
		entryName: 'priceItem',
		entryDisplayName: 'Price Item',
		example: '[{"from": 1, "price": 100}, {"from": 3, "price": 70}]',
	},
	[
		numberField(
			{
				name: 'from',
				displayName: 'From Quantity',
				description: 'The quantity this price applies from, at least 1',
				required: true,
			},
			{ min: 1 },
		),
		numberField(
			{
				name: 'price',
				displayName: 'Price',
				description: 'The price per unit, at least 0',
				required: true,
			},
			{ min: 0 },
		),
	],
);

const updatable = [
	title,
	unitType,
	priceList,
	number,
	externalId,
	additionalInformation,
	defaultQuantity,
	defaultPeriodType,
];

export const productRecord: RecordKind = {
	resource: 'product',
	...PRODUCTS,
	collectionUrl: PRODUCTS_PATH,
	recordPicker: productPicker,
	updateMethod: 'PATCH',
	requiredOnCreate: ['title', 'type', 'unitType', 'priceList'],
	// The API numbers a record that is given none.
	alwaysSet: ['number'],
	// The update page has no type; its price list replaces the product's tiers.
	updatableFields: updatable,
	fields: [...updatable, type],
};
