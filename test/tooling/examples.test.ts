/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * The example workflows' canvas layout, as n8n draws it: a node is a box about 100 px wide (its
 * position is the top-left corner) with its name written below it, up to about 200 px wide.
 * Names of neighbours on a row run together unless their centres are 200 px apart, and a sticky
 * note drawn over a node hides it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface CanvasNode {
	name: string;
	type: string;
	position: [number, number];
	parameters: { width?: number; height?: number };
}

const EXAMPLES = join(__dirname, '..', '..', 'examples');
const NODE_SIZE = 100;
const LABEL_HEIGHT = 40;
const LABEL_WIDTH = 200;
const MIN_CENTRE_DISTANCE = 200;
const STICKY_NOTE = 'n8n-nodes-base.stickyNote';

interface Box {
	left: number;
	top: number;
	right: number;
	bottom: number;
}

/** The area a node and its name take. */
function footprint({ position: [x, y] }: CanvasNode): Box {
	const centre = x + NODE_SIZE / 2;
	return {
		left: centre - LABEL_WIDTH / 2,
		right: centre + LABEL_WIDTH / 2,
		top: y,
		bottom: y + NODE_SIZE + LABEL_HEIGHT,
	};
}

function overlap(a: Box, b: Box): boolean {
	return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

const workflows = readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.json'))
	.map((file) => {
		const { nodes } = JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as {
			nodes: CanvasNode[];
		};
		return [file, nodes] as const;
	});

describe.each(workflows)('%s', (_file, nodes) => {
	const canvasNodes = nodes.filter((node) => node.type !== STICKY_NOTE);
	const stickyNotes = nodes.filter((node) => node.type === STICKY_NOTE);

	it('keeps the names of nodes on one row apart', () => {
		const crowded = canvasNodes.flatMap((node, index) =>
			canvasNodes
				.slice(index + 1)
				.filter(
					(other) =>
						Math.abs(other.position[1] - node.position[1]) < NODE_SIZE + LABEL_HEIGHT &&
						Math.abs(other.position[0] - node.position[0]) < MIN_CENTRE_DISTANCE,
				)
				.map((other) => `${node.name} / ${other.name}`),
		);
		expect(crowded).toEqual([]);
	});

	it('keeps sticky notes clear of nodes', () => {
		const hidden = stickyNotes.flatMap((note) => {
			const [x, y] = note.position;
			const area = {
				left: x,
				top: y,
				right: x + (note.parameters.width ?? 240),
				bottom: y + (note.parameters.height ?? 160),
			};
			return canvasNodes
				.filter((node) => overlap(area, footprint(node)))
				.map((node) => `${note.name} / ${node.name}`);
		});
		expect(hidden).toEqual([]);
	});
});
