'use strict';

/**
 * The job the sync benchmarks time (bench/sync.bench.js in n8n's engine in process,
 * bench/n8n-responsiveness.bench.js in a running n8n): Create or Update of clients by external ID,
 * in the cases of SYNC_CASES (a first load, a nightly run with 1% of the rows differing). What the
 * job is made of (its rows, the Equipment Rental node's parameters, the builds of n8n's own nodes
 * that do the same) and how its result is checked are the same in both, so that their figures speak
 * of the same work.
 */

const assert = require('node:assert/strict');

const CLIENTS_PATH = '/master-data/v1/client-management/clients';

/**
 * The cases of a sync, by name: what each row of a run is to the sandbox before it ('new': no
 * record has its external ID; 'changed': one has, with another name and city; 'unchanged': one has,
 * with the row's values), by the row's index.
 *   first-load: every row new, as when a sync runs for the first time;
 *   nightly: the sandbox holds every row but 1% of them, and 1% of the rows it holds differ: every
 *     100th row differs, alternately changed and new (issue 36: a night's changes to an ERP's
 *     master data);
 *   half: half of the rows changed, half new (issue 30's case).
 */
const SYNC_CASES = {
	'first-load': { title: 'first load', stateOf: () => 'new' },
	nightly: {
		title: 'nightly',
		stateOf: (index) => (index % 100 !== 0 ? 'unchanged' : index % 200 === 0 ? 'changed' : 'new'),
	},
	half: { title: 'half existing', stateOf: (index) => (index % 2 === 0 ? 'changed' : 'new') },
};

/** What Create or Update outputs for a row, by what the row is to the sandbox before the run. */
const UPSERTED_BY_STATE = { new: 'created', changed: 'updated', unchanged: 'unchanged' };

/**
 * The rows of a run of the case `caseName` (SYNC_CASES), `count` of them, their external IDs
 * starting with `prefix`:
 *   records: { externalId, name, city, number, state, exists } each (state as in SYNC_CASES);
 *   newRecords: those that do not exist;
 *   writes: how many rows a sync must write (the new and the changed);
 *   existingBefore: what the sandbox holds before the run ({ externalId, name, city }; a changed
 *     row's record with a name and city other than the row's, so that the run has something to
 *     write);
 *   inputItems: the items a workflow gets ({ externalId, name, city }).
 */
function syncJob(caseName, count, prefix) {
	const syncCase = SYNC_CASES[caseName];
	if (!syncCase) throw new Error(`No sync case ${caseName}: ${Object.keys(SYNC_CASES).join(', ')}`);
	const records = Array.from({ length: count }, (_, index) => {
		const state = syncCase.stateOf(index);
		return {
			externalId: `${prefix}${index}`,
			name: `Client ${index}`,
			city: `City ${index}`,
			number: String(100_000 + index),
			state,
			exists: state !== 'new',
		};
	});
	return {
		caseName,
		title: syncCase.title,
		records,
		newRecords: records.filter((record) => !record.exists),
		writes: records.filter((record) => record.state !== 'unchanged').length,
		existingBefore: records
			.filter((record) => record.exists)
			.map(({ externalId, name, city, state }, index) =>
				state === 'changed'
					? { externalId, name: `Old name ${index}`, city: `Old city ${index}` }
					: { externalId, name, city },
			),
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

/**
 * What the sandbox holds of `job` before a run, as records for recordsNotRight: those a run that
 * writes nothing must leave as they are, each under the ID it had.
 */
const heldBefore = (job) => job.existingBefore.map((record) => ({ ...record, exists: true }));

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
/** A connection to input `index` of `node`. */
const connectTo = (node, index = 0) => ({ node, type: 'main', index });

const HTTP_REQUEST_VERSION = 4.2;
const IF_VERSION = 2.2;
const SPLIT_OUT_VERSION = 1;
const COMPARE_DATASETS_VERSION = 2.3;
const FIND_NODE = 'Find by External ID';
const LIST_NODE = 'List clients';
const SPLIT_OUT_NODE = 'One item per client';
const COMPARE_NODE = 'Compare Datasets';
const UPDATE_NODE = 'Update';
const CREATE_NODE = 'Create';
/** The page size (d) asks the clients' list for: the largest the node asks for in a whole read. */
const LIST_PAGE_SIZE = 1000;

/**
 * The HTTP Request node's pagination as n8n's docs set it up for an API with numbered pages: the
 * query parameter `page` = $pageCount + 1, complete when a page holds fewer than `pageSize` records
 * (so it asks for one page more when the last is full).
 */
const pagesByNumber = (pageSize) => ({
	pagination: {
		paginationMode: 'updateAParameterInEachRequest',
		parameters: { parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }] },
		paginationCompleteWhen: 'other',
		completeExpression: `={{ $response.body.content.length < ${pageSize} }}`,
	},
});

/**
 * An HTTP Request node of the builds below, with the Header Auth credential (`credential`: its id
 * and name); `batching` goes into its options and `settings` (e.g. Retry On Fail) onto the node, as
 * n8n advises for rate limits.
 */
function httpRequestNode(
	{ id, name, position, parameters: { options = {}, ...parameters }, ...nodeSettings },
	{ credential, batching, settings },
) {
	return {
		id,
		name,
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: HTTP_REQUEST_VERSION,
		position,
		credentials: { httpHeaderAuth: credential },
		...settings,
		...nodeSettings,
		parameters: {
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			...parameters,
			options: { ...options, ...(batching ? { batching } : {}) },
		},
	};
}

/** An HTTP Request node's parameters that send `body` (an expression) as JSON. */
const jsonBody = (body) => ({
	sendBody: true,
	specifyBody: 'json',
	jsonBody: `={{ JSON.stringify(${body}) }}`,
});

/**
 * The nodes that write the clients, On Error: Continue so that failed items are counted: `Update`
 * PATCHes the client whose ID `idOf` names with name and city, `Create` POSTs one with external ID,
 * name and city, each field an expression of `valueOf(field)`.
 */
function writeNodes(clients, { idOf, valueOf }, http) {
	const fields = (names) => `{ ${names.map((field) => `${field}: ${valueOf(field)}`).join(', ')} }`;
	return [
		httpRequestNode(
			{
				id: 'update',
				name: UPDATE_NODE,
				position: [800, -100],
				...ON_ERROR_CONTINUE,
				parameters: {
					method: 'PATCH',
					url: `={{ '${clients}/' + ${idOf} }}`,
					...jsonBody(fields(['name', 'city'])),
				},
			},
			http,
		),
		httpRequestNode(
			{
				id: 'create',
				name: CREATE_NODE,
				position: [800, 100],
				...ON_ERROR_CONTINUE,
				parameters: {
					method: 'POST',
					url: clients,
					...jsonBody(fields(['externalId', 'name', 'city'])),
				},
			},
			http,
		),
	];
}

/**
 * (b) The job from n8n's own nodes as n8n's docs build it: HTTP Request GET by external ID (full
 * response, "Never Error") > IF (status 200) > HTTP Request PATCH / HTTP Request POST (writeNodes),
 * the fields read from the item of `inputNode` with $('…').item, since the look-up's answer has
 * replaced the item. Every row found is written, changed or not: the IF tells found from not found,
 * nothing more. `batching` and `settings` go onto the three HTTP Request nodes (httpRequestNode).
 * Answers the nodes, their connections, the connections from the input (`inputTo`) and the nodes
 * whose output is the run's (`outputs`).
 */
function httpRequestBuild({ baseUrl, inputNode, credential, batching, settings }) {
	const clients = `${baseUrl}${CLIENTS_PATH}`;
	const http = { credential, batching, settings };
	return {
		nodes: [
			httpRequestNode(
				{
					id: 'find',
					name: FIND_NODE,
					position: [200, 0],
					parameters: {
						method: 'GET',
						url: `={{ '${clients}/external-id/' + encodeURIComponent($json.externalId) }}`,
						options: { response: { response: { fullResponse: true, neverError: true } } },
					},
				},
				http,
			),
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
			...writeNodes(
				clients,
				{ idOf: '$json.body.id', valueOf: (field) => `$('${inputNode}').item.json.${field}` },
				http,
			),
		],
		connections: {
			[FIND_NODE]: { main: [[connectTo('Found?')]] },
			'Found?': { main: [[connectTo(UPDATE_NODE)], [connectTo(CREATE_NODE)]] },
		},
		inputTo: [connectTo(FIND_NODE)],
		outputs: [UPDATE_NODE, CREATE_NODE],
	};
}

/**
 * (d) The nightly sync from n8n's own nodes, the clients read whole by the HTTP Request node's
 * pagination: HTTP Request GET of the clients' list (Execute Once: one read for all the rows; pages
 * of LIST_PAGE_SIZE, pagesByNumber) > Split Out of each page's `content` > Compare Datasets (input
 * A the rows, input B the clients, matched by external ID) > In A only: HTTP Request POST;
 * Different: HTTP Request PATCH (writeNodes). Compare Datasets is set as a user gets it to work:
 * Fuzzy Compare, with which it compares only the fields of input A (by default every field of both
 * items, and a client has many more than a row, so that every row would differ), and "Use a Mix of
 * Versions", input A's values except `id`, input B's, which the PATCH needs. The same answer as
 * httpRequestBuild's; `inputTo` connects the input to the list and to Compare Datasets' input A.
 */
function compareDatasetsBuild({ baseUrl, credential, batching, settings }) {
	const clients = `${baseUrl}${CLIENTS_PATH}`;
	const http = { credential, batching, settings };
	return {
		nodes: [
			httpRequestNode(
				{
					id: 'list',
					name: LIST_NODE,
					position: [200, 200],
					executeOnce: true,
					parameters: {
						method: 'GET',
						url: clients,
						sendQuery: true,
						queryParameters: { parameters: [{ name: 'limit', value: String(LIST_PAGE_SIZE) }] },
						options: { pagination: pagesByNumber(LIST_PAGE_SIZE) },
					},
				},
				http,
			),
			{
				id: 'splitOut',
				name: SPLIT_OUT_NODE,
				type: 'n8n-nodes-base.splitOut',
				typeVersion: SPLIT_OUT_VERSION,
				position: [400, 200],
				parameters: { fieldToSplitOut: 'content', options: {} },
			},
			{
				id: 'compare',
				name: COMPARE_NODE,
				type: 'n8n-nodes-base.compareDatasets',
				typeVersion: COMPARE_DATASETS_VERSION,
				position: [600, 0],
				parameters: {
					mergeByFields: { values: [{ field1: 'externalId', field2: 'externalId' }] },
					resolve: 'mix',
					preferWhenMix: 'input1',
					exceptWhenMix: 'id',
					fuzzyCompare: true,
					options: {},
				},
			},
			...writeNodes(clients, { idOf: '$json.id', valueOf: (field) => `$json.${field}` }, http),
		],
		connections: {
			[LIST_NODE]: { main: [[connectTo(SPLIT_OUT_NODE)]] },
			[SPLIT_OUT_NODE]: { main: [[connectTo(COMPARE_NODE, 1)]] },
			// Outputs: In A only, Same, Different, In B only.
			[COMPARE_NODE]: { main: [[connectTo(CREATE_NODE)], [], [connectTo(UPDATE_NODE)], []] },
		},
		inputTo: [connectTo(LIST_NODE), connectTo(COMPARE_NODE, 0)],
		outputs: [UPDATE_NODE, CREATE_NODE],
	};
}

module.exports = {
	CLIENTS_PATH,
	COMPARE_DATASETS_VERSION,
	HTTP_REQUEST_VERSION,
	IF_VERSION,
	LIST_PAGE_SIZE,
	NODE_UPSERT_PARAMETERS,
	ON_ERROR_CONTINUE,
	SYNC_CASES,
	UPSERTED_BY_STATE,
	compareDatasetsBuild,
	connectTo,
	errorItemCount,
	heldBefore,
	httpRequestBuild,
	pagesByNumber,
	recordsNotRight,
	syncJob,
};
