/**
 * The workflows the queue suite runs, as the editor saves them: webhooks that read equipment models
 * (and create a quote) or sync a sheet, and the Equipment Rental Trigger starting workflows that
 * record what it emits.
 */
import { CURRENT_VERSION } from '../../nodes/EquipmentRental/engine/nodeVersions';
import { type Json, rt } from '../e2e/support';

export interface CredentialRef {
	id: string;
	name: string;
}

/**
 * The shortest poll interval n8n accepts. n8n refuses a seconds field with `*` in it ("at least a
 * minute"), but a list of seconds passes: the trigger polls every 5 seconds.
 */
export const POLL_INTERVAL_MS = 5_000;
export const POLL_EVERY_5_SECONDS = {
	item: [{ mode: 'custom', cronExpression: '0,5,10,15,20,25,30,35,40,45,50,55 * * * * *' }],
};

const TRIGGER_TYPE = `${rt.NODE_TYPE}Trigger`;

function node(
	name: string,
	type: string,
	parameters: Json,
	position: number,
	extra: Json = {},
): Json {
	return {
		id: `${name.toLowerCase().replace(/\W+/g, '-')}-node`,
		name,
		type,
		typeVersion: 1,
		position: [position * 260, 0],
		parameters,
		...extra,
	};
}

function rentalNode(
	name: string,
	parameters: Json,
	position: number,
	credential: CredentialRef,
	extra: Json = {},
): Json {
	return node(name, rt.NODE_TYPE, parameters, position, {
		typeVersion: CURRENT_VERSION,
		credentials: { [rt.CREDENTIAL_TYPE]: credential },
		...extra,
	});
}

/** A production webhook that answers with the last node's first item, or all its items. */
function webhook(path: string, responseData: 'firstEntryJson' | 'allEntries'): Json {
	return node(
		'Webhook',
		'n8n-nodes-base.webhook',
		{ httpMethod: 'POST', path, responseMode: 'lastNode', responseData, options: {} },
		0,
		{ typeVersion: 2, webhookId: `${path}-webhook` },
	);
}

/** Nodes in a row, each feeding the next. */
function chain(name: string, nodes: Json[]): Json {
	const connections = Object.fromEntries(
		nodes
			.slice(0, -1)
			.map((from, index) => [
				from.name,
				{ main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]] },
			]),
	);
	return { name, nodes, connections, settings: { executionOrder: 'v1' } };
}

function createQuote(
	name: string,
	fixtures: Record<string, string>,
	amount: string,
	additionalFields: Json,
	position: number,
	credential: CredentialRef,
	extra: Json = {},
): Json {
	return rentalNode(
		name,
		{
			resource: 'quote',
			operation: 'create',
			clientId: fixtures.clientId,
			contractId: fixtures.contractId,
			amount,
			additionalFields,
		},
		position,
		credential,
		extra,
	);
}

/**
 * POST /webhook/<path> with `{ "request": "<name>" }`: Get Many equipment models with Return All,
 * counted (all and distinct ids), then one quote whose amount is the count and whose External ID
 * is the request's name. The webhook answers with the quote once the execution has finished.
 */
export function modelCountQuote(
	path: string,
	fixtures: Record<string, string>,
	credential: CredentialRef,
): Json {
	return chain('Queue load: count models, create a quote', [
		webhook(path, 'firstEntryJson'),
		rentalNode(
			'Get Many Models',
			{ resource: 'equipmentModel', operation: 'getAll', returnAll: true, filters: {} },
			1,
			credential,
		),
		node(
			'Count',
			'n8n-nodes-base.summarize',
			{
				fieldsToSummarize: {
					values: [
						{ aggregation: 'count', field: 'id' },
						{ aggregation: 'countUnique', field: 'id' },
					],
				},
				options: {},
			},
			2,
			{ typeVersion: 1.1 },
		),
		createQuote(
			'Create Quote',
			fixtures,
			'={{ $json.count_id }}',
			{
				externalId: "={{ $('Webhook').first().json.body.request }}",
				metadata: '={{ { distinctModels: $json.unique_count_id } }}',
			},
			3,
			credential,
		),
	]);
}

/**
 * `workflow` (the e2e suite's sheetWorkflow, in Loop Over Items or not) started by a production
 * webhook at POST /webhook/<path> in place of its Manual Trigger, so that a worker runs it; the
 * webhook answers with the last node's items once the execution has ended.
 */
export function startedByWebhook(workflow: Json, path: string): Json {
	const manualTrigger = workflow.nodes.find(
		(candidate: Json) => candidate.type === 'n8n-nodes-base.manualTrigger',
	);
	const { [manualTrigger.name]: fromTrigger, ...connections } = workflow.connections;
	const start = webhook(path, 'allEntries');
	return {
		name: workflow.name,
		nodes: [start, ...workflow.nodes.filter((candidate: Json) => candidate !== manualTrigger)],
		connections: { [start.name]: fromTrigger, ...connections },
		settings: workflow.settings,
	};
}

/**
 * The trigger's model event (every 5 seconds, models whose name contains `search`), then per
 * emitted model: a quote "<model id>:before", a Return All read page by page with small pages
 * (long, when the sandbox is slow), and a quote "<model id>:after".
 */
export function slowReadOnModelChange(
	name: string,
	search: string,
	pageSize: number,
	fixtures: Record<string, string>,
	credential: CredentialRef,
): Json {
	const modelId = "$('Model Changed').first().json.id";
	return chain(name, [
		node(
			'Model Changed',
			TRIGGER_TYPE,
			{ pollTimes: POLL_EVERY_5_SECONDS, event: 'equipmentModelUpdated', filters: { search } },
			0,
			{ credentials: { [rt.CREDENTIAL_TYPE]: credential } },
		),
		createQuote(
			'Quote Before',
			fixtures,
			'1',
			{ externalId: `={{ ${modelId} }}:before` },
			1,
			credential,
		),
		rentalNode(
			'Read All Models Slowly',
			{
				resource: 'equipmentModel',
				operation: 'getAll',
				returnAll: true,
				filters: {},
				options: { pageSize, parallelRequests: 1 },
			},
			2,
			credential,
		),
		createQuote(
			'Quote After',
			fixtures,
			'={{ $input.all().length }}',
			{ externalId: `={{ ${modelId} }}:after` },
			3,
			credential,
			{ executeOnce: true },
		),
	]);
}

/**
 * POST /webhook/<path> with `{ "updatedAfter": "<ISO time>", "search": "<text>" }`: the models
 * changed since then, as a user recovers what a lost trigger execution had (answers every model).
 */
export function modelsChangedSince(path: string, credential: CredentialRef): Json {
	return chain('Queue recovery: models changed since', [
		webhook(path, 'allEntries'),
		rentalNode(
			'Get Many Models',
			{
				resource: 'equipmentModel',
				operation: 'getAll',
				returnAll: true,
				filters: {
					updatedAfter: '={{ $json.body.updatedAfter }}',
					search: '={{ $json.body.search }}',
				},
			},
			1,
			credential,
		),
	]);
}

/**
 * The trigger's model event every 5 seconds; each emitted model becomes a quote whose External ID
 * is "<model id>@<updatedAt>": one quote per change the trigger emitted.
 */
export function recordModelChanges(
	name: string,
	fixtures: Record<string, string>,
	credential: CredentialRef,
): Json {
	return chain(name, [
		node(
			'Model Changed',
			TRIGGER_TYPE,
			{ pollTimes: POLL_EVERY_5_SECONDS, event: 'equipmentModelUpdated', filters: {} },
			0,
			{ credentials: { [rt.CREDENTIAL_TYPE]: credential } },
		),
		createQuote(
			'Record Change',
			fixtures,
			'1',
			{ externalId: '={{ $json.id }}@{{ $json.updatedAt }}' },
			1,
			credential,
		),
	]);
}

/** The trigger's daily distance report from hour 0, polled every 5 seconds; nothing after it. */
export function dailyDistanceReport(name: string, credential: CredentialRef): Json {
	return chain(name, [
		node(
			'Distance Report',
			TRIGGER_TYPE,
			{ pollTimes: POLL_EVERY_5_SECONDS, event: 'dailyDistanceReport', hour: 0 },
			0,
			{ credentials: { [rt.CREDENTIAL_TYPE]: credential } },
		),
	]);
}

/** The trigger's client, contract and product events, each a node of recordMasterDataChanges. */
export const MASTER_DATA_RECORDERS = [
	{ node: 'Client Changed', event: 'clientUpdated' },
	{ node: 'Contract Changed', event: 'contractUpdated' },
	{ node: 'Product Changed', event: 'productUpdated' },
];

/**
 * The trigger's client, contract and product events, each every 5 seconds; each emitted record
 * becomes a quote whose External ID is "<event>:<record id>@<updatedAt>:<changeType>": one quote
 * per change the trigger emitted, telling what it said of it.
 */
export function recordMasterDataChanges(
	name: string,
	fixtures: Record<string, string>,
	credential: CredentialRef,
): Json {
	const pairs = MASTER_DATA_RECORDERS.map(({ node: trigger, event }) => [
		node(trigger, TRIGGER_TYPE, { pollTimes: POLL_EVERY_5_SECONDS, event, filters: {} }, 0, {
			credentials: { [rt.CREDENTIAL_TYPE]: credential },
		}),
		createQuote(
			`Record ${trigger}`,
			fixtures,
			'1',
			{ externalId: `=${event}:{{ $json.id }}@{{ $json.updatedAt }}:{{ $json.changeType }}` },
			1,
			credential,
		),
	]);
	return {
		name,
		nodes: pairs.flat(),
		connections: Object.fromEntries(
			pairs.map(([trigger, record]) => [
				trigger.name,
				{ main: [[{ node: record.name, type: 'main', index: 0 }]] },
			]),
		),
		settings: { executionOrder: 'v1' },
	};
}
