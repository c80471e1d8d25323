import {
	booleanField,
	dateTimeField,
	jsonField,
	numberField,
	text,
	textListField,
	uuidField,
} from '../../operations/bodyFields';
import { EQUIPMENT, EQUIPMENTS_PATH } from '../../../shared/paths';
import type { RecordKind } from '../../writes/recordKind';
import { productReference } from '../product/record';
import { equipmentPicker } from './pickers';

// The equipments page (https://ram-api.syniotec.com/reference/equipments) shows no request body,
// only the equipment's model: its fields are offered but those the server sets (id, createdAt,
// updatedAt, organizationId, category, inventory, media, equipmentMedia). Its update is a PUT, and
// no page says whether it replaces the record: the node sends the record's own values of these
// fields under the changes (writes/recordRequests.ts, replacement), so that either way no field is lost.

const number = (name: string, displayName: string, description: string) =>
	numberField({ name, displayName, description });
const json = (name: string, displayName: string, description: string) =>
	jsonField({ name, displayName, description });

export const equipmentRecord: RecordKind = {
	resource: 'equipment',
	...EQUIPMENT,
	collectionUrl: EQUIPMENTS_PATH,
	recordPicker: equipmentPicker,
	updateMethod: 'PUT',
	// The page requires nothing; a piece of equipment is listed and picked by its title.
	requiredOnCreate: ['title'],
	fields: [
		text(
			'title',
			'Title',
			'The name of the piece of equipment',
			'e.g. Vibratory plate compactor 90 kg',
		),
		text('subtitle', 'Subtitle', 'A second line of its name'),
		text('invNumber', 'Inventory Number', 'Its inventory number', 'e.g. INV-10001'),
		text(
			'externalId',
			'External ID',
			'The ID another system (e.g. an ERP) gave it',
			'e.g. ERP-E-1042',
		),
		uuidField({
			name: 'categoryId',
			displayName: 'Category ID',
			description: 'UUID of its category',
		}),
		text(
			'modelId',
			'Model ID',
			'ID of its equipment model (Equipment Model > Get Many lists them)',
		),
		text('brandId', 'Brand ID', 'ID of its brand'),
		productReference('The product it is booked as'),
		text('parentId', 'Parent ID', 'ID of the piece of equipment it belongs to'),
		text('warehouseId', 'Warehouse ID', 'ID of the warehouse it is kept in'),
		text(
			'structureId',
			'Structure ID',
			'ID of the organisational structure (e.g. branch) it belongs to',
		),
		textListField({
			name: 'structureIds',
			displayName: 'Structure IDs',
			description: 'IDs of the structures it belongs to, separated by commas',
		}),
		number('year', 'Year', 'Year of manufacture, e.g. 2021'),
		number('month', 'Month', 'Month of manufacture, 1 to 12'),
		text('articleNr', 'Article Number', 'Article number'),
		text('serial_number', 'Serial Number', 'Serial number'),
		text('plateNumber', 'Plate Number', 'Licence plate number'),
		text('RFID', 'RFID', 'RFID tag'),
		text('trackingTag', 'Tracking Tag', 'Tracking tag'),
		text('beaconId', 'Beacon ID', 'ID of the beacon installed on it (e.g. a GPS tracker)'),
		text('beaconVendor', 'Beacon Vendor', 'Vendor of the beacon'),
		text('special_number', 'Special Number', 'Special number'),
		text('unique_equipment_id', 'Unique Equipment ID', 'Unique equipment ID'),
		text('bgl_number', 'BGL Number', 'BGL number (Baugeräteliste)'),
		text('quickCoupler', 'Quick Coupler', 'Its quick coupler'),
		text('productLine', 'Product Line', 'Product line'),
		text('responsible_person', 'Responsible Person', 'The person responsible for it'),
		number('weight', 'Weight', 'Weight'),
		number('operating_weight', 'Operating Weight', 'Operating weight'),
		number('operatingHoursTotal', 'Operating Hours Total', 'Operating hours in total'),
		number('workingHours', 'Working Hours', 'Working hours'),
		number('workingHoursPrice', 'Working Hours Price', 'Price per working hour'),
		text('calculating_criteria', 'Calculating Criteria', 'Calculating criteria'),
		json(
			'calculating_conditions',
			'Calculating Conditions',
			'Calculating conditions, a JSON object',
		),
		json('specifications', 'Specifications', 'Specifications, a JSON object'),
		json(
			'additional_specifications',
			'Additional Specifications',
			'Further specifications, a JSON object',
		),
		json('installation', 'Installation', 'Installation details, a JSON object'),
		dateTimeField({
			name: 'last_client_service',
			displayName: 'Last Client Service',
			description: 'When it was last serviced for a client',
		}),
		booleanField({ name: 'active', displayName: 'Active', description: 'Whether it is active' }),
		json('inactive', 'Inactive', 'Why and since when it is inactive, a JSON object'),
		booleanField({
			name: 'isSyncedLectura',
			displayName: 'Is Synced Lectura',
			description: 'Whether it is synchronised with Lectura',
		}),
	],
};
