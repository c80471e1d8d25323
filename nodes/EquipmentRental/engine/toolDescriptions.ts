import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * An AI tool's description per operation. What n8n does (n8n-workflow getToolDescriptionForNode,
 * 1.123 to 2.41; convertNodeToAiTool from 1.85): a node used as a tool is described by its
 * `toolDescription` parameter, or, set automatically, by its action text and the node's name ("Get a
 * client in Equipment Rental"), which tells a model little; n8n adds its own Tool Description field
 * only to a node that has none. What this room does: each operation gets a Tool Description field,
 * shown only on the tool, filled in with what the operation finds or does and the fields it needs.
 */

/** The one n8n reads a tool's description from (n8n-workflow getToolDescriptionForNode). */
const TOOL_DESCRIPTION = 'toolDescription';

/**
 * Whether a display rule's `conditions` hold for `value`: n8n's plain values, and `_cnd: { not }`
 * (a list's fixed collection is shown unless its input mode says JSON).
 */
function holds(conditions: unknown, value: unknown): boolean {
	return (
		Array.isArray(conditions) &&
		conditions.some((condition: unknown) => {
			const not = (condition as { _cnd?: { not?: unknown } } | null)?._cnd;
			return not && 'not' in not ? not.not !== value : condition === value;
		})
	);
}

/**
 * The labels of the fields an operation cannot do without, each once: the required fields shown
 * for it in the form as it starts, its other fields at their defaults (a field version 1 keeps as
 * text has a twin of its label).
 */
function neededLabels(properties: INodeProperties[], resource: string, operation: string) {
	const isFor = (property: INodeProperties) => {
		const show = property.displayOptions?.show ?? {};
		return (
			show.resource?.includes(resource) === true && show.operation?.includes(operation) === true
		);
	};
	const defaultOf = (name: string) =>
		properties.find((property) => property.name === name && isFor(property))?.default;
	const needed = properties.filter((property) => {
		const show = property.displayOptions?.show ?? {};
		const conditions = Object.entries(show).filter(
			([name]) => !['@version', 'resource', 'operation'].includes(name),
		);
		return (
			property.required === true &&
			isFor(property) &&
			conditions.every(([name, values]) => holds(values, defaultOf(name))) &&
			property.displayOptions?.hide === undefined
		);
	});
	return [...new Set(needed.map((property) => property.displayName))];
}

/**
 * What the model is told about an operation: the system, what the operation finds or does (its
 * description in the Operation list) and the fields it needs, e.g. "Equipment Rental: Create a
 * quote for a client and one of its contracts, for an amount. ... Needs: Client, Contract, Amount."
 */
function toolDescriptionOf(system: string, operation: INodePropertyOptions, needs: string[]) {
	const does = String(operation.description).replace(/\.?$/, '.');
	return `${system}: ${does}${needs.length > 0 ? ` Needs: ${needs.join(', ')}.` : ''}`;
}

/**
 * The Tool Description of the node used as an AI agent's tool: one field per operation, shown only
 * on the tool, filled with what the operation finds or does and what it needs, which the user may
 * edit like any field.
 *
 * Why the node declares it: n8n tells the model a tool's `toolDescription` parameter, unless its
 * Tool Description is "Set Automatically", which sends the operation's action text and the node's
 * name, e.g. "Get many clients in Equipment Rental" (n8n-workflow getToolDescriptionForNode and
 * makeDescription, n8n 1.123 to 2.41; n8n 1.85 sends the node's description with the resource's and
 * the operation's values). The action text is also what the nodes panel lists, so it stays short.
 * n8n's loader adds its own Tool Description fields (the Set Automatically / Set Manually selector
 * and a description) only to a node that has no `toolDescription` property (convertNodeToAiTool,
 * n8n 1.85 to 2.41), and fills a field's default where it is shown (Workflow, getNodeParameters).
 * `@tool` shows these fields on the tool only (n8n-workflow after 1.85, n8n PR 14318; on n8n 1.85,
 * which knows no `@tool`, they show nowhere, and its tools do not run this node anyway, see
 * docs/compatibility.md). n8n's editor replaces a description
 * left as it was with the new operation's when the operation changes, since it drops the values
 * equal to their default before applying a change (editor-ui updateNodeParameter, n8n 2.8).
 */
export function toolDescriptionFields(
	system: string,
	properties: INodeProperties[],
): INodeProperties[] {
	return properties
		.filter((property) => property.name === 'operation')
		.flatMap((operations) => {
			const resources = (operations.displayOptions?.show?.resource ?? []) as string[];
			return (operations.options as INodePropertyOptions[]).map((operation): INodeProperties => ({
				displayName: 'Tool Description',
				name: TOOL_DESCRIPTION,
				type: 'string',
				typeOptions: { rows: 3 },
				default: toolDescriptionOf(
					system,
					operation,
					neededLabels(properties, resources[0], String(operation.value)),
				),
				description:
					"What the AI agent's model is told this tool does: when to use it and what it needs",
				displayOptions: {
					show: { '@tool': [true], resource: resources, operation: [operation.value] },
				},
			}));
		});
}
