import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { bookingDescription } from './resources/booking';
import { clientDescription } from './resources/client';
import { clientSearches } from './resources/client/pickers';
import { contactPersonDescription } from './resources/contactPerson';
import { contactPersonSearches } from './resources/contactPerson/pickers';
import { contractDescription } from './resources/contract';
import { contractSearches } from './resources/contract/pickers';
import { equipmentDescription } from './resources/equipment';
import { equipmentSearches } from './resources/equipment/pickers';
import { equipmentDistanceDescription } from './resources/equipmentDistance';
import { equipmentModelDescription } from './resources/equipmentModel';
import { equipmentUsageDescription } from './resources/equipmentUsage';
import { equipmentWorkingHoursDescription } from './resources/equipmentWorkingHours';
import { inventoryDescription } from './resources/inventory';
import { productDescription } from './resources/product';
import { productSearches } from './resources/product/pickers';
import { quoteDescription } from './resources/quote';
import { quoteSearches } from './resources/quote/pickers';
import { releaseDescription } from './resources/release';
import { releaseSearches } from './resources/release/pickers';
import { apiRequestOptions } from '../shared/apiRequestOptions';
import { resourceField } from '../shared/descriptions';
import { numberFormatFields } from '../shared/numberFormats';
import { NODE_VERSIONS, withVersion1TextFields } from './engine/nodeVersions';
import { requestOptionsProperty } from '../shared/requestOptionFields';
import { mergeSameNamedProperties } from './engine/sameNamedProperties';
import { actionSubtitle } from '../shared/subtitles';
import { toolDescriptionFields } from './engine/toolDescriptions';

const operationProperties: INodeProperties[] = [
	resourceField,
	...bookingDescription,
	...clientDescription,
	...contactPersonDescription,
	...contractDescription,
	...equipmentDescription,
	...equipmentDistanceDescription,
	...equipmentModelDescription,
	...equipmentUsageDescription,
	...equipmentWorkingHoursDescription,
	...inventoryDescription,
	...productDescription,
	...quoteDescription,
	...releaseDescription,
];

const properties: INodeProperties[] = [
	...operationProperties,
	...numberFormatFields(operationProperties),
	requestOptionsProperty,
];

// Merged once; each node gets its own list, since n8n's loader adds its Request Options into it.
// The tool's description comes first, where n8n puts its own on other tools.
const nodeProperties = [
	...toolDescriptionFields('Equipment Rental', properties),
	...mergeSameNamedProperties(withVersion1TextFields(properties)),
];

export class EquipmentRental implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Equipment Rental',
		name: 'equipmentRental',
		icon: { light: 'file:equipmentRental.svg', dark: 'file:equipmentRental.dark.svg' },
		group: ['transform'],
		// 1: IDs as text, as 0.2.0 saved them; 1.1: pickers (see engine/nodeVersions.ts).
		version: NODE_VERSIONS,
		subtitle: actionSubtitle(properties),
		description:
			'Create quotes, manage product price lists, releases and inventories, and read clients, contracts, products, bookings, equipment and its daily distance, usage and working hours of an equipment-rental business',
		// Used as it is by the editor's Docs link; the codex's link gets n8n's "?utm_..." query
		// appended, which would break a #fragment.
		documentationUrl: 'https://github.com/equipment-rental/n8n-nodes-equipment-rental#operations',
		defaults: { name: 'Equipment Rental' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'equipmentRentalApi', required: true }],
		// The Base URL is the credential's, set per run (engine/itemRouting.ts).
		requestDefaults: apiRequestOptions(),
		properties: [...nodeProperties],
	};

	// The pickers' lists, each under its function's name, which its field gives n8n.
	methods = {
		listSearch: {
			...clientSearches,
			...contactPersonSearches,
			...contractSearches,
			...equipmentSearches,
			...productSearches,
			...quoteSearches,
			...releaseSearches,
		},
	};
}
