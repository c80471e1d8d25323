/**
 * What n8n's editor shows of the node's description for one operation, decided by n8n's own
 * display rules (NodeHelpers.displayParameter): a property's resource and operation, and a
 * collection option's own conditions, which may name the resource and operation too (`/resource`,
 * see nodes/EquipmentRental/engine/sameNamedProperties.ts).
 */
import type { INode, INodeParameters, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { CURRENT_VERSION } from '../../nodes/EquipmentRental/engine/nodeVersions';

/** The form's values as the editor has them: those given, and the defaults of the others shown. */
export function withDefaults(
	description: INodeTypeDescription,
	parameters: INodeParameters,
	typeVersion = CURRENT_VERSION,
): INodeParameters {
	const node = { typeVersion, parameters } as unknown as INode;
	return (
		NodeHelpers.getNodeParameters(
			description.properties,
			parameters,
			true,
			false,
			node,
			description,
		) ?? parameters
	);
}

/** The properties shown for `parameters` (resource, operation and any others the form has). */
export function shownProperties(
	description: INodeTypeDescription,
	parameters: INodeParameters,
	typeVersion = CURRENT_VERSION,
): INodeProperties[] {
	const values = withDefaults(description, parameters, typeVersion);
	const node = { typeVersion, parameters: values } as unknown as INode;
	return description.properties.filter((property) =>
		NodeHelpers.displayParameter(values, property, node, description, values),
	);
}

/** The options of a collection shown for `parameters`, the form's values at its top level. */
export function shownOptions(
	description: INodeTypeDescription,
	collection: INodeProperties,
	parameters: INodeParameters,
	typeVersion = CURRENT_VERSION,
): INodeProperties[] {
	const root = withDefaults(description, parameters, typeVersion);
	const node = { typeVersion, parameters: root } as unknown as INode;
	const values = (root[collection.name] ?? {}) as INodeParameters;
	return ((collection.options ?? []) as INodeProperties[]).filter((option) =>
		NodeHelpers.displayParameter(values, option, node, description, root),
	);
}
