/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * The node's versions (nodes/EquipmentRental/engine/nodeVersions.ts): a node saved by 0.2.0
 * (version 1) shows its IDs in text fields, as n8n's editor cannot show a plain text in a picker; a
 * node added now (1.1) has pickers. Read with n8n-workflow's own display rules, as the editor reads
 * them, against the workflows 0.2.0 shipped (test/e2e/fixtures).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INode, INodeParameterResourceLocator, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { EquipmentRental } from '../../nodes/EquipmentRental/EquipmentRental.node';
import { CURRENT_VERSION } from '../../nodes/EquipmentRental/engine/nodeVersions';
import { useSandbox } from '../harness/sandbox';

const description = new EquipmentRental().description;
const FIXTURES = join(__dirname, '..', 'e2e', 'fixtures');

interface SavedNode {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
}

/** The Equipment Rental nodes (and AI tools) of a workflow 0.2.0 shipped. */
function savedBy020(file: string): SavedNode[] {
	const workflow = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as { nodes: SavedNode[] };
	return workflow.nodes.filter((node) => /\.equipmentRental(Tool)?$/.test(node.type));
}
const SAVED_BY_020 = [
	...savedBy020('every-operation-0.2.0.json'),
	...savedBy020('ai-agent-quote-0.2.0.json'),
];

/** The property the editor shows for a top-level parameter of a node of this version. */
function shownProperty(
	saved: SavedNode,
	typeVersion: number,
	name: string,
): INodeProperties | undefined {
	const node = { ...saved, typeVersion, id: 'node', position: [0, 0] } as unknown as INode;
	return description.properties.find(
		(property) =>
			property.name === name &&
			NodeHelpers.displayParameter(node.parameters, property, node, description),
	);
}

describe('Node versions', () => {
	it('0.2.0 saved its nodes as version 1, and a node added now is version 1.1', () => {
		expect([...new Set(SAVED_BY_020.map((node) => node.typeVersion))]).toEqual([1]);
		expect(description.version).toEqual([1, 1.1]);
		expect(CURRENT_VERSION).toBe(1.1);
	});

	it('version 1 shows every text 0.2.0 saved in a text field, version 1.1 the ID fields as pickers', () => {
		const textIn1: string[] = [];
		const pickersIn11: string[] = [];
		for (const saved of SAVED_BY_020) {
			for (const [name, value] of Object.entries(saved.parameters)) {
				if (typeof value !== 'string') continue;
				const inVersion1 = shownProperty(saved, 1, name);
				// Every parameter 0.2.0 saved is shown on its node (none is lost), as a text field.
				expect([saved.name, name, inVersion1?.type]).toEqual([
					saved.name,
					name,
					expect.not.stringMatching(/^resourceLocator$/),
				]);
				if (inVersion1?.type === 'string') textIn1.push(`${saved.name}: ${name}`);
				if (shownProperty(saved, 1.1, name)?.type === 'resourceLocator')
					pickersIn11.push(`${saved.name}: ${name}`);
			}
		}
		expect(pickersIn11.sort()).toEqual([
			'Attach service product: productId',
			'Attach service product: serviceProductId',
			'Create quote: clientId',
			'Create quote: clientId',
			'Create quote: contractId',
			'Create quote: contractId',
			'Custom price list (first 5): customPriceId',
			'Update price item: priceId',
			'Update price item: productId',
			'Update release: releaseId',
		]);
		expect(textIn1).toEqual(expect.arrayContaining(pickersIn11));
	});

	it("a version 1 text field keeps the picker's label and rules, and says why it is text", () => {
		const quote = SAVED_BY_020.find((node) => node.parameters.resource === 'quote')!;
		const text = shownProperty(quote, 1, 'clientId')!;
		const picker = shownProperty(quote, 1.1, 'clientId')!;
		expect(text).toMatchObject({
			displayName: picker.displayName,
			required: true,
			default: '',
		});
		expect(text.description).toMatch(/0\.2\.0/);
	});

	describe('run', () => {
		const suite = useSandbox();
		const picked = (value: string): INodeParameterResourceLocator => ({
			__rl: true,
			mode: 'list',
			value,
		});

		it('a version 1 node with text IDs and a version 1.1 node with picked ones send the same quote', async () => {
			const { clientId, contractId } = suite.fixtures as { clientId: string; contractId: string };
			const base = { resource: 'quote', operation: 'create', amount: 10 };
			const v1 = await suite.run({ ...base, clientId, contractId }, { typeVersion: 1 });
			const v11 = await suite.run(
				{ ...base, clientId: picked(clientId), contractId: picked(contractId) },
				{ typeVersion: 1.1 },
			);
			expect([v1.error, v11.error]).toEqual([undefined, undefined]);
			const bodies = suite.sandbox.requests
				.filter((request) => request.method === 'POST')
				.map((request) => request.body);
			expect(bodies).toEqual([
				expect.objectContaining({ clientId, contractId, amount: 10 }),
				expect.objectContaining({ clientId, contractId, amount: 10 }),
			]);
		});
	});
});
