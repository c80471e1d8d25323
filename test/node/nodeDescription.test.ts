/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * What n8n's editor makes of the nodes' descriptions: number inputs, subtitles, the nodes panel's
 * entry and search, and the Docs links. The rules the editor applies are quoted where they are used.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INode, INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { EquipmentRentalApi } from '../../credentials/EquipmentRentalApi.credentials';
import { EquipmentRental } from '../../nodes/EquipmentRental/EquipmentRental.node';
import { EquipmentRentalTrigger } from '../../nodes/EquipmentRentalTrigger/EquipmentRentalTrigger.node';
import { shownOptions, shownProperties } from '../harness/description';
import { loadNodeTypes, NODE_TYPE, TRIGGER_NODE_TYPE } from '../harness/engine';

const node = new EquipmentRental().description;
const trigger = new EquipmentRentalTrigger().description;
const ROOT = join(__dirname, '..', '..');
const codexOf = (name: string) =>
	JSON.parse(readFileSync(join(ROOT, 'nodes', name, `${name}.node.json`), 'utf8')) as {
		alias?: string[];
		resources: Record<string, Array<{ url: string }>>;
	};

/** Every property of a description, collection options included. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => [
		property,
		...(property.type === 'collection'
			? allProperties((property.options ?? []) as INodeProperties[])
			: []),
	]);
}

describe('Number inputs', () => {
	// Options that tune how a list is read or how fast requests go keep n8n's usual bounds; a
	// clamped tuning value changes no business data.
	const TUNING_OPTIONS = ['limit', 'pageSize', 'parallelRequests', 'maxRateLimitWait'];

	// n8n 2.8's number input (Element Plus InputNumber) clamps a typed value to minValue/maxValue and
	// rounds it to numberPrecision when the field loses focus, without telling the user.
	it('leave business values as typed: no minValue, maxValue or numberPrecision', () => {
		const businessNumbers = allProperties(node.properties).filter(
			(property) => property.type === 'number' && !TUNING_OPTIONS.includes(property.name),
		);

		expect(businessNumbers.map((property) => property.name).sort()).toEqual(
			expect.arrayContaining(['amount', 'from', 'price', 'quantity']),
		);
		const changedByTheEditor = businessNumbers.filter(
			(property) =>
				property.typeOptions?.minValue !== undefined ||
				property.typeOptions?.maxValue !== undefined ||
				property.typeOptions?.numberPrecision !== undefined,
		);
		expect(changedByTheEditor.map((property) => property.displayName)).toEqual([]);
	});
});

describe('Subtitles', () => {
	/** The subtitle as the editor shows it: evaluated with the node's parameters as $parameter. */
	function subtitleOf(type: string, subtitle: string, parameters: INodeParameters): unknown {
		const workflowNode: INode = {
			id: 'node',
			name: 'Node',
			type,
			typeVersion: 1,
			position: [0, 0],
			parameters,
		};
		const workflow = new Workflow({
			nodes: [workflowNode],
			connections: {},
			active: false,
			nodeTypes: loadNodeTypes(),
		});
		return workflow.expression.getSimpleParameterValue(workflowNode, subtitle, 'internal', {});
	}

	const resources = node.properties.find((property) => property.name === 'resource')!
		.options as INodePropertyOptions[];
	const actions = node.properties
		.filter((property) => property.name === 'operation')
		.flatMap((operations) =>
			(operations.options as INodePropertyOptions[]).map((operation) => {
				const resource = resources.find(
					(option) => option.value === operations.displayOptions!.show!.resource![0],
				)!;
				return [resource.value, operation.value, `${operation.name}: ${resource.name}`] as const;
			}),
		);

	it('name every action of the node', () => {
		expect(actions).toHaveLength(54);
		expect(actions).toContainEqual(['client', 'getByExternalId', 'Get by External ID: Client']);
		expect(actions).toContainEqual(['contactPerson', 'upsert', 'Create or Update: Contact Person']);
		expect(actions).toContainEqual(['equipmentModel', 'getAll', 'Get Many: Equipment Model']);
	});

	it.each(actions)('show %s > %s as "%s"', (resource, operation, shown) => {
		expect(subtitleOf(NODE_TYPE, node.subtitle!, { resource, operation })).toBe(shown);
	});

	it.each([
		['equipmentModelUpdated', 'Equipment Model Created or Updated'],
		['clientUpdated', 'Client Created or Updated'],
		['contractUpdated', 'Contract Created or Updated'],
		['productUpdated', 'Product Created or Updated'],
		['dailyDistanceReport', 'Daily Distance Report'],
	])('show the trigger event %s as "%s"', (event, shown) => {
		expect(subtitleOf(TRIGGER_NODE_TYPE, trigger.subtitle!, { event })).toBe(shown);
	});
});

describe("The nodes panel's entry", () => {
	// n8n 2.8.4's nodes panel merges a node and the trigger named like it plus "Trigger" into one
	// entry, which shows the trigger's description (generateMergedNodesAndActions).
	it('is one entry for both nodes, and the description it shows speaks for both', () => {
		expect(trigger.name).toBe(`${node.name}Trigger`);
		const shown = trigger.description.toLowerCase();
		for (const words of [
			'quote',
			'price list',
			'release',
			'inventor',
			'equipment model',
			'distance',
		])
			expect(shown).toContain(words);
		expect(shown).toContain('start a workflow');
	});

	// The panel searches display names and the codex's alias list.
	it.each(['quote', 'booking', 'price list', 'inventory', 'release', 'excavator'])(
		'is found by searching "%s"',
		(term) => {
			expect(codexOf('EquipmentRental').alias).toContain(term);
		},
	);
});

describe('Docs links', () => {
	/** The anchors GitHub gives the README's headings. */
	const readmeAnchors = readFileSync(join(ROOT, 'README.md'), 'utf8')
		.split('\n')
		.filter((line) => /^#{1,6} /.test(line))
		.map((line) =>
			line
				.replace(/^#+ /, '')
				.toLowerCase()
				.replace(/[^\p{L}\p{N} _-]/gu, '')
				.replace(/ /g, '-'),
		);
	const REPOSITORY = 'https://github.com/equipment-rental/n8n-nodes-equipment-rental';

	// The editor opens a node's documentationUrl and the credential's as they are; they may point to
	// a section of the README.
	it.each([
		['node', node.documentationUrl],
		['trigger', trigger.documentationUrl],
		['credential', new EquipmentRentalApi().documentationUrl],
	])('of the %s lead to a section of the README', (_owner, url) => {
		const [address, anchor] = String(url).split('#');
		expect(address).toBe(REPOSITORY);
		expect(readmeAnchors).toContain(anchor);
	});

	// A codex link gets "?utm_source=..." appended by the editor: after a #fragment, that would
	// make the fragment point nowhere.
	it.each(['EquipmentRental', 'EquipmentRentalTrigger'])(
		'in the codex of %s have no #fragment',
		(name) => {
			const urls = Object.values(codexOf(name).resources).flatMap((links) =>
				links.map((link) => link.url),
			);
			expect(urls.length).toBeGreaterThan(0);
			for (const url of urls) expect(url).not.toContain('#');
		},
	);
});

describe('docs/writes.md', () => {
	const page = readFileSync(join(ROOT, 'docs', 'writes.md'), 'utf8');
	/** The text of the page's section about `resource`, e.g. "## Contact Person" up to the next. */
	const sectionOf = (title: string) =>
		page
			.split(/^## /m)
			.find((part) => part.startsWith(title))
			?.replace(/\s+/g, ' ');
	const resources = node.properties.find((property) => property.name === 'resource')!
		.options as INodePropertyOptions[];
	const writes = node.properties
		.filter((property) => property.name === 'operation')
		.flatMap((operations) =>
			(operations.options as INodePropertyOptions[])
				.filter((operation) => ['create', 'update', 'upsert'].includes(String(operation.value)))
				// Quote > Create and Release > Update are the API description's, documented in the README.
				.filter(
					() =>
						!['quote', 'release'].includes(String(operations.displayOptions!.show!.resource![0])),
				)
				.map((operation) => ({
					resource: String(operations.displayOptions!.show!.resource![0]),
					operation: String(operation.value),
				})),
		);

	// Fields every kind's Update and Create or Update has, described once for all; and Number
	// Format, which every write with a number field has, described once where numbers are.
	const EVERY_WRITES_FIELDS = [
		{ name: 'emptyValues', label: 'Empty Values' },
		{ name: 'numberFormat', label: 'Number Format' },
		{ name: 'writeMode', label: 'Mode' },
		{ name: 'includeRecordsNotInInput', label: 'Include Records Not in Input' },
	];

	it('names the fields every write has where it tells how every write works', () => {
		const common = sectionOf('How every write works') ?? '';
		expect(EVERY_WRITES_FIELDS.filter(({ label }) => !common.includes(label))).toEqual([]);
	});

	it.each(writes.map((write) => [write.resource, write.operation, write] as const))(
		'names every field of %s > %s in its resource section',
		(_resource, _operation, { resource, operation }) => {
			const title = resources.find((option) => option.value === resource)!.name;
			const section = sectionOf(title) ?? '';
			expect(section).not.toBe('');
			const parameters = { resource, operation };
			const shown = shownProperties(node, parameters).filter(
				(property) =>
					![
						'resource',
						'operation',
						'requestOptions',
						...EVERY_WRITES_FIELDS.map((field) => field.name),
					].includes(property.name),
			);
			const labels = shown.flatMap((property) =>
				property.type === 'collection'
					? shownOptions(node, property, parameters).map((option) => option.displayName)
					: property.type === 'multiOptions'
						? []
						: [property.displayName],
			);
			// Equipment's many model fields are summed up by example; the others are listed in full.
			const listed =
				resource === 'equipment' ? labels.filter((label) => label === 'Title') : labels;
			expect(listed.filter((label) => !section.includes(label))).toEqual([]);
		},
	);
});
