import type { INodeProperties } from 'n8n-workflow';

import { EXAMPLE_UUID } from '../../shared/parameters';

/**
 * The node's versions. Version 1 is the node as 0.2.0 of this package saved it: the ID fields below
 * were plain text. From version 1.1 they are pickers (n8n's resource locator), whose value is an
 * object (`{ __rl, mode, value }`).
 *
 * n8n's editor never converts a saved value: a picker that holds a plain text shows an empty "Mode..."
 * selector beside it (its "legacy mode") and does not recognise `$fromAI(...)` in it, so an AI tool
 * saved by 0.2.0 would show the raw expression instead of "Defined automatically by the model"
 * (editor-ui ResourceLocator.vue, which reads the mode and the override from `value.mode` and
 * `value.value`). What n8n offers instead is versions: a node keeps the version it was saved with and
 * the editor shows the fields of that version, while a node added now gets the newest (n8n 1.85 to
 * 2.41). What this room does: the operations declare only the pickers; withVersion1TextFields adds
 * the text fields of version 1 beside them, for the description n8n loads.
 */
export const NODE_VERSIONS = [1, 1.1];
export const PICKERS_SINCE = 1.1;
/** The version of a node added now (n8n's editor takes the newest). */
export const CURRENT_VERSION = NODE_VERSIONS[NODE_VERSIONS.length - 1];

/** The fields 0.2.0 took as plain text that are pickers from version 1.1: resource > operation > names. */
const TEXT_IN_VERSION_1: Record<string, Record<string, string[]>> = {
	quote: { create: ['clientId', 'contractId'] },
	product: {
		getCustomPriceList: ['customPriceId'],
		updatePriceItem: ['productId', 'priceId'],
		attach: ['productId', 'serviceProductId'],
	},
	release: { update: ['releaseId'] },
};

function wasTextInVersion1(property: INodeProperties): boolean {
	const show = property.displayOptions?.show;
	const resources = (show?.resource ?? []) as string[];
	const operations = (show?.operation ?? []) as string[];
	const matches = resources.flatMap((resource) =>
		operations.map((operation) =>
			(TEXT_IN_VERSION_1[resource]?.[operation] ?? []).includes(property.name),
		),
	);
	if (matches.some(Boolean) && !matches.every(Boolean))
		throw new Error(`${property.name}: shown for operations of different versions`);
	return property.type === 'resourceLocator' && matches.length > 0 && matches.every(Boolean);
}

/** The property shown only for these node versions (its other display conditions kept). */
function onVersions(property: INodeProperties, versions: unknown[]): INodeProperties {
	return {
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, '@version': versions as number[] },
		},
	};
}

/** The text field version 1 shows where version 1.1 has a picker: same name, label and rules. */
function textField(picker: INodeProperties): INodeProperties {
	const { modes, ...rest } = picker;
	const byId = modes?.find((mode) => mode.name === 'id');
	return {
		...rest,
		type: 'string',
		default: '',
		placeholder: byId?.placeholder ?? `e.g. ${EXAMPLE_UUID}`,
		description: `The ${picker.displayName.toLowerCase()}'s ID. This node was added with version 0.2.0 of the package, which takes IDs as text; an Equipment Rental node added now offers a list to pick from.`,
	};
}

/**
 * The node's properties for every version: each picker that 0.2.0 saved as text is shown from
 * version 1.1, and a text field of the same name for version 1.
 */
export function withVersion1TextFields(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) =>
		wasTextInVersion1(property)
			? [
					onVersions(textField(property), [1]),
					onVersions(property, [{ _cnd: { gte: PICKERS_SINCE } }]),
				]
			: [property],
	);
}
