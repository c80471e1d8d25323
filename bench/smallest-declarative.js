'use strict';

/**
 * The smallest declarative node that sends the request the Equipment Rental node creates a client
 * with: the credential and base URL of that node, one operation routed to POST, four text fields
 * from the item, each sent as a property of the body. n8n's RoutingNode does all of its work, so
 * that what it costs per item is what n8n's own engine costs. bench/sync.bench.js runs it in n8n's
 * engine in process; bench/n8n-responsiveness.bench.js installs it into a real n8n as a community
 * package of its own (writeSmallestDeclarativePackage).
 */

const fs = require('node:fs');
const path = require('node:path');

const { CLIENTS_PATH } = require('./upsert-job');

const SMALLEST_DECLARATIVE_FIELDS = ['externalId', 'name', 'city', 'number'];

/** The node's description: data only, so that it can be written into a package as JSON. */
const SMALLEST_DECLARATIVE_DESCRIPTION = {
	displayName: 'Smallest Declarative Create',
	name: 'benchSmallestDeclarative',
	group: ['output'],
	version: 1,
	description: 'Creates a client',
	defaults: { name: 'Create Client' },
	inputs: ['main'],
	outputs: ['main'],
	credentials: [{ name: 'equipmentRentalApi', required: true }],
	requestDefaults: {
		baseURL: '={{ $credentials.baseUrl }}',
		headers: { Accept: 'application/json' },
	},
	properties: [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			default: 'create',
			options: [
				{
					name: 'Create',
					value: 'create',
					action: 'Create a client',
					routing: { request: { method: 'POST', url: CLIENTS_PATH } },
				},
			],
		},
		...SMALLEST_DECLARATIVE_FIELDS.map((field) => ({
			displayName: field,
			name: field,
			type: 'string',
			default: '',
			routing: { send: { type: 'body', property: field } },
		})),
	],
};

/** The node as n8n's loader takes a node: a class whose instances carry the description. */
class SmallestDeclarativeNode {
	description = structuredClone(SMALLEST_DECLARATIVE_DESCRIPTION);
}

const SMALLEST_DECLARATIVE_PACKAGE = 'n8n-nodes-bench-smallest-declarative';
/** Its node's type in an n8n that has the package installed. */
const SMALLEST_DECLARATIVE_TYPE = `${SMALLEST_DECLARATIVE_PACKAGE}.${SMALLEST_DECLARATIVE_DESCRIPTION.name}`;
// n8n's loader takes the class named as the node file's name up to its first dot.
const CLASS_NAME = 'SmallestDeclarative';

/**
 * Writes the node as an n8n community package into `dir` (package.json naming the node file, the
 * file under dist/), as `npm pack` of a built package would unpack: what rt.installPackageInto
 * installs into a user folder.
 */
function writeSmallestDeclarativePackage(dir) {
	const nodeFile = `dist/${CLASS_NAME}.node.js`;
	fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({
			name: SMALLEST_DECLARATIVE_PACKAGE,
			version: '1.0.0',
			files: ['dist'],
			n8n: { n8nNodesApiVersion: 1, nodes: [nodeFile] },
		}),
	);
	fs.writeFileSync(
		path.join(dir, nodeFile),
		[
			"'use strict';",
			`class ${CLASS_NAME} {`,
			`\tdescription = ${JSON.stringify(SMALLEST_DECLARATIVE_DESCRIPTION)};`,
			'}',
			`module.exports = { ${CLASS_NAME} };`,
			'',
		].join('\n'),
	);
}

module.exports = {
	SMALLEST_DECLARATIVE_FIELDS,
	SMALLEST_DECLARATIVE_TYPE,
	SmallestDeclarativeNode,
	writeSmallestDeclarativePackage,
};
