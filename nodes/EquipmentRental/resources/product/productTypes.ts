import type { INodePropertyOptions } from 'n8n-workflow';

const REFERENCE = "the vendor's reference";
const DESCRIPTION = 'the API description';

/**
 * The product types both sources name: the vendor's reference gives a product's type as RESOURCE
 * or SERVICE (https://ram-api.syniotec.com/reference/products), the API description lists
 * EQUIPMENT, PERSON, SERVICE and INVENTORY for the price-list filter (part 2.6). Neither says which
 * the filter takes, so both are offered, each with its source, and a value given by expression is
 * sent as it is, for the API to decide.
 */
export const productTypeOptions: INodePropertyOptions[] = [
	{ name: 'Equipment', value: 'EQUIPMENT', description: `From ${DESCRIPTION}` },
	{ name: 'Inventory', value: 'INVENTORY', description: `From ${DESCRIPTION}` },
	{ name: 'Person', value: 'PERSON', description: `From ${DESCRIPTION}` },
	{
		name: 'Resource',
		value: 'RESOURCE',
		description: `From ${REFERENCE}: every product that is not a service`,
	},
	{ name: 'Service', value: 'SERVICE', description: `From both ${REFERENCE} and ${DESCRIPTION}` },
];
