'use strict';

/**
 * The smallest declarative nodes, whose per-item cost is n8n's own engine's (RoutingNode does all
 * of their work), as floors of what a declarative node can cost:
 *   SMALLEST_CREATE sends the request the Equipment Rental node creates a client with: the
 *     credential and base URL of that node, one operation routed to POST, four text fields from
 *     the item, each sent as a property of the body. The floor of a run that writes every row.
 *   ROUTING_FLOOR routes each item and sends nothing: the three fields the nightly sync maps from
 *     the item, without routing (as the Equipment Rental node's fields: RoutingNode evaluates each
 *     top-level property's value per item and discards it), and an operation whose routing answers
 *     each item with its input instead of a request. The floor of a run in which most rows send
 *     nothing (the nightly sync).
 *   SMALLEST_PAGING reads every equipment model as the Equipment Rental node's Return All does
 *     (page 1, then the other pages 5 at a time, each sent by RoutingNode with that node's
 *     credential), in the fewest lines a pagination function takes: no checks, pace or retry. The
 *     floor of Return All.
 * bench/sync.bench.js and bench/pagination.bench.js run them in n8n's engine in process;
 * bench/n8n-responsiveness.bench.js and bench/n8n-return-all.bench.js install them into a real n8n
 * as a community package of their own (writeSmallestDeclarativePackage).
 */

const fs = require('node:fs');
const path = require('node:path');

const { MODELS_PATH, PAGE_SIZE } = require('./models-list');
const { CLIENTS_PATH } = require('./upsert-job');

/**
 * RoutingNode calls an operation's pagination function instead of sending its request, with the
 * item's context as `this`: this one answers the item with its input's values, paired with it.
 * Written into the package as its source: it uses nothing outside itself.
 */
async function answerWithInputItem() {
	return [{ json: this.getInputData().json, pairedItem: { item: this.getItemIndex() } }];
}

/**
 * SMALLEST_PAGING's pagination function: page 1 tells the total, then the other pages go 5 at a time
 * (the Equipment Rental node's default Parallel Requests), each sent by RoutingNode at the routed
 * request's `limit`, their records joined in page order. Written into the package as its source: it
 * uses nothing outside itself.
 */
async function pageFiveAtATime(requestData) {
	const { limit } = requestData.options.qs;
	const page = async (number) => {
		// RoutingNode writes into the options it sends: each request gets its own.
		const options = {
			...requestData.options,
			headers: { ...requestData.options.headers },
			qs: { page: number, limit },
		};
		const [answer] = await this.makeRoutingRequest({ ...requestData, options });
		return answer.json;
	};
	const first = await page(1);
	const contents = [first.content];
	const pageCount = Math.ceil(first.total / limit);
	let next = 2;
	const worker = async () => {
		while (next <= pageCount) {
			const number = next++;
			contents[number - 1] = (await page(number)).content;
		}
	};
	await Promise.all(Array.from({ length: 5 }, worker));
	return contents.flat().map((json) => ({ json }));
}

/** A text field of the node; `routing`, where given, is what RoutingNode does with its value. */
const textField = (name, routing) => ({
	displayName: name,
	name,
	type: 'string',
	default: '',
	...(routing ? { routing } : {}),
});

/**
 * A node of one operation (`operation`: its option, routing included) and text fields (`fields`),
 * as n8n's loader takes it: `className` names its class, as the package's node file must be named.
 */
function smallestNode({ className, displayName, name, operation, fields, ...rest }) {
	// A new description each time: n8n's loader adds the Request Options to its properties.
	const describe = () => ({
		displayName,
		name,
		group: ['output'],
		version: 1,
		description: operation.action,
		defaults: { name: displayName },
		inputs: ['main'],
		outputs: ['main'],
		...rest,
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: operation.value,
				options: [operation],
			},
			...fields,
		],
	});
	return {
		className,
		description: describe(),
		/** Its parameters in a workflow: its operation, each field mapped from the item's field. */
		parameters: {
			operation: operation.value,
			...Object.fromEntries(fields.map(({ name: field }) => [field, `={{ $json.${field} }}`])),
		},
		/** A new node as n8n's loader makes one: an object carrying the description. */
		create: () => ({ description: describe() }),
	};
}

/** The Equipment Rental node's credential and the API's base URL from it. */
const EQUIPMENT_RENTAL_API = {
	credentials: [{ name: 'equipmentRentalApi', required: true }],
	requestDefaults: {
		baseURL: '={{ $credentials.baseUrl }}',
		headers: { Accept: 'application/json' },
	},
};

const SMALLEST_CREATE = smallestNode({
	className: 'SmallestDeclarative',
	displayName: 'Smallest Declarative Create',
	name: 'benchSmallestDeclarative',
	...EQUIPMENT_RENTAL_API,
	operation: {
		name: 'Create',
		value: 'create',
		action: 'Create a client',
		routing: { request: { method: 'POST', url: CLIENTS_PATH } },
	},
	fields: ['externalId', 'name', 'city', 'number'].map((field) =>
		textField(field, { send: { type: 'body', property: field } }),
	),
});

const ROUTING_FLOOR = smallestNode({
	className: 'RoutingFloor',
	displayName: 'Routing Floor',
	name: 'benchRoutingFloor',
	// It sends nothing: no credential, no base URL. requestDefaults is what n8n-core's WorkflowExecute
	// tells a declarative node by.
	requestDefaults: {},
	operation: {
		name: 'Route',
		value: 'route',
		action: 'Route an item',
		// `paginate` makes RoutingNode call the pagination function instead of sending.
		routing: { send: { paginate: true }, operations: { pagination: answerWithInputItem } },
	},
	fields: ['externalId', 'name', 'city'].map((field) => textField(field)),
});

const SMALLEST_PAGING = smallestNode({
	className: 'SmallestPaging',
	displayName: 'Smallest Declarative Paging',
	name: 'benchSmallestPaging',
	...EQUIPMENT_RENTAL_API,
	operation: {
		name: 'Get Many',
		value: 'getAll',
		action: 'Get many equipment models',
		routing: {
			request: { method: 'GET', url: MODELS_PATH, qs: { limit: PAGE_SIZE } },
			send: { paginate: true },
			operations: { pagination: pageFiveAtATime },
		},
	},
	fields: [],
});

const SMALLEST_DECLARATIVE_PACKAGE = 'n8n-nodes-bench-smallest-declarative';
/** A node's type in an n8n that has the package installed. */
const packageType = (node) => `${SMALLEST_DECLARATIVE_PACKAGE}.${node.description.name}`;

/** `value` as JavaScript source: JSON, but a function is written as its own source. */
function sourceOf(value) {
	if (typeof value === 'function') return value.toString();
	if (Array.isArray(value)) return `[${value.map(sourceOf).join(', ')}]`;
	if (value !== null && typeof value === 'object')
		return `{ ${Object.entries(value)
			.map(([key, entry]) => `${JSON.stringify(key)}: ${sourceOf(entry)}`)
			.join(', ')} }`;
	return JSON.stringify(value);
}

/**
 * Writes SMALLEST_CREATE, ROUTING_FLOOR and SMALLEST_PAGING as an n8n community package into `dir` (package.json
 * naming the node files, the files under dist/), as `npm pack` of a built package would unpack:
 * what rt.installPackageInto installs into a user folder.
 */
function writeSmallestDeclarativePackage(dir) {
	const nodes = [SMALLEST_CREATE, ROUTING_FLOOR, SMALLEST_PAGING];
	// n8n's loader takes the class named as the node file's name up to its first dot.
	const nodeFile = ({ className }) => `dist/${className}.node.js`;
	fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({
			name: SMALLEST_DECLARATIVE_PACKAGE,
			version: '1.0.0',
			files: ['dist'],
			n8n: { n8nNodesApiVersion: 1, nodes: nodes.map(nodeFile) },
		}),
	);
	for (const node of nodes)
		fs.writeFileSync(
			path.join(dir, nodeFile(node)),
			[
				"'use strict';",
				`class ${node.className} {`,
				`\tdescription = ${sourceOf(node.description)};`,
				'}',
				`module.exports = { ${node.className} };`,
				'',
			].join('\n'),
		);
}

module.exports = {
	ROUTING_FLOOR,
	SMALLEST_CREATE,
	SMALLEST_PAGING,
	packageType,
	writeSmallestDeclarativePackage,
};
