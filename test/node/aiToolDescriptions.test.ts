/**
 * What an AI agent's model is told about the node used as a tool: the description n8n-core gives
 * the tool it makes of the node (createNodeAsTool, n8n-core 2.8.1, the same function AI Agents call
 * for every tool), for the node as n8n's Workflow loads it from a saved workflow.
 */
import type { INode, INodeParameters, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';
// n8n-core's own maker of a node's tool, which its index does not export.
import { createNodeAsTool } from 'n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool';

import { EquipmentRental } from '../../nodes/EquipmentRental/EquipmentRental.node';
import { shownProperties } from '../harness/description';
import { asAiTool, loadNodeTypes, TOOL_NODE_TYPE } from '../harness/engine';

const node = new EquipmentRental().description;
const tool = asAiTool(new EquipmentRental()).description;

/** The description n8n gives the model for a tool node saved with `parameters`. */
function toolDescriptionFor(parameters: INodeParameters): string {
	const nodeTypes = loadNodeTypes();
	const saved: INode = {
		id: 'tool',
		name: 'Find client',
		type: TOOL_NODE_TYPE,
		typeVersion: 1.1,
		position: [0, 0],
		parameters,
	};
	// Workflow fills in the defaults of the fields shown, as when n8n runs a saved workflow.
	const workflow = new Workflow({
		nodes: [saved],
		connections: {},
		active: false,
		nodeTypes,
		settings: {},
	});
	// Read as what a model is sent: langchain's tool type is too deep for TypeScript to check here.
	const made: { response: { description: string } } = createNodeAsTool({
		node: workflow.getNode(saved.name)!,
		nodeType: nodeTypes.getByNameAndVersion(TOOL_NODE_TYPE, 1.1),
		handleToolInvocation: async () => '',
	}) as never;
	return made.response.description;
}

const operations = node.properties
	.filter((property) => property.name === 'operation')
	.flatMap((property) =>
		(property.options as INodePropertyOptions[]).map((option) => ({
			resource: String(property.displayOptions!.show!.resource![0]),
			operation: String(option.value),
			action: String(option.action),
			does: String(option.description).replace(/\.$/, ''),
		})),
	);

describe("The model's description of the tool", () => {
	it('says what the operation finds and by what, for a tool added in the editor', () => {
		expect(toolDescriptionFor({ resource: 'client', operation: 'getAll' })).toBe(
			'Equipment Rental: List clients, optionally searched by name or filtered by status, partner type or last change.',
		);
	});

	it('names the fields an operation needs', () => {
		expect(toolDescriptionFor({ resource: 'quote', operation: 'create' })).toMatch(
			/^Equipment Rental: Create a quote for a client and one of its contracts, for an amount\. .* Needs: Client, Contract, Amount\.$/,
		);
	});

	it.each(operations)(
		"of $resource > $operation says what the operation's description says, not only its action",
		({ resource, operation, action, does }) => {
			const description = toolDescriptionFor({ resource, operation });
			expect(description).not.toBe(`${action} in Equipment Rental`);
			expect(description).toContain(`Equipment Rental: ${does}.`);
		},
	);

	it('is the one the user wrote, in a workflow that set it manually', () => {
		const written = 'Finds clients by name; answers each with its id.';
		expect(
			toolDescriptionFor({
				descriptionType: 'manual',
				toolDescription: written,
				resource: 'client',
				operation: 'getAll',
			}),
		).toBe(written);
	});

	// Before, n8n's own selector stood here; a tool saved with it set automatically was told the
	// action text ("Get many clients in Equipment Rental").
	it("is the operation's, in a workflow saved with n8n's Set Automatically", () => {
		expect(
			toolDescriptionFor({ descriptionType: 'auto', resource: 'client', operation: 'getAll' }),
		).toMatch(/^Equipment Rental: List clients, optionally searched by name/);
	});
});

describe('The Tool Description field', () => {
	const named = (properties: Array<{ name: string }>) =>
		properties.filter((property) => property.name === 'toolDescription');

	it.each(operations)(
		'shows once on the tool for $resource > $operation, and not on the node',
		({ resource, operation }) => {
			expect(named(shownProperties(tool, { resource, operation }))).toHaveLength(1);
			expect(named(shownProperties(node, { resource, operation }))).toEqual([]);
		},
	);

	/**
	 * A change of one field as n8n's editor applies it (editor-ui useNodeSettingsParameters,
	 * updateNodeParameter, n8n 2.8.4): the values left at their default are dropped, the change is
	 * made, and the defaults of the fields then shown are filled in.
	 */
	function changeInEditor(parameters: INodeParameters, name: string, value: string) {
		const asNode = { typeVersion: 1.1, parameters } as unknown as INode;
		const changed = {
			...NodeHelpers.getNodeParameters(tool.properties, parameters, false, false, asNode, tool),
			[name]: value,
		};
		return NodeHelpers.getNodeParameters(tool.properties, changed, true, false, asNode, tool)!;
	}

	it("follows the operation in the editor while left as it was, and keeps the user's text", () => {
		const added = changeInEditor({}, 'resource', 'client');
		const contracts = changeInEditor(
			changeInEditor(added, 'operation', 'getAll'),
			'resource',
			'contract',
		);
		expect(contracts.toolDescription).toMatch(/^Equipment Rental: List contracts/);

		const edited = changeInEditor(contracts, 'toolDescription', 'Lists the contracts of a client.');
		expect(changeInEditor(edited, 'operation', 'get').toolDescription).toBe(
			'Lists the contracts of a client.',
		);
	});
});
