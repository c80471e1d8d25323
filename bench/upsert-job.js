'use strict';

/**
 * The job the sync benchmarks time (bench/sync.bench.js in n8n's engine in process,
 * bench/n8n-responsiveness.bench.js in a running n8n): Create or Update of clients by external ID,
 * half of which exist in the sandbox before each run. What the job is made of (its records, the
 * Equipment Rental node's parameters, the build of n8n's own nodes that does the same) and how its
 * result is checked are the same in both, so that their figures speak of the same work.
 */

const assert = require('node:assert/strict');

const CLIENTS_PATH = '/master-data/v1/client-management/clients';

/**
 * The records of a run of `count`, their external IDs starting with `prefix`: the even ones exist
 * before it (to update), the odd ones do not (create).
 *   records: { externalId, name, city, number, exists } each;
 *   newRecords: those that do not exist;
 *   existingBefore: what the sandbox holds before the run ({ externalId, name, city }, a name and
 *     city other than the record's, so that the run has something to write);
 *   inputItems: the items a workflow gets ({ externalId, name, city }).
 */
function upsertRecords(count, prefix) {
	const records = Array.from({ length: count }, (_, index) => ({
		externalId: `${prefix}${index}`,
		name: `Client ${index}`,
		city: `City ${index}`,
		number: String(100_000 + index),
		exists: index % 2 === 0,
	}));
	return {
		records,
		newRecords: records.filter((record) => !record.exists),
		existingBefore: records
			.filter((record) => record.exists)
			.map(({ externalId }, index) => ({
				externalId,
				name: `Old name ${index}`,
				city: `Old city ${index}`,
			})),
		inputItems: records.map(({ externalId, name, city }) => ({ externalId, name, city })),
	};
}

/**
 * How many of `records` the sandbox's `clients` (those of the run's prefix) do not hold right: one
 * client per external ID, with the name and city sent, an existing one under the ID it had
 * (`idsBefore`, by external ID, as the sandbox's reset answered). An external ID held by two
 * clients is never right for anyone: it throws an AssertionError.
 */
function recordsNotRight(records, clients, idsBefore) {
	const byExternalId = new Map();
	for (const client of clients) {
		assert.ok(
			!byExternalId.has(client.externalId),
			`two clients have external ID ${client.externalId}`,
		);
		byExternalId.set(client.externalId, client);
	}
	const isRight = (record) => {
		const client = byExternalId.get(record.externalId);
		return (
			client?.name === record.name &&
			client.city === record.city &&
			(!record.exists || client.id === idsBefore[record.externalId])
		);
	};
	return records.filter((record) => !isRight(record)).length;
}

/** Output items that carry an error: what a node set to On Error: Continue puts out for a failure. */
const errorItemCount = (items) => items.filter((item) => item.json.error !== undefined).length;

/** The Equipment Rental node's Client > Create or Update with defaults, the fields from the item. */
const NODE_UPSERT_PARAMETERS = {
	resource: 'client',
	operation: 'upsert',
	externalId: '={{ $json.externalId }}',
	name: '={{ $json.name }}',
	additionalFields: { city: '={{ $json.city }}' },
};

const ON_ERROR_CONTINUE = { onError: 'continueRegularOutput' };
const connectTo = (node) => ({ node, type: 'main', index: 0 });

const HTTP_REQUEST_VERSION = 4.2;
const IF_VERSION = 2.2;
const FIND_NODE = 'Find by External ID';

/**
 * The job from n8n's own nodes, as a user builds it: HTTP Request GET by external ID (full
 * response, "Never Error") > IF (status 200) > HTTP Request PATCH / HTTP Request POST, Header Auth
 * credential (`credential`: its id and name), the fields read from the item of `inputNode` with
 * $('…').item, the two writing nodes On Error: Continue so that failed items are counted.
 * `batching` goes into the options of the three HTTP Request nodes and `settings` (e.g. Retry On
 * Fail) onto each, as n8n advises for rate limits. Answers the nodes, their connections, the node
 * the input connects to (`first`) and the nodes whose output is the run's (`outputs`).
 */
function httpRequestBuild({ baseUrl, inputNode, credential, batching, settings }) {
	const clients = `${baseUrl}${CLIENTS_PATH}`;
	const request = (id, name, position, { options = {}, ...parameters }, onError = {}) => ({
		id,
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		position,
		credentials: { httpHeaderAuth: credential },
		...settings,
		...onError,
		parameters: {
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			...parameters,
			options: { ...options, ...(batching ? { batching } : {}) },
		},
	});
	const input = (field) => `$('${inputNode}').item.json.${field}`;
	return {
		nodes: [
			request('find', FIND_NODE, [200, 0], {
				method: 'GET',
				url: `={{ '${clients}/external-id/' + encodeURIComponent($json.externalId) }}`,
				options: { response: { response: { fullResponse: true, neverError: true } } },
			}),
			{
				id: 'found',
				name: 'Found?',
				type: 'n8n-nodes-base.if',
				typeVersion: IF_VERSION,
				position: [400, 0],
				parameters: {
					conditions: {
						options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
						conditions: [
							{
								id: 'status-200',
								leftValue: '={{ $json.statusCode }}',
								rightValue: 200,
								operator: { type: 'number', operation: 'equals' },
							},
						],
						combinator: 'and',
					},
					options: {},
				},
			},
			request(
				'update',
				'Update',
				[600, -100],
				{
					method: 'PATCH',
					url: `={{ '${clients}/' + $json.body.id }}`,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: `={{ JSON.stringify({ name: ${input('name')}, city: ${input('city')} }) }}`,
				},
				ON_ERROR_CONTINUE,
			),
			request(
				'create',
				'Create',
				[600, 100],
				{
					method: 'POST',
					url: clients,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: `={{ JSON.stringify({ externalId: ${input('externalId')}, name: ${input('name')}, city: ${input('city')} }) }}`,
				},
				ON_ERROR_CONTINUE,
			),
		],
		connections: {
			[FIND_NODE]: { main: [[connectTo('Found?')]] },
			'Found?': { main: [[connectTo('Update')], [connectTo('Create')]] },
		},
		first: FIND_NODE,
		outputs: ['Update', 'Create'],
	};
}

module.exports = {
	CLIENTS_PATH,
	HTTP_REQUEST_VERSION,
	IF_VERSION,
	NODE_UPSERT_PARAMETERS,
	ON_ERROR_CONTINUE,
	connectTo,
	errorItemCount,
	httpRequestBuild,
	recordsNotRight,
	upsertRecords,
};
