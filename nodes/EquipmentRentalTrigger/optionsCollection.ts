import type { INodeProperties } from 'n8n-workflow';

/** An event's "Options": settings whose defaults suit most workflows. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options,
	};
}
