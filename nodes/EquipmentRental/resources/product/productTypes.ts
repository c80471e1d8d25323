import type { INodePropertyOptions } from 'n8n-workflow';

/** Product types of the Integration API (spec 2.6). */
export const PRODUCT_TYPES = ['EQUIPMENT', 'INVENTORY', 'PERSON', 'SERVICE'] as const;

export const productTypeOptions: INodePropertyOptions[] = PRODUCT_TYPES.map((value) => ({
	name: value.charAt(0) + value.slice(1).toLowerCase(),
	value,
}));
