/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-hardcoded-secrets
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * End to end: the built package installed in a real n8n as a community package, a credential
 * pointing at the sandbox, the example workflows and one workflow per operation, each executed
 * headlessly with `n8n execute --id=... --rawOutput`; the items it produced are checked against
 * what the sandbox holds. The trigger runs in an activated workflow of a running n8n server.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { DateTime } from 'luxon';

import {
	MASTER_DATA_KINDS,
	renameRecord,
	type StoredRecord,
	storedRecords,
} from '../harness/records';
import { CHAT_MESSAGES, fillIn } from './chat-messages';
import {
	ERP_EXPORT_FILE,
	ERP_NODES,
	ERP_SYNC_WORKFLOW,
	type ErpKind,
	erpExternalIds,
	erpRecords,
	erpRows,
	type ErpStore,
	storeCounts,
} from './erp-sync';
import { type FakeChatModel, FINAL_ANSWER_PREFIX, startFakeChatModel } from './fake-chat-model';
import { type Execution, type N8nServer, RUNNING_STATUSES, startN8nServer } from './n8n-server';
import {
	api,
	contractViolations,
	EXPECTATION_HEADER,
	type Json,
	nodeLogicTest,
	onN8n,
	operationWorkflow,
	type PreparedFolder,
	parseCsv,
	rt,
	type RunResult,
	type Sandbox,
	type SandboxRequest,
	sheetWorkflow,
	inLoop,
	start,
	UUID,
	waitFor,
} from './support';
import { WHOLE_READ_PAGE_SIZE } from '../../nodes/EquipmentRental/writes/wholeReads';
import { CLIENT_SYNC, clientsOfLastNight, nightlyRows } from '../harness/syncs';
import { CLIENTS } from '../harness/writes';
import { EXT, STRUCTURE_ID, WRITES_WORKFLOW, writesWorkflow } from './writes';
import { GERMAN_CSV, germanCsvWorkflow, placeGermanCsv } from './germanCsv';

const TOKEN = 'e2e-token-5f0c2d';
const BAD_CREDENTIAL = { id: 'eqRentalBadToken', name: 'Equipment Rental wrong token' };
/** The fake chat model's credential, which the tests give the AI-agent example's chat model. */
const OPENAI_CREDENTIAL = { id: 'e2eFakeChatModel', name: 'Fake chat model', type: 'openAiApi' };
/**
 * The n8n versions whose credential test ignores a credential's rules for status codes: their
 * tester looks for the status where their HTTP client no longer puts it (error.cause.response).
 */
const CREDENTIAL_RULES_IGNORED = ['1.123.81', '2.8.4'];
/**
 * n8n versions that give a declarative node with listSearch methods (the pickers) no way to run as an
 * AI tool: n8n 1.85's shouldAssignExecuteMethod (n8n/dist/utils.js) leaves out nodes with `methods`,
 * so the tool answers an empty item and sends nothing; 1.123 assigns it to declarative nodes too
 * (README, Limits).
 */
const TOOLS_NOT_RUN = ['1.85.4'];
const toolsRun = !TOOLS_NOT_RUN.includes(rt.n8nVersion());

/** On the versions of TOOLS_NOT_RUN, what the agent's tools do there: answer nothing, send nothing. */
function expectToolsNotRun(result: RunResult & { sent: SandboxRequest[] }, tool: string): void {
	expectSuccess(result);
	expect(result.sent).toEqual([]);
	const [toolRun] = result.run.data.resultData.runData[tool];
	expect(toolRun.data.ai_tool[0].map((item: Json) => item.json)).toEqual([{}]);
}
const QUOTES_PATH = '/master-data/v1/quote-management/quotes';
const MODELS_PATH = '/master-data/v1/equipment-management/models';
const EQUIPMENTS_PATH = '/master-data/v1/equipment-management/equipments';
/**
 * The longest wait for a poll of the workflows the trigger tests activate: they poll every 15
 * seconds (pollEvery15Seconds); the rest is room for a loaded machine.
 */
const NEXT_POLL_TIMEOUT_MS = 45_000;
const MODEL_TRIGGER = 'Equipment model changed';
/** The model-change-alert example polling every 15 seconds (modelChangeAlertEvery15s). */
const MODEL_ALERT_EVERY_15S = 'exModelChangeAlert15s';
/** The workflow of the client, contract and product events (masterDataTriggerWorkflow). */
const MASTER_DATA_WORKFLOW = 'trMasterDataChanges';
const DISTANCE_TRIGGER = 'Daily distance report';
/** The trigger's default Overlap: how far back its baseline poll asks, by n8n's clock. */
const OVERLAP_MS = 10 * 60_000;

let sandbox: Sandbox;
let fx: Record<string, string>;
/** IDs the every-operation example does not touch, for the per-operation workflows. */
/** The inventory the every-operation example deletes, as seeded. */
let fixtureInventory: Json;
let other: {
	serviceProductId: string;
	inventoryId: string;
	personProductId: string;
	personPriceId: string;
	/** A tier of the fixture product that starts above 1, e.g. "From 3". */
	furtherTierId: string;
};
let n8n: PreparedFolder;
let chatModel: FakeChatModel;
/** What the fake chat model passes to the quote tool of the AI-agent example. */
let quoteToolArguments: Json;
let tmp: string;
const timings: Array<[string, number]> = [];

/** Runs a workflow and returns it with the requests the node sent to the sandbox meanwhile. */
async function run(
	id: string,
	env?: Record<string, string>,
): Promise<RunResult & { sent: SandboxRequest[] }> {
	const before = sandbox.requests.length;
	const result = await n8n.run(id, env ? { env } : undefined);
	timings.push([id, result.ms]);
	return { ...result, sent: sandbox.requests.slice(before) };
}

/** Fails with n8n's own account of the error when the run did not succeed. */
function expectSuccess(result: RunResult): void {
	if (result.status !== 'success') {
		const e = result.error;
		throw new Error(
			`execution ${result.status}: ${e?.message}${e?.description ? ` (${e.description})` : ''}` +
				`${e?.node ? ` in node "${e.node.name}"` : ''}\n${result.stderr.slice(-2000)}`,
		);
	}
}

function items(result: RunResult, node: string, output = 0): Json[] {
	const out = result.node(node, output);
	if (!out)
		throw new Error(
			`node "${node}" did not run; ran: ${Object.keys(result.run.data.resultData.runData)}`,
		);
	return out;
}

/**
 * The export's clients, contact persons and contracts in the sandbox's store, one record per
 * external ID, each with the values of its row and tied to the client of its row.
 */
function expectExportInStore(): Record<ErpKind, Json[]> {
	const records = erpRecords(sandbox.store as unknown as ErpStore);
	const ids = erpExternalIds();
	for (const kind of Object.keys(ids) as ErpKind[])
		expect([kind, records[kind].map((record) => record.externalId).sort()]).toEqual([
			kind,
			[...ids[kind]].sort(),
		]);
	const byExternalId = (kind: ErpKind, externalId: string) =>
		records[kind].find((record) => record.externalId === externalId);
	for (const row of erpRows()) {
		const client = byExternalId('clients', row.client_id)!;
		expect(client).toMatchObject({
			name: row.client_name,
			city: row.client_city,
			email: row.client_email,
		});
		expect(byExternalId('contactPersons', row.contact_id)).toMatchObject({
			clientId: client.id,
			name: row.contact_name,
			isMain: row.contact_is_main === 'true',
			email: row.contact_email,
			phone: row.contact_phone,
		});
		expect(byExternalId('contracts', row.contract_id)).toMatchObject({
			clientId: client.id,
			title: row.contract_title,
			startDate: `${row.contract_start}T00:00:00.000Z`,
			endDate: `${row.contract_end}T00:00:00.000Z`,
			structureId: row.branch_id,
			contactName: row.contact_name,
			// Sent as the create page's contractPosition, read back as the model's contactPosition.
			contactPosition: row.contact_position,
		});
	}
	return records;
}

/** What each write node of the ERP sync output: per kind, [external ID, upserted, id] per item. */
function erpOutput(result: RunResult): Record<ErpKind, Array<[string, string, string]>> {
	const out = {} as Record<ErpKind, Array<[string, string, string]>>;
	for (const [kind, node] of Object.entries(ERP_NODES) as Array<[ErpKind, string]>)
		out[kind] = items(result, node).map((item) => [item.externalId, item.upserted, item.id]);
	return out;
}

/** Runs a workflow while the sandbox loses the answers of some `method` requests it carries out. */
async function runWithLostAnswers(
	id: string,
	method: 'POST' | 'PATCH',
	rate: number,
	seed: number,
): Promise<RunResult & { sent: SandboxRequest[] }> {
	sandbox.setOptions({ faults: { rate, kinds: ['lost-answer'], methods: [method], seed } });
	try {
		return await run(id);
	} finally {
		sandbox.setOptions({ faults: null });
	}
}

/** The requests of a run whose answers the sandbox lost. */
function lostAnswers(result: { sent: SandboxRequest[] }): SandboxRequest[] {
	return result.sent.filter(
		(r) => (r as SandboxRequest & { fault?: string }).fault === 'lost-answer',
	);
}

/** `record` without `keys`. */
function without(record: Json, keys: string[]): Json {
	return Object.fromEntries(Object.entries(record).filter(([key]) => !keys.includes(key)));
}

/** The workflows of a run that fails with Continue On Fail off (issue 35). */
const FAILED_RUN = {
	badSheet: 'sheetClientsOneBadEmail',
	fixedSheet: 'sheetClientsFixed',
	upsertSheet: 'sheetClientsSyncStopped',
} as const;

/** 100 new clients, each with its own external ID; row 10's e-mail is no address unless fixed. */
function failedRunRows(withBadEmail: boolean): Json[] {
	return [...Array(100).keys()].map((index) => ({
		name: `E2E failed run ${index}`,
		externalId: `E2E-FR-${index}`,
		email: index === 10 && withBadEmail ? 'not-an-email' : `office${index}@example.com`,
	}));
}

/** 300 clients for Create or Update, each with its own external ID. */
function upsertRunRows(): Json[] {
	return [...Array(300).keys()].map((index) => ({
		name: `E2E stopped sync ${index}`,
		externalId: `E2E-SS-${index}`,
	}));
}

/** The workflows of the 100 clients previewed, then written (issue 42). */
const PREVIEWED_SHEET = {
	seed: 'sheetClientsPreviewSeed',
	preview: 'sheetClientsPreview',
	write: 'sheetClientsPreviewWrite',
} as const;

/**
 * A sheet of 100 clients: the 60 the API holds already (the seed) and 40 new; the sheet renames the
 * first 10 it holds.
 */
function previewedRows(seed: boolean): Json[] {
	return [...Array(seed ? 60 : 100).keys()].map((index) => ({
		externalId: `E2E-PV-${index}`,
		name: `E2E preview ${index}${!seed && index < 10 ? ' (renamed)' : ''}`,
	}));
}

/**
 * The nightly sync (issue 36): a sheet of 1,000 clients through Create or Update with the node's
 * defaults, against 1,000 clients the API holds already, 1% of them with another name.
 */
const NIGHTLY_SYNC = {
	workflow: 'sheetClientsNightly',
	node: 'Sync clients nightly',
	prefix: 'E2E-NS',
} as const;

/** The same sync in Loop Over Items of 100 (issue 43): its batches share one read of the clients. */
const LOOPED_SYNC = {
	workflow: 'sheetClientsLooped',
	node: 'Sync clients in a loop',
	batchSize: 100,
	prefix: 'E2E-LS',
} as const;

/** The sandbox's clients whose external ID starts with `prefix`. */
function clientsWithPrefix(prefix: string): Json[] {
	return (sandbox.store as unknown as ErpStore).clients.filter((client: Json) =>
		String(client.externalId ?? '').startsWith(prefix),
	);
}

/** A picker's value as the editor saves it after a pick from the list. */
const picked = (value: string) => ({ __rl: true, mode: 'list', value });

/**
 * The every-operation example exactly as version 0.2.0 of this package shipped it: IDs as plain
 * text in the fields that are pickers now, and Calculation Type sent as Fixed.
 */
function everyOperationAsSavedBy020(): Json {
	return JSON.parse(
		fs.readFileSync(path.join(__dirname, 'fixtures', 'every-operation-0.2.0.json'), 'utf8'),
	);
}

/** A workflow that starts with the trigger's daily distance report and does nothing else. */
function distanceTriggerWorkflow(): Json {
	return {
		id: 'trDistanceReport',
		name: 'e2e: daily distance report trigger',
		active: false,
		nodes: [
			{
				id: 'trDistanceReport-trigger',
				name: DISTANCE_TRIGGER,
				type: `${rt.PACKAGE_NAME}.equipmentRentalTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: { item: [{ mode: 'everyHour' }] }, event: 'dailyDistanceReport' },
				credentials: {
					[rt.CREDENTIAL_TYPE]: { id: rt.CREDENTIAL_ID, name: rt.CREDENTIAL_NAME },
				},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * Every 15 seconds, from `offsetSeconds` (0-14) on: four custom schedules, each a minute apart at
 * its own second (n8n 2.41 refuses a seconds field that is not a plain number as "too short"), so
 * that the tests wait for a poll for seconds, not a minute.
 */
function pollEvery15Seconds(offsetSeconds = 0) {
	return {
		item: [0, 15, 30, 45].map((second) => ({
			mode: 'custom',
			cronExpression: `${second + offsetSeconds} * * * * *`,
		})),
	};
}
/**
 * Seconds between the polls of two trigger nodes of one workflow: n8n 2.41 fails all but one of the
 * polls that one workflow's triggers start in the same second ("No bridge acquired for this
 * context": they share one expression isolate, and the first poll to end releases it).
 */
const TRIGGER_STAGGER_SECONDS = 5;

/** The master-data events of the trigger, each a node of masterDataTriggerWorkflow. */
const MASTER_DATA_TRIGGERS = MASTER_DATA_KINDS.map((kind) => ({
	...kind,
	node: kind.name.replace(' Created or Updated', ' changed'),
}));

/**
 * The model-change-alert example as shipped, but polling every 15 seconds instead of every minute,
 * so that the test of its activation waits seconds for the next poll.
 */
function modelChangeAlertEvery15s(): Json {
	const example = rt.loadExamples().find((wf) => wf.id === 'exModelChangeAlert')!;
	const nodes = example.nodes.map((node: Json) =>
		node.name === MODEL_TRIGGER
			? { ...node, parameters: { ...node.parameters, pollTimes: pollEvery15Seconds() } }
			: node,
	);
	return { ...example, id: MODEL_ALERT_EVERY_15S, name: `${example.name} (every 15 s)`, nodes };
}

/** The error workflow of CLIENTS_BY_WEBHOOK: an Error Trigger, which outputs what n8n hands it. */
const ERROR_WORKFLOW = 'errErrorWorkflow';
/** Reads the clients a webhook call names (`?ids=a,b`), one item each; ERROR_WORKFLOW handles its errors. */
const CLIENTS_BY_WEBHOOK = 'errClientsByWebhook';
const CLIENTS_WEBHOOK_PATH = 'e2e-clients-by-id';

function errorWorkflow(): Json {
	return {
		id: ERROR_WORKFLOW,
		name: 'e2e: error workflow',
		active: false,
		nodes: [
			{
				id: `${ERROR_WORKFLOW}-trigger`,
				name: 'Error Trigger',
				type: 'n8n-nodes-base.errorTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
		],
		connections: {},
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * A webhook (an execution that is not manual, so that n8n runs the error workflow), one item per ID
 * of its `ids` query, and Client > Get of each, one at a time; Settings > Error Workflow is
 * ERROR_WORKFLOW.
 */
function clientsByWebhookWorkflow(): Json {
	const workflow = operationWorkflow(CLIENTS_BY_WEBHOOK, 'e2e: clients named by a webhook call', [
		{
			name: 'Get client',
			parameters: {
				resource: 'client',
				operation: 'get',
				clientId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
				requestOptions: { parallelRequests: 1 },
			},
		},
	]);
	const [, rental] = workflow.nodes;
	const webhook = {
		id: `${CLIENTS_BY_WEBHOOK}-webhook`,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: '5d2f0c3e-7a4b-4e1f-9c8d-2b6a1e0f4c37',
		parameters: { path: CLIENTS_WEBHOOK_PATH, httpMethod: 'GET', responseMode: 'onReceived' },
	};
	const ids = {
		id: `${CLIENTS_BY_WEBHOOK}-ids`,
		name: 'Client IDs',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		position: [150, 0],
		parameters: {
			jsCode: "return $input.first().json.query.ids.split(',').map((id) => ({ json: { id } }));",
		},
	};
	return {
		...workflow,
		nodes: [webhook, ids, rental],
		connections: {
			Webhook: { main: [[{ node: ids.name, type: 'main', index: 0 }]] },
			[ids.name]: { main: [[{ node: rental.name, type: 'main', index: 0 }]] },
		},
		settings: { ...workflow.settings, errorWorkflow: ERROR_WORKFLOW },
	};
}

/**
 * A workflow that starts with the trigger's client, contract and product events, a trigger node
 * each, and does nothing else.
 */
function masterDataTriggerWorkflow(): Json {
	return {
		id: MASTER_DATA_WORKFLOW,
		name: 'e2e: client, contract and product changes',
		active: false,
		nodes: MASTER_DATA_TRIGGERS.map((kind, index) => ({
			id: `trMasterDataChanges-${kind.event}`,
			name: kind.node,
			type: `${rt.PACKAGE_NAME}.equipmentRentalTrigger`,
			typeVersion: 1,
			position: [0, index * 200],
			parameters: {
				pollTimes: pollEvery15Seconds(index * TRIGGER_STAGGER_SECONDS),
				event: kind.event,
				filters: {},
			},
			credentials: {
				[rt.CREDENTIAL_TYPE]: { id: rt.CREDENTIAL_ID, name: rt.CREDENTIAL_NAME },
			},
		})),
		connections: {},
		settings: { executionOrder: 'v1' },
		pinData: {},
	};
}

/**
 * The AI-agent example as a user runs it once they gave its chat model a credential: here the one
 * of the fake chat model. n8n without AI Agent version 3 (1.85 in the matrix) cannot open the
 * example; there it runs with the agent at version 1.8 (its Tools Agent), the tool node unchanged.
 */
const HAS_AGENT_V3 = fs.existsSync(
	path.join(rt.cacheDir(), 'node_modules/@n8n/n8n-nodes-langchain/dist/nodes/agents/Agent/V3'),
);
const AI_AGENT_EXAMPLE = 'exAiAgentQuote';
const AI_AGENT_WITH_MODEL = 'exAiAgentQuoteWithModel';

function agentWithModel(): Json {
	const example = rt.loadExamples().find((wf) => wf.id === AI_AGENT_EXAMPLE)!;
	const nodes = example.nodes.map((node: Json) => {
		if (node.name === 'OpenAI Chat Model')
			return {
				...node,
				credentials: { openAiApi: { id: OPENAI_CREDENTIAL.id, name: OPENAI_CREDENTIAL.name } },
			};
		if (node.name === 'AI Agent' && !HAS_AGENT_V3)
			return { ...node, typeVersion: 1.8, parameters: { ...node.parameters, agent: 'toolsAgent' } };
		return node;
	});
	return { ...example, id: AI_AGENT_WITH_MODEL, nodes };
}

const CHAT_MESSAGES_WORKFLOW = 'exChatQuoteMessages';

/** The chat example as shipped, but its sample node sends every message of CHAT_MESSAGES. */
function chatMessagesVariant(): Json {
	const example = rt.loadExamples().find((wf) => wf.id === 'exChatQuote')!;
	const messages = CHAT_MESSAGES.map(({ text }) => fillIn(text, fx));
	const nodes = example.nodes.map((node: Json) =>
		node.name === 'Sample message'
			? {
					...node,
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					parameters: {
						jsCode: `return ${JSON.stringify(messages)}.map((chatInput) => ({ json: { chatInput, sessionId: 'e2e' } }));`,
					},
				}
			: node,
	);
	return { ...example, id: CHAT_MESSAGES_WORKFLOW, name: 'e2e: chat messages', nodes };
}

const FROM_EDITOR_AGENT_WORKFLOW = 'exAiAgentQuoteFromEditor';

/**
 * The AI-agent example as a user builds it from the nodes panel: "Let the model define this
 * parameter" on Client ID, Contract ID and Amount writes $fromAI with the field's label as key and
 * an empty description (n8n's editor, fromAIOverrideUtils), and the tool is described automatically.
 */
function fromEditorAgentVariant(): Json {
	const base = agentWithModel();
	const byModel = (key: string, type: string) =>
		`={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', \`\`, '${type}') }}`;
	const nodes = base.nodes.map((node: Json) =>
		node.name === 'Create quote'
			? {
					...node,
					parameters: {
						resource: 'quote',
						operation: 'create',
						// Pickers: the editor's "Let the model define this parameter" fills their By ID mode.
						clientId: { __rl: true, mode: 'id', value: byModel('Client_ID', 'string') },
						contractId: { __rl: true, mode: 'id', value: byModel('Contract_ID', 'string') },
						amount: byModel('Amount', 'number'),
					},
				}
			: node,
	);
	return { ...base, id: FROM_EDITOR_AGENT_WORKFLOW, name: 'e2e: agent built in the editor', nodes };
}

/**
 * The rows of an XLSX file's first sheet, header row first, empty cells null: read with the xlsx
 * package of the n8n under test, the one its Convert to File wrote the file with (n8n-nodes-base
 * requires it as `xlsx` up to 2.8, as `@e965/xlsx` in 2.41).
 */
function readXlsx(file: string): { sheet: string; rows: unknown[][] } {
	const nodesBase = path.dirname(
		require.resolve('n8n-nodes-base/package.json', { paths: [rt.cacheDir()] }),
	);
	const resolvable = (name: string) => {
		try {
			return require.resolve(name, { paths: [nodesBase] });
		} catch {
			return undefined;
		}
	};
	const xlsxPath = resolvable('xlsx') ?? resolvable('@e965/xlsx');
	if (!xlsxPath) throw new Error(`no xlsx package beside ${nodesBase}`);
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const xlsx = require(xlsxPath);
	const book = xlsx.read(fs.readFileSync(file));
	const [sheet] = book.SheetNames as string[];
	return {
		sheet,
		rows: xlsx.utils.sheet_to_json(book.Sheets[sheet], { header: 1, defval: null }),
	};
}

const TIERS_CSV = path.join(rt.EXAMPLE_FILES_DIR, 'e2e-price-list-tiers.csv');

/** The price list's tiers, converted to CSV as the README's spreadsheet sync does (Convert to File). */
function withTiersToCsv(workflow: Json): Json {
	const csv = {
		id: `${workflow.id}-csv`,
		name: 'Tiers to CSV',
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		position: [600, 0],
		parameters: { operation: 'csv', binaryPropertyName: 'data', options: { headerRow: true } },
	};
	const write = {
		id: `${workflow.id}-write`,
		name: 'Write tiers CSV',
		type: 'n8n-nodes-base.readWriteFile',
		typeVersion: 1,
		position: [900, 0],
		parameters: { operation: 'write', fileName: TIERS_CSV, dataPropertyName: 'data', options: {} },
	};
	return {
		...workflow,
		nodes: [...workflow.nodes, csv, write],
		connections: {
			...workflow.connections,
			'One item per tier': { main: [[{ node: csv.name, type: 'main', index: 0 }]] },
			[csv.name]: { main: [[{ node: write.name, type: 'main', index: 0 }]] },
		},
	};
}

/** The product whose first two tiers the German sheet prices: one no other test reads. */
function germanCsvTiers(): { productId: string; tierIds: string[] } {
	const product = [...(sandbox.store.products as Map<string, Json>).values()].find(
		(candidate) => candidate.title === 'LED tower light',
	)!;
	return {
		productId: product.id,
		tierIds: product.priceItems.slice(0, 2).map((tier: Json) => tier.id),
	};
}

function germanCsvWorkflows(): Json[] {
	const fixtures = { clientId: fx.clientId, contractId: fx.contractId, ...germanCsvTiers() };
	return [
		germanCsvWorkflow(GERMAN_CSV.withCommaFormat, fixtures, '1.234,56'),
		germanCsvWorkflow(GERMAN_CSV.withDefaultFormat, fixtures),
	];
}

function operationWorkflows(): Json[] {
	return [
		operationWorkflow('opQuoteCreate', 'e2e: quote create', [
			{
				name: 'Create quote',
				parameters: {
					resource: 'quote',
					operation: 'create',
					clientId: fx.clientId,
					contractId: fx.contractId,
					amount: 1250.5,
					additionalFields: {
						quoteId: 'Q-E2E-0001',
						status: 'PENDING',
						date: '2026-03-01',
						deadline: '2026-03-15',
						bookingIds: fx.bookingId,
						externalId: 'ext-e2e-1',
						mediaName: 'site-plan.pdf',
					},
				},
			},
		]),
		withTiersToCsv(
			operationWorkflow('opPriceList', 'e2e: product getCustomPriceList', [
				{
					name: 'One item per tier',
					parameters: {
						resource: 'product',
						operation: 'getCustomPriceList',
						customPriceId: fx.customPriceId,
						returnAll: true,
						options: { output: 'tier' },
					},
				},
				{
					name: 'All entries',
					parameters: {
						resource: 'product',
						operation: 'getCustomPriceList',
						customPriceId: fx.customPriceId,
						returnAll: true,
					},
				},
				{
					name: 'First 2 equipment entries',
					parameters: {
						resource: 'product',
						operation: 'getCustomPriceList',
						customPriceId: fx.customPriceId,
						returnAll: false,
						limit: 2,
						filters: { type: 'EQUIPMENT' },
					},
				},
			]),
		),
		operationWorkflow('opPriceItem', 'e2e: product updatePriceItem', [
			{
				name: 'Update price item',
				parameters: {
					resource: 'product',
					operation: 'updatePriceItem',
					productId: fx.equipmentProductId,
					priceId: fx.priceId,
					from: 1,
					price: 399.5,
				},
			},
		]),
		// A sheet of ERP client IDs, one cell blank and one row without the column (issue 25.1).
		sheetWorkflow(
			'sheetBlankClient',
			'e2e: a sheet with a blank client cell',
			[{ clientId: fx.acmeClientId }, { clientId: '' }, { name: 'no client column' }],
			{
				name: 'Contracts of the client',
				parameters: {
					resource: 'contract',
					operation: 'getAll',
					returnAll: true,
					filters: { clientId: '={{ $json.clientId }}' },
				},
			},
		),
		// A sheet of 100 new clients with one bad e-mail, then the same sheet fixed (issue 35).
		...[FAILED_RUN.badSheet, FAILED_RUN.fixedSheet].map((id) =>
			sheetWorkflow(
				id,
				`e2e: ${id}`,
				failedRunRows(id === FAILED_RUN.badSheet),
				{
					name: 'Create clients',
					parameters: {
						resource: 'client',
						operation: 'create',
						name: '={{ $json.name }}',
						additionalFields: {
							externalId: '={{ $json.externalId }}',
							email: '={{ $json.email }}',
						},
					},
				},
				{ onError: 'stop' },
			),
		),
		// A sheet of 100 clients previewed, then written (issue 42).
		...Object.values(PREVIEWED_SHEET).map((id) =>
			sheetWorkflow(id, `e2e: ${id}`, previewedRows(id === PREVIEWED_SHEET.seed), {
				name: 'Sync clients',
				parameters: {
					resource: 'client',
					operation: 'upsert',
					writeMode: id === PREVIEWED_SHEET.preview ? 'preview' : 'write',
					externalId: '={{ $json.externalId }}',
					name: '={{ $json.name }}',
				},
			}),
		),
		// 300 rows through Create or Update, of which the sandbox fails one (issue 35).
		sheetWorkflow(
			FAILED_RUN.upsertSheet,
			'e2e: a sync the API stops',
			upsertRunRows(),
			{
				name: 'Sync clients',
				parameters: {
					resource: 'client',
					operation: 'upsert',
					externalId: '={{ $json.externalId }}',
					name: '={{ $json.name }}',
				},
			},
			{ onError: 'stop' },
		),
		...[NIGHTLY_SYNC, LOOPED_SYNC].map((sync) => {
			const workflow = sheetWorkflow(
				sync.workflow,
				`e2e: a nightly sync of 1,000 clients${sync === LOOPED_SYNC ? ' in Loop Over Items' : ''}`,
				nightlyRows(sync.prefix),
				{ name: sync.node, parameters: CLIENT_SYNC },
				{ onError: 'stop' },
			);
			return sync === LOOPED_SYNC
				? inLoop(workflow, LOOPED_SYNC.node, LOOPED_SYNC.batchSize)
				: workflow;
		}),
		// A price sheet that names the tier and a new price only: From Quantity left empty (25.2).
		sheetWorkflow(
			'sheetPrices',
			'e2e: a price sheet without quantities',
			[{ productId: fx.equipmentProductId, priceId: other.furtherTierId, price: 99 }],
			{
				name: 'Update price',
				parameters: {
					resource: 'product',
					operation: 'updatePriceItem',
					productId: '={{ $json.productId }}',
					priceId: '={{ $json.priceId }}',
					price: '={{ $json.price }}',
				},
			},
		),
		operationWorkflow('opAttach', 'e2e: product attach', [
			{
				name: 'Attach service',
				parameters: {
					resource: 'product',
					operation: 'attach',
					productId: fx.equipmentProductId,
					serviceProductId: other.serviceProductId,
				},
			},
		]),
		operationWorkflow('opAttachRefused', 'e2e: product attach (not a service)', [
			{
				name: 'Attach person',
				parameters: {
					resource: 'product',
					operation: 'attach',
					productId: fx.equipmentProductId,
					serviceProductId: fx.personProductId,
				},
			},
		]),
		operationWorkflow('opReleaseUpdate', 'e2e: release update', [
			{
				name: 'Update release',
				parameters: {
					resource: 'release',
					operation: 'update',
					releaseId: fx.releaseId,
					updateFields: {
						quantity: 2.5,
						reason: 'Partial return',
						externalId: 'ext-rel-1',
						bookingId: fx.bookingId,
					},
				},
			},
		]),
		operationWorkflow('opInventoryDelete', 'e2e: inventory delete', [
			{
				name: 'Delete inventory',
				parameters: { resource: 'inventory', operation: 'delete', inventoryId: other.inventoryId },
			},
		]),
		operationWorkflow('opModels', 'e2e: equipmentModel getAll', [
			{
				name: 'Brand, all pages',
				parameters: {
					resource: 'equipmentModel',
					operation: 'getAll',
					returnAll: true,
					filters: { brandId: fx.brandId },
				},
			},
			{
				name: 'Search, first 5',
				parameters: {
					resource: 'equipmentModel',
					operation: 'getAll',
					returnAll: false,
					limit: 5,
					filters: { search: 'komatsu' },
				},
			},
			{
				name: 'By IDs',
				parameters: {
					resource: 'equipmentModel',
					operation: 'getAll',
					returnAll: true,
					filters: { ids: `${fx.modelId}, ${(sandbox.store.models as Json[])[1].id}` },
				},
			},
		]),
		operationWorkflow('opDistance', 'e2e: equipmentDistance get', [
			{
				name: 'Distances',
				parameters: { resource: 'equipmentDistance', operation: 'get', date: fx.distanceDate },
			},
		]),
		operationWorkflow('opLookups', 'e2e: the reference reads, with pickers', [
			{
				name: 'Client',
				parameters: { resource: 'client', operation: 'get', clientId: picked(fx.acmeClientId) },
			},
			{
				name: 'Client by external ID',
				parameters: {
					resource: 'client',
					operation: 'getByExternalId',
					externalId: fx.clientExternalId,
				},
			},
			{
				name: 'Clients named Acme',
				parameters: {
					resource: 'client',
					operation: 'getAll',
					returnAll: true,
					filters: { search: 'acme' },
				},
			},
			{
				name: 'Contract',
				parameters: {
					resource: 'contract',
					operation: 'get',
					contractId: picked(fx.acmeBerlinContractId),
				},
			},
			{
				name: 'Contract by external ID',
				parameters: {
					resource: 'contract',
					operation: 'getByExternalId',
					externalId: fx.contractExternalId,
				},
			},
			{
				name: "Acme's contracts",
				parameters: {
					resource: 'contract',
					operation: 'getAll',
					returnAll: true,
					filters: { clientId: fx.acmeClientId },
				},
			},
			{
				name: 'Product',
				parameters: {
					resource: 'product',
					operation: 'get',
					productId: picked(fx.equipmentProductId),
				},
			},
			{
				name: 'Product by external ID',
				parameters: {
					resource: 'product',
					operation: 'getByExternalId',
					externalId: fx.productExternalId,
				},
			},
			{
				name: 'Services',
				parameters: {
					resource: 'product',
					operation: 'getAll',
					returnAll: true,
					filters: { type: 'SERVICE' },
				},
			},
			{
				name: 'Booking',
				parameters: { resource: 'booking', operation: 'get', bookingId: fx.bookingId },
			},
			{
				name: 'Booking by external ID',
				parameters: {
					resource: 'booking',
					operation: 'getByExternalId',
					externalId: fx.bookingExternalId,
				},
			},
			{
				name: 'Equipment',
				parameters: {
					resource: 'equipment',
					operation: 'get',
					equipmentId: picked(fx.equipmentId),
				},
			},
			{
				name: 'All equipment',
				parameters: { resource: 'equipment', operation: 'getAll', returnAll: true },
			},
			{
				name: 'Usage',
				parameters: { resource: 'equipmentUsage', operation: 'get', date: fx.usageDate },
			},
			{
				name: 'Working hours',
				parameters: { resource: 'equipmentWorkingHours', operation: 'get', date: fx.usageDate },
			},
		]),
		operationWorkflow('opLookupWrites', 'e2e: add and delete a price item, detach a service', [
			{
				name: 'Add price item',
				parameters: {
					resource: 'product',
					operation: 'addPriceItem',
					productId: picked(fx.equipmentProductId),
					from: 30,
					price: 77.5,
				},
			},
			{
				name: 'Delete price item',
				parameters: {
					resource: 'product',
					operation: 'deletePriceItem',
					productId: picked(other.personProductId),
					priceId: picked(other.personPriceId),
				},
			},
			{
				name: 'Detach service',
				parameters: {
					resource: 'product',
					operation: 'detach',
					productId: picked(fx.inventoryProductId),
					serviceProductId: picked(fx.serviceProductId),
				},
			},
		]),
		writesWorkflow(),
		...germanCsvWorkflows(),
		{ ...everyOperationAsSavedBy020(), id: 'exEveryOperation020' },
		distanceTriggerWorkflow(),
		modelChangeAlertEvery15s(),
		masterDataTriggerWorkflow(),
		errorWorkflow(),
		clientsByWebhookWorkflow(),
		operationWorkflow('opBadCredential', 'e2e: wrong access token', [
			{
				name: 'Models with a wrong token',
				parameters: { resource: 'equipmentModel', operation: 'getAll', returnAll: false, limit: 1 },
				credential: BAD_CREDENTIAL,
			},
		]),
	];
}

beforeAll(async () => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
	sandbox = await start({ token: TOKEN });
	fx = sandbox.store.fixtures;
	const services = [...(sandbox.store.products as Map<string, Json>).values()].filter(
		(p) => p.type === 'SERVICE',
	);
	const person = (sandbox.store.products as Map<string, Json>).get(fx.personProductId)!;
	fixtureInventory = { ...(sandbox.store.inventories as Map<string, Json>).get(fx.inventoryId)! };
	other = {
		personProductId: person.id,
		personPriceId: person.priceItems.at(-1).id,
		furtherTierId: (sandbox.store.products as Map<string, Json>)
			.get(fx.equipmentProductId)!
			.priceItems.find((item: Json) => item.from > 1).id,
		serviceProductId: services.find((p) => p.id !== fx.serviceProductId)!.id,
		inventoryId: [...(sandbox.store.inventories as Map<string, Json>).keys()].find(
			(id) => id !== fx.inventoryId,
		)!,
	};
	quoteToolArguments = {
		clientId: fx.clientId,
		contractId: fx.contractId,
		amount: 1250.5,
		startDate: '2026-06-03T08:00:00Z',
		endDate: '2026-06-07T17:00:00Z',
	};
	chatModel = await startFakeChatModel();
	const started = Date.now();
	n8n = await rt.prepareUserFolder(path.join(tmp, 'user'), {
		sandboxUrl: sandbox.url,
		token: TOKEN,
		workflows: [
			...operationWorkflows(),
			agentWithModel(),
			chatMessagesVariant(),
			fromEditorAgentVariant(),
		],
		credentials: [
			{
				...BAD_CREDENTIAL,
				type: rt.CREDENTIAL_TYPE,
				data: { baseUrl: sandbox.url, accessToken: 'wrong-token' },
			},
			{ ...OPENAI_CREDENTIAL, data: { apiKey: 'sk-e2e-fake', url: chatModel.url } },
		],
	});
	timings.push(['prepare user folder + imports', Date.now() - started]);
}, 600_000);

afterAll(async () => {
	await chatModel?.close();
	await sandbox?.close();
	if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
	const total = timings.reduce((sum, [, ms]) => sum + ms, 0);
	// eslint-disable-next-line no-console -- the timings are this suite's report
	console.log(
		`[e2e] n8n ${rt.n8nVersion()} timings (ms):\n` +
			timings.map(([what, ms]) => `  ${what.padEnd(32)} ${ms}`).join('\n') +
			`\n  ${'total'.padEnd(32)} ${total}`,
	);
});

describe(onN8n('the package in a real n8n'), () => {
	it('imports the example workflows', () => {
		expect(n8n.examples.map((wf) => wf.file)).toEqual([
			'ai-agent-quote.json',
			'chat-quote-creation.json',
			'daily-distance-report.json',
			'daily-report-to-spreadsheet.json',
			'erp-sync.json',
			'every-operation.json',
			'model-change-alert.json',
			'scheduled-model-sync.json',
			'sync-change-messages.json',
		]);
	});
});

describe(onN8n('example workflows'), () => {
	it('every-operation: each operation runs once against the seeded sandbox', async () => {
		const example = n8n.examples.find((wf) => wf.file === 'every-operation.json')!;
		// Its IDs are the sandbox's seeded fixtures (seed 1): they must not drift.
		const text = JSON.stringify(example.nodes);
		for (const key of [
			'clientId',
			'contractId',
			'customPriceId',
			'equipmentProductId',
			'priceId',
			'serviceProductId',
			'releaseId',
			'inventoryId',
			'brandId',
		]) {
			expect(text).toContain(fx[key]);
		}
		const result = await run('exEveryOperation');
		expectSuccess(result);
		const rentalNodes: string[] = example.nodes
			.filter((node: Json) => node.type === rt.NODE_TYPE)
			.map((node: Json) => node.name);
		expect(rentalNodes).toHaveLength(8);
		for (const name of rentalNodes) {
			const out = items(result, name);
			expect(out.length).toBeGreaterThan(0);
			for (const item of out) expect(item).not.toHaveProperty('error');
		}
		expect(items(result, 'Create quote')[0]).toMatchObject({
			id: expect.stringMatching(UUID),
			clientId: fx.clientId,
			amount: 990,
		});
		expect(items(result, 'Custom price list (first 5)')).toHaveLength(5);
		expect(items(result, 'Update price item')).toEqual([
			expect.objectContaining({ success: true }),
		]);
		expect(items(result, 'Delete inventory')).toEqual([expect.objectContaining({ deleted: true })]);
		const models = items(result, 'Equipment models of a brand (first 10)');
		expect(models).toHaveLength(10);
		expect(models.every((m) => m.brandId === fx.brandId)).toBe(true);
		const distances: Json[] = await api(
			sandbox,
			TOKEN,
			`/analytics/v1/equipment-distance/${fx.distanceDate}`,
		);
		expect(items(result, "Yesterday's distances")).toHaveLength(distances.length);
		expect(result.sent.map((r) => r.status)).toEqual(result.sent.map(() => expect.any(Number)));
		expect(result.sent.every((r) => (r.status ?? 0) < 400)).toBe(true);
		expect(new Set(result.sent.map((r) => r.method))).toEqual(
			new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
		);
	});

	it("erp-sync: the first run creates the export's clients, contact persons and contracts, each tied to its client by external ID; the second, of the same rows, writes nothing and says unchanged", async () => {
		const example = n8n.examples.find((wf) => wf.file === 'erp-sync.json')!;
		const sample = example.nodes.find((node: Json) => node.name === 'ERP export (sample)');
		// The sample node holds the rows the README points to.
		expect(sample.parameters.assignments.assignments[0].value).toBe(
			fs.readFileSync(ERP_EXPORT_FILE, 'utf8'),
		);
		const ids = erpExternalIds();
		expect(erpRows().length).toBeGreaterThan(ids.clients.length);
		expect(erpRecords(sandbox.store as unknown as ErpStore)).toEqual({
			clients: [],
			contactPersons: [],
			contracts: [],
		});
		const before = storeCounts(sandbox.store as unknown as ErpStore);

		const first = await run(ERP_SYNC_WORKFLOW);
		expectSuccess(first);
		const created = erpOutput(first);
		for (const kind of Object.keys(ids) as ErpKind[])
			expect([kind, created[kind].map(([externalId, upserted]) => [externalId, upserted])]).toEqual(
				[kind, ids[kind].map((externalId) => [externalId, 'created'])],
			);
		const records = expectExportInStore();
		const afterFirst = storeCounts(sandbox.store as unknown as ErpStore);
		expect(afterFirst).toEqual({
			clients: before.clients + ids.clients.length,
			contactPersons: before.contactPersons + ids.contactPersons.length,
			contracts: before.contracts + ids.contracts.length,
		});

		const second = await run(ERP_SYNC_WORKFLOW);
		expectSuccess(second);
		const unchanged = erpOutput(second);
		for (const kind of Object.keys(ids) as ErpKind[])
			expect([kind, unchanged[kind]]).toEqual([
				kind,
				created[kind].map(([externalId, , id]) => [externalId, 'unchanged', id]),
			]);
		expect(second.sent.filter((r) => r.method !== 'GET')).toEqual([]);
		expect(storeCounts(sandbox.store as unknown as ErpStore)).toEqual(afterFirst);
		expect(expectExportInStore()).toEqual(records);
	});

	nodeLogicTest(
		'erp-sync when the answers to creates are lost: each record is created once, and its item says created',
		async () => {
			// From what the test above left: the last client (its contact person goes with it) and its
			// contract, one more contact person and one more contract are removed, so that the run both
			// creates each kind of record and finds others unchanged.
			const store = sandbox.store as unknown as ErpStore;
			const ids = erpExternalIds();
			const lastClient = ids.clients.at(-1)!;
			const ofLastClient = (column: string) =>
				erpRows()
					.filter((row) => row.client_id === lastClient)
					.map((row) => row[column]);
			const removed: Record<ErpKind, string[]> = {
				clients: [lastClient],
				contactPersons: [...new Set([ids.contactPersons[1], ...ofLastClient('contact_id')])],
				contracts: [...new Set([ids.contracts[1], ...ofLastClient('contract_id')])],
			};
			const before = erpRecords(store);
			// In the order the creates arrived: items run at the same time.
			expect(before.clients.map((client) => client.externalId).sort()).toEqual(
				[...ids.clients].sort(),
			);
			const full = storeCounts(store);
			const drop = (records: Json[], externalIds: string[]) => {
				for (const record of records.filter((r) => externalIds.includes(r.externalId)))
					records.splice(records.indexOf(record), 1);
			};
			drop(store.clients, removed.clients);
			for (const client of store.clients) drop(client.contactPersons ?? [], removed.contactPersons);
			drop(store.contracts, removed.contracts);
			expect(storeCounts(store)).toEqual({
				clients: full.clients - removed.clients.length,
				contactPersons: full.contactPersons - removed.contactPersons.length,
				contracts: full.contracts - removed.contracts.length,
			});

			// Creates are carried out and their answers lost (seeded: 4 of the 5).
			const result = await runWithLostAnswers(ERP_SYNC_WORKFLOW, 'POST', 0.5, 3);
			expectSuccess(result);
			expect(lostAnswers(result).length).toBeGreaterThan(0);
			expect(result.sent.filter((r) => r.method === 'POST')).toHaveLength(
				Object.values(removed).flat().length,
			);

			const after = expectExportInStore();
			expect(storeCounts(store)).toEqual(full);
			const output = erpOutput(result);
			for (const kind of Object.keys(ids) as ErpKind[]) {
				const record = (records: Json[], externalId: string) =>
					records.find((candidate) => candidate.externalId === externalId)!;
				expect([kind, output[kind]]).toEqual([
					kind,
					ids[kind].map((externalId) => [
						externalId,
						removed[kind].includes(externalId) ? 'created' : 'unchanged',
						record(after[kind], externalId).id,
					]),
				]);
				for (const externalId of removed[kind])
					expect(record(after[kind], externalId).id).not.toBe(record(before[kind], externalId).id);
			}
		},
	);

	it('erp-sync when the answers to updates are lost: Retry On Fail (as shipped) runs the node again, which finds the updates done and says updated, and nothing is written twice or created', async () => {
		const store = sandbox.store as unknown as ErpStore;
		const before = expectExportInStore();
		const counts = storeCounts(store);
		// Changed in the rental system since the last sync: every record of the export gets its row's
		// values written back.
		for (const client of before.clients) client.city = 'Changed in the rental system';
		for (const person of before.contactPersons) person.phone = '+49 000 000';
		for (const contract of before.contracts) contract.title = 'Changed in the rental system';

		// Updates are carried out and their answers lost (seeded: 3, in the clients' and the contact
		// persons' nodes); such an item fails, and n8n runs its node again, every item of it.
		const result = await runWithLostAnswers(ERP_SYNC_WORKFLOW, 'PATCH', 0.1, 3);
		expectSuccess(result);
		expect(lostAnswers(result).length).toBeGreaterThan(0);
		const patched = result.sent.filter((r) => r.method === 'PATCH').map((r) => r.path);
		const records = Object.values(before).flat().length;
		expect([patched.length, new Set(patched).size]).toEqual([records, records]);
		expect(result.sent.filter((r) => r.method === 'POST')).toEqual([]);
		const kindOf = (path: string): ErpKind =>
			path.includes('/contact-persons/')
				? 'contactPersons'
				: path.includes('/contracts/')
					? 'contracts'
					: 'clients';
		const lostIn = [...new Set(lostAnswers(result).map((r) => kindOf(r.path)))];
		expect(lostIn.length).toBeGreaterThan(0);

		expect(storeCounts(store)).toEqual(counts);
		const after = expectExportInStore();
		const output = erpOutput(result);
		for (const kind of Object.keys(output) as ErpKind[])
			expect([kind, output[kind]]).toEqual([
				kind,
				// A node that lost an answer was run again, and found each record holding its row's
				// values: its first try had updated them, which its output says, as the other nodes'.
				erpExternalIds()[kind].map((externalId) => [
					externalId,
					'updated',
					before[kind].find((stored) => stored.externalId === externalId)!.id,
				]),
			]);
		for (const kind of Object.keys(output) as ErpKind[])
			expect(after[kind].map((record) => record.id)).toEqual(
				before[kind].map((record) => record.id),
			);
	});

	it('sync-change-messages: the first run creates the clients and makes no message; after another writer changes a client, the next run writes it back and makes one message naming the field, from and to', async () => {
		const workflow = 'exSyncChangeMessages';
		const first = await run(workflow);
		expectSuccess(first);
		expect(items(first, 'Create or update client').map((item) => item.upserted)).toEqual([
			'created',
			'created',
			'created',
		]);
		expect(first.node('Change message') ?? []).toEqual([]);

		const clients = sandbox.store.clients as unknown as Json[];
		const changed = clients.find((client) => client.externalId === 'ERP-MSG-1')!;
		changed.city = 'Altona';
		const second = await run(workflow);
		expectSuccess(second);
		expect(second.sent.filter((request) => request.method !== 'GET')).toEqual([
			expect.objectContaining({ method: 'PATCH', body: { city: 'Hamburg' } }),
		]);
		expect(items(second, 'Change message').map((item) => item.text)).toEqual([
			'Hafenkante Bau GmbH updated: city from Altona -> Hamburg',
		]);
	});

	it('scheduled-model-sync: writes every model updated since the start of yesterday to a CSV file', async () => {
		// The example writes under /tmp/n8n-equipment-rental, the folder the runtime lets n8n write to.
		const example = n8n.examples.find((wf) => wf.file === 'scheduled-model-sync.json')!;
		const writer = example.nodes.find((node: Json) => node.type === 'n8n-nodes-base.readWriteFile');
		expect(writer.parameters.fileName).toContain(`${rt.EXAMPLE_FILES_DIR}/`);

		const final = await run('exModelSync');
		expectSuccess(final);

		const listRequests = final.sent.filter(
			(r) => r.method === 'GET' && r.path.endsWith('/equipment-management/models'),
		);
		expect(listRequests.length).toBeGreaterThan(0);
		const updatedAfter = String(listRequests[0].query.updatedAfter);
		// Yesterday 00:00 in the instance timezone (UTC here), as an ISO date-time.
		const yesterday = new Date();
		yesterday.setUTCHours(0, 0, 0, 0);
		yesterday.setUTCDate(yesterday.getUTCDate() - 1);
		expect(new Date(updatedAfter).getTime()).toBe(yesterday.getTime());

		const expected = await api(
			sandbox,
			TOKEN,
			`/master-data/v1/equipment-management/models?updatedAfter=${encodeURIComponent(updatedAfter)}&limit=1000`,
		);
		const models = items(final, 'Models updated since yesterday');
		expect(models.length).toBe(expected.total);
		expect(models.map((m) => m.id).sort()).toEqual(expected.content.map((m: Json) => m.id).sort());
		for (const model of models)
			expect(new Date(model.updatedAt).getTime()).toBeGreaterThan(yesterday.getTime());

		if (expected.total > 0) {
			const [written] = items(final, 'Write CSV file');
			const fileName = written.fileName as string;
			expect(fileName).toMatch(/equipment-models-\d{4}-\d{2}-\d{2}\.csv$/);
			const rows = parseCsv(fs.readFileSync(fileName, 'utf8').trim());
			expect(rows[0]).toEqual(expect.arrayContaining(['id', 'name', 'updatedAt']));
			expect(rows.length - 1).toBe(expected.total);
			const idColumn = rows[0].indexOf('id');
			expect(
				rows
					.slice(1)
					.map((row) => row[idColumn])
					.sort(),
			).toEqual(models.map((m) => m.id).sort());
			fs.rmSync(fileName, { force: true });
		} else {
			// No model changed yesterday (a seeded day can have none): nothing to convert or write.
			expect(final.node('Write CSV file')).toBeUndefined();
		}
	});

	it('chat-quote-creation: the sample chat message becomes a quote for the amount it names, and the reply states it', async () => {
		const result = await run('exChatQuote');
		expectSuccess(result);
		const [read] = items(result, 'Read client, contract and amount');
		expect(read).toEqual({
			clientId: fx.clientId,
			contractId: fx.contractId,
			amount: 1250,
			problems: [],
		});

		const [quote] = items(result, 'Create quote');
		expect(quote.id).toMatch(UUID);
		expect((sandbox.store.quotes as Map<string, Json>).get(quote.id)).toMatchObject({
			clientId: fx.clientId,
			contractId: fx.contractId,
			amount: 1250,
			status: 'OPEN',
		});
		const [reply] = items(result, 'Reply: quote created');
		expect(reply.output).toBe(
			`Quote ${quote.id} created for an amount of 1250, client ${fx.clientId}, contract ${fx.contractId}.`,
		);
	});

	nodeLogicTest(
		'chat-quote-creation: realistic messages become quotes for exactly their amount, or a reply that names what is missing or unclear, never another number',
		async () => {
			const result = await run(CHAT_MESSAGES_WORKFLOW);
			expectSuccess(result);
			const read = items(result, 'Read client, contract and amount');
			expect(read.map((item) => item.amount)).toEqual(CHAT_MESSAGES.map(({ amount }) => amount));

			const quotes = result.sent.filter((r) => r.method === 'POST' && r.path === QUOTES_PATH);
			const created = CHAT_MESSAGES.filter(({ outcome }) => outcome === 'created');
			expect(
				quotes
					.filter((r) => r.status === 201)
					.map((r) => (r.body as Json).amount)
					.sort(),
			).toEqual(created.map(({ amount }) => amount).sort());
			const replies = (node: string) => items(result, node).map((item) => String(item.output));
			expect(replies('Reply: quote created')).toHaveLength(created.length);
			for (const { amount } of created)
				expect(
					replies('Reply: quote created').some((text) => text.includes(` amount of ${amount},`)),
				).toBe(true);
			// Each message the example cannot act on gets, in its order, a reply naming what is missing
			// or unclear: the part, the two IDs, the text that is not an ID or not one amount.
			const asked = CHAT_MESSAGES.filter(({ outcome }) => outcome === 'asked');
			const askReplies = replies('Reply: how to ask');
			expect(askReplies).toHaveLength(asked.length);
			asked.forEach(({ says }, index) => {
				expect(askReplies[index]).toMatch(/^No quote was created\. /);
				for (const part of says!) expect(askReplies[index]).toContain(fillIn(part, fx));
			});
			expect(replies('Reply: quote not created').sort()).toEqual([
				expect.stringMatching(
					/^The quote for an amount of 250000000 was not created\. 'Amount' must be a number written as 1,234.56, no greater than 100000000/,
				),
				expect.stringMatching(
					/^The quote for an amount of 700 was not created\. .*No client has the id 00000000-0000-4000-8000-000000000000.*'Client'/,
				),
			]);
		},
	);

	it('ai-agent-quote as shipped: n8n names the chat model node that needs a credential', async () => {
		const result = await run(AI_AGENT_EXAMPLE);
		expect(result.status).toBe('error');
		expect(`${result.error?.message} ${result.error?.description ?? ''}`).toMatch(/credential/i);
		expect(JSON.stringify(result.error)).toContain('OpenAI Chat Model');
		expect(JSON.stringify(result.error)).not.toContain('does not exist');
	});

	it('ai-agent-quote: the agent calls the Equipment Rental tool, which creates the quote the model asked for', async () => {
		chatModel.follow([{ tool: 'Create_quote', arguments: () => quoteToolArguments }]);
		const chatRequestsBefore = chatModel.requests.length;
		const result = await run(AI_AGENT_WITH_MODEL);
		if (!toolsRun) return expectToolsNotRun(result, 'Create quote');
		// A tool node whose type n8n cannot resolve fails the run ("Unrecognized node type").
		expectSuccess(result);
		const [firstAsk, afterTool] = chatModel.requests.slice(chatRequestsBefore);
		expect(firstAsk.tools?.map((tool) => tool.function.name).sort()).toEqual([
			'Create_quote',
			'Find_client',
			'List_contracts',
		]);
		// What the model is told: the tool's description, and each field's from its $fromAI(...).
		const exampleTool = rt
			.loadExamples()
			.find((wf) => wf.id === AI_AGENT_EXAMPLE)!
			.nodes.find((node: Json) => node.name === 'Create quote');
		const offered = firstAsk.tools!.find((tool) => tool.function.name === 'Create_quote')!.function;
		expect(offered.description).toBe(exampleTool.parameters.toolDescription);
		const fields = (offered.parameters as Json).properties;
		expect(Object.keys(fields).sort()).toEqual(
			['amount', 'clientId', 'contractId', 'endDate', 'startDate'].sort(),
		);
		expect(fields.clientId.description).toMatch(/^UUID of the client the quote is for/);
		expect(fields.amount).toMatchObject({ type: 'number' });
		expect(fields.amount.description).toContain('at most 100000000');

		const posts = result.sent.filter((r) => r.method === 'POST');
		expect(posts.map((r) => r.path)).toEqual([QUOTES_PATH]);
		// The node sends dates as full ISO timestamps with milliseconds.
		const asSent = (date: string) => new Date(date).toISOString();
		expect(posts[0].body).toMatchObject({
			...quoteToolArguments,
			startDate: asSent(quoteToolArguments.startDate),
			endDate: asSent(quoteToolArguments.endDate),
			status: 'OPEN',
		});
		const createdQuote = [...(sandbox.store.quotes as Map<string, Json>).values()].at(-1)!;
		expect(createdQuote).toMatchObject({
			clientId: fx.clientId,
			contractId: fx.contractId,
			amount: 1250.5,
		});

		const [toolRun] = result.run.data.resultData.runData['Create quote'];
		expect(toolRun.executionStatus).toBe('success');
		// n8n 1.85 records the tool's items inside one item, as { response: [...] }.
		const toolItems = toolRun.data.ai_tool[0].flatMap(
			(item: Json) => item.json.response ?? item.json,
		);
		expect(toolItems).toEqual([
			expect.objectContaining({
				id: createdQuote.id,
				clientId: fx.clientId,
				contractId: fx.contractId,
			}),
		]);
		const toolAnswer = afterTool.messages.find((message) => message.role === 'tool');
		expect(String(toolAnswer?.content)).toContain(createdQuote.id);
		const [agentReply] = items(result, 'AI Agent');
		expect(agentReply.output).toBe(`${FINAL_ANSWER_PREFIX}${toolAnswer?.content}`);
	});

	it("ai-agent-quote: the node's and the API's refusals reach the model as the tool's answers, and the conversation goes on", async () => {
		const unknownClient = '00000000-0000-4000-8000-000000000000';
		chatModel.follow([
			{ tool: 'Create_quote', arguments: () => ({ ...quoteToolArguments, amount: 250_000_000 }) },
			{
				tool: 'Create_quote',
				arguments: () => ({ ...quoteToolArguments, clientId: unknownClient, amount: 700 }),
			},
		]);
		const chatRequestsBefore = chatModel.requests.length;
		const result = await run(AI_AGENT_WITH_MODEL);
		if (!toolsRun) return expectToolsNotRun(result, 'Create quote');

		expectSuccess(result);
		const conversation = chatModel.requests.slice(chatRequestsBefore);
		expect(conversation).toHaveLength(3);
		const answers = conversation[2].messages
			.filter((message) => message.role === 'tool')
			.map((message) => String(message.content));
		expect(answers).toEqual([
			expect.stringContaining(
				"'Amount' must be a number written as 1,234.56, no greater than 100000000 [item 0]",
			),
			expect.stringContaining(`The API said: No client has the id ${unknownClient}.`),
		]);
		expect(answers[1]).toContain("The field at fault is 'Client'");
		// The amount over the maximum was stopped by the node: only the second call reached the API.
		const posts = result.sent.filter((r) => r.method === 'POST');
		expect(posts.map((r) => [r.path, r.status, (r.body as Json).clientId])).toEqual([
			[QUOTES_PATH, 404, unknownClient],
		]);
		const [agentReply] = items(result, 'AI Agent');
		expect(agentReply.output).toBe(`${FINAL_ANSWER_PREFIX}${answers[1]}`);
	});

	nodeLogicTest(
		"ai-agent-quote by name: the agent finds Acme, lists its contracts and quotes the Berlin one, every ID from a tool's answer",
		async () => {
			/** The records a tool answered with, whichever way n8n wraps them. */
			const recordsOf = (answer: string): Json[] => {
				const parsed = JSON.parse(answer);
				const list = Array.isArray(parsed) ? parsed : [parsed];
				return list.flatMap((entry: Json) => entry.response ?? entry);
			};
			if (!toolsRun) {
				chatModel.follow([{ tool: 'Find_client', arguments: () => ({ search: 'Acme' }) }]);
				return expectToolsNotRun(await run(AI_AGENT_WITH_MODEL), 'Find client');
			}
			chatModel.follow([
				{ tool: 'Find_client', arguments: () => ({ search: 'Acme' }) },
				{
					tool: 'List_contracts',
					arguments: ([clients]) => ({
						clientId: recordsOf(clients).find((client) => client.name === 'Acme Construction')!.id,
					}),
				},
				{
					tool: 'Create_quote',
					arguments: ([clients, contracts]) => ({
						clientId: recordsOf(clients).find((client) => client.name === 'Acme Construction')!.id,
						contractId: recordsOf(contracts).find((contract) => /Berlin/.test(contract.title))!.id,
						amount: 4200,
						startDate: '',
						endDate: '',
					}),
				},
			]);
			const result = await run(AI_AGENT_WITH_MODEL);

			expectSuccess(result);
			const reads = result.sent.filter((r) => r.method === 'GET');
			expect(reads.map((r) => [r.path, r.query.search ?? r.query.clientId])).toEqual([
				['/master-data/v1/client-management/clients', 'Acme'],
				['/master-data/v1/contract-management/contracts', fx.acmeClientId],
			]);
			const posts = result.sent.filter((r) => r.method === 'POST');
			expect(posts.map((r) => [r.path, r.status])).toEqual([[QUOTES_PATH, 201]]);
			expect(posts[0].body).toMatchObject({
				clientId: fx.acmeClientId,
				contractId: fx.acmeBerlinContractId,
				amount: 4200,
			});
		},
	);

	it('ai-agent-quote: fields defined by the model as the editor writes them reach the model with no description, as the README says', async () => {
		chatModel.follow([]);
		const chatRequestsBefore = chatModel.requests.length;
		const result = await run(FROM_EDITOR_AGENT_WORKFLOW);

		expectSuccess(result);
		const offered = chatModel.requests[chatRequestsBefore].tools!.find(
			(tool) => tool.function.name === 'Create_quote',
		)!.function;
		const fields = (offered.parameters as Json).properties;
		expect(Object.keys(fields).sort()).toEqual(['Amount', 'Client_ID', 'Contract_ID']);
		for (const field of Object.values(fields) as Json[]) expect(field.description ?? '').toBe('');
		// A tool whose description was not written gets its operation's Tool Description, which needs
		// n8n's `@tool` display condition; n8n 1.85 has none and tells the node's own description.
		expect(offered.description).toMatch(
			toolsRun
				? /^Equipment Rental: Create a quote for a client and one of its contracts, for an amount\. .* Needs: Client, Contract, Amount\.$/
				: /^Create quotes, manage product price lists/,
		);
	});

	it('ai-agent-quote: a search that finds no client reaches the model as a sentence saying so, not as an empty answer', async () => {
		chatModel.follow([{ tool: 'Find_client', arguments: () => ({ search: 'Nothere Ltd' }) }]);
		const chatRequestsBefore = chatModel.requests.length;
		const result = await run(AI_AGENT_WITH_MODEL);
		if (!toolsRun) return expectToolsNotRun(result, 'Find client');

		expectSuccess(result);
		expect(result.sent.map((r) => [r.method, r.path, r.query.search, r.status])).toEqual([
			['GET', '/master-data/v1/client-management/clients', 'Nothere Ltd', 200],
		]);
		const [, afterTool] = chatModel.requests.slice(chatRequestsBefore);
		const answer = afterTool.messages.find((message) => message.role === 'tool');
		const parsed = JSON.parse(String(answer?.content));
		// AI Agent 3 hands over the tool's items as a list; the Tools Agent (n8n 1.x) may wrap them.
		const answered = (Array.isArray(parsed) ? parsed : [parsed]).flatMap(
			(entry: Json) => entry.response ?? entry,
		);
		expect(answered).toEqual([{ result: "No client was found for Search 'Nothere Ltd'." }]);
	});

	nodeLogicTest(
		"daily-distance-report: yesterday's distance per equipment, flagging records without distance",
		async () => {
			const result = await run('exDistanceReport');
			expectSuccess(result);
			expect(result.sent.map((r) => `${r.method} ${r.path}`)).toEqual([
				`GET /analytics/v1/equipment-distance/${fx.distanceDate}`,
			]);
			const expected: Json[] = await api(
				sandbox,
				TOKEN,
				`/analytics/v1/equipment-distance/${fx.distanceDate}`,
			);
			const rows = items(result, 'Report rows');
			expect(rows).toHaveLength(expected.length);
			expect(rows.map((row) => row.equipmentId)).toEqual(
				expected.map((record) => record.equipmentId),
			);
			const withoutDistance = expected.filter((record) => record.distance === null);
			expect(withoutDistance.length).toBeGreaterThan(0);
			expect(rows.filter((row) => row.noDistance === true)).toHaveLength(withoutDistance.length);
			expect(rows[0]).toMatchObject({
				date: fx.distanceDate,
				equipmentId: expected[0].equipmentId,
			});

			const flagged = items(result, 'Equipment without distance');
			expect(flagged.map((row) => row.equipmentId)).toEqual(
				withoutDistance.map((record) => record.equipmentId),
			);
			expect(flagged.every((row) => row.noDistance === true && row.distanceKm === null)).toBe(true);
			expect(items(result, 'Equipment with distance')).toHaveLength(
				expected.length - withoutDistance.length,
			);
		},
	);

	it("daily-report-to-spreadsheet (README recipe): yesterday's usage (its UTC day) and working time (the instance timezone's day) as Excel rows readable as they are", async () => {
		const timezone = 'America/New_York';
		const result = await run('exDailyReportSheet', { GENERIC_TIMEZONE: timezone });
		expectSuccess(result);
		const yesterday = DateTime.now().setZone(timezone).startOf('day').minus({ days: 1 });
		const day = yesterday.toISODate() as string;
		// New York is behind UTC: its day ends in the next UTC day.
		const nextDay = yesterday.plus({ days: 1 }).toISODate() as string;
		const titleOf = (id: string) =>
			(sandbox.store.equipment as Json[]).find((unit) => unit.id === id)?.title;
		const hours = (milliseconds: number) => Number((milliseconds / 3_600_000).toFixed(2));

		// Each report once, and the equipment list read whole (every page) once for each.
		const sent = result.sent.map(
			(r) => `${r.path}${r.path === EQUIPMENTS_PATH ? ` page ${r.query.page}` : ''}`,
		);
		expect(sent.filter((r) => r.startsWith('/analytics')).sort()).toEqual([
			`/analytics/v1/equipment-usage/${day}`,
			`/analytics/v1/equipment-working-hours/${day}`,
			`/analytics/v1/equipment-working-hours/${nextDay}`,
		]);
		const pages = sent.filter((r) => r.startsWith(EQUIPMENTS_PATH));
		expect(pages.length).toBeGreaterThan(0);
		expect(new Set(pages).size * 2).toBe(pages.length);

		const usage: Json[] = await api(sandbox, TOKEN, `/analytics/v1/equipment-usage/${day}`);
		const [usageFile] = items(result, 'Write usage file');
		expect(usageFile.fileName).toBe(`${rt.EXAMPLE_FILES_DIR}/equipment-usage-${day}.xlsx`);
		const usageSheet = readXlsx(usageFile.fileName);
		expect(usageSheet.sheet).toBe('Usage');
		expect(usageSheet.rows).toEqual([
			[
				'dateUtc',
				'equipmentTitle',
				'inventoryNumber',
				'siteType',
				'siteCostCenter',
				'usageHours',
				'siteId',
				'equipmentId',
			],
			...usage.map((record) => [
				day,
				titleOf(record.equipment.id),
				record.equipment.invNumber,
				record.site.type,
				record.site.costCenter,
				hours(record.duration),
				record.site.id,
				record.equipment.id,
			]),
		]);
		expect(usage.length).toBeGreaterThan(0);

		// The API's records of the two UTC days, each within New York's day: what the rows must add up to.
		const [from, until] = [yesterday.toMillis(), yesterday.plus({ days: 1 }).toMillis()];
		const reported: Json[] = [
			...(await api(sandbox, TOKEN, `/analytics/v1/equipment-working-hours/${day}`)),
			...(await api(sandbox, TOKEN, `/analytics/v1/equipment-working-hours/${nextDay}`)),
		];
		const withinDay = (record: Json) =>
			Math.max(
				0,
				Math.min(Date.parse(record.end), until) - Math.max(Date.parse(record.start), from),
			);
		const [workingTimeFile] = items(result, 'Write working time file');
		const workingTimeSheet = readXlsx(workingTimeFile.fileName);
		expect(workingTimeSheet.sheet).toBe('Working time');
		const [header, ...rows] = workingTimeSheet.rows;
		expect(header).toEqual([
			'date',
			'equipmentTitle',
			'inventoryNumber',
			'start',
			'end',
			'workingHours',
			'equipmentId',
		]);
		expect(rows.length).toBeGreaterThan(0);
		for (const [date, title, , start, end, , equipmentId] of rows) {
			expect([date, String(start).slice(0, 10)]).toEqual([day, day]);
			expect(String(end) <= `${nextDay} 00:00`).toBe(true);
			expect(title).toBe(titleOf(String(equipmentId)));
		}
		const sheetHours = rows.reduce((sum, row) => sum + Number(row[5]), 0);
		const reportedHours = reported.reduce((sum, record) => sum + withinDay(record), 0) / 3_600_000;
		expect(Math.abs(sheetHours - reportedHours)).toBeLessThanOrEqual(rows.length * 0.005);
		for (const file of [usageFile, workingTimeFile]) fs.rmSync(file.fileName, { force: true });
	});
});

describe(onN8n('one workflow per operation'), () => {
	nodeLogicTest(
		'a nightly sync of 1,000 clients in Loop Over Items of 100: the batches read the clients once, and write the 1% that differ',
		async () => {
			const rows = nightlyRows(LOOPED_SYNC.prefix);
			const { changed: differing } = clientsOfLastNight(sandbox.store, rows);
			const clients = () => (sandbox.store as unknown as ErpStore).clients;
			const pages = Math.ceil(clients().length / WHOLE_READ_PAGE_SIZE);

			const result = await run(LOOPED_SYNC.workflow);

			expectSuccess(result);
			const batches = result.run.data.resultData.runData[LOOPED_SYNC.node] as Json[];
			expect(batches).toHaveLength(rows.length / LOOPED_SYNC.batchSize);
			expect(
				batches.flatMap((batch) => batch.data.main[0].map((item: Json) => item.json.upserted)),
			).toEqual(rows.map((row) => (differing.includes(row) ? 'updated' : 'unchanged')));
			const clientRequests = result.sent.filter((request) => request.path.startsWith(CLIENTS));
			expect(clientRequests.filter((request) => request.method === 'GET')).toHaveLength(pages);
			expect(clientRequests.filter((request) => request.method !== 'GET')).toHaveLength(
				differing.length,
			);
			expect(result.sent).toHaveLength(pages + differing.length);
			expect(
				clientsWithPrefix(`${LOOPED_SYNC.prefix}-`)
					.map((client) => client.name)
					.sort(),
			).toEqual(rows.map((row) => row.name).sort());
		},
		240_000,
	);

	nodeLogicTest('quote create: sends the quote and outputs the stored record', async () => {
		const result = await run('opQuoteCreate');
		expectSuccess(result);
		const [quote] = result.items;
		expect(result.items).toHaveLength(1);
		expect(quote.id).toMatch(UUID);
		expect(quote).toMatchObject({
			clientId: fx.clientId,
			contractId: fx.contractId,
			amount: 1250.5,
			quoteId: 'Q-E2E-0001',
			status: 'PENDING',
			externalId: 'ext-e2e-1',
		});
		expect(result.sent).toHaveLength(1);
		const [request] = result.sent;
		expect(request.method).toBe('POST');
		expect(request.path).toBe(QUOTES_PATH);
		expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
		expect(request.body).toMatchObject({
			clientId: fx.clientId,
			contractId: fx.contractId,
			amount: 1250.5,
			date: '2026-03-01',
			deadline: '2026-03-15',
			bookingIds: [fx.bookingId],
			mediaName: 'site-plan.pdf',
		});
		expect((sandbox.store.quotes as Map<string, Json>).get(quote.id)).toMatchObject({
			quoteId: 'Q-E2E-0001',
		});
	});

	nodeLogicTest(
		'product getCustomPriceList: all pages, and a limit with a type filter',
		async () => {
			const result = await run('opPriceList');
			expectSuccess(result);
			const base = `/master-data/v1/product-management/products/price-lists/custom/${fx.customPriceId}`;
			const all = await api(sandbox, TOKEN, `${base}?limit=1000`);
			const allItems = items(result, 'All entries');
			expect(allItems).toHaveLength(all.total);
			expect(allItems.map((entry) => entry.id)).toEqual(all.content.map((entry: Json) => entry.id));
			expect(allItems[0]).toEqual(
				expect.objectContaining({
					productId: expect.stringMatching(UUID),
					from: expect.any(Number),
				}),
			);

			const equipment = await api(sandbox, TOKEN, `${base}?type=EQUIPMENT&limit=2`);
			const limited = items(result, 'First 2 equipment entries');
			expect(limited.map((entry) => entry.id)).toEqual(
				equipment.content.map((entry: Json) => entry.id),
			);
			expect(limited).toHaveLength(Math.min(2, equipment.total));

			// One item, and one CSV row, per tier: no children.0.* columns.
			const tiers = items(result, 'One item per tier');
			const tierCount = all.content.reduce(
				(sum: number, entry: Json) => sum + 1 + entry.children.length,
				0,
			);
			expect(tiers).toHaveLength(tierCount);
			const rows = parseCsv(fs.readFileSync(TIERS_CSV, 'utf8'));
			fs.rmSync(TIERS_CSV, { force: true });
			expect(rows).toHaveLength(1 + tierCount);
			expect(rows[0]).toEqual(expect.arrayContaining(['productTitle', 'from', 'priceListPrice']));
			expect(rows[0].some((column) => column.startsWith('children'))).toBe(false);
		},
	);

	it('the reference reads: every lookup operation, pickers as the editor saves them', async () => {
		const result = await run('opLookups');
		expectSuccess(result);
		const one = (node: string) => {
			const out = items(result, node);
			expect([node, out.length]).toEqual([node, 1]);
			return out[0];
		};
		expect(one('Client')).toMatchObject({ id: fx.acmeClientId, name: 'Acme Construction' });
		expect(one('Client by external ID').externalId).toBe(fx.clientExternalId);
		expect(items(result, 'Clients named Acme').map((client) => client.id)).toContain(
			fx.acmeClientId,
		);
		expect(one('Contract')).toMatchObject({
			id: fx.acmeBerlinContractId,
			clientId: fx.acmeClientId,
		});
		expect(one('Contract by external ID').externalId).toBe(fx.contractExternalId);
		const acmeContracts = (sandbox.store.contracts as Json[]).filter(
			(contract) => contract.clientId === fx.acmeClientId,
		);
		expect(
			items(result, "Acme's contracts")
				.map((contract) => contract.id)
				.sort(),
		).toEqual(acmeContracts.map((contract) => contract.id).sort());
		expect(one('Product')).toMatchObject({ id: fx.equipmentProductId, type: 'RESOURCE' });
		expect(one('Product by external ID').externalId).toBe(fx.productExternalId);
		expect(items(result, 'Services').every((product) => product.type === 'SERVICE')).toBe(true);
		expect(one('Booking').releases.map((release: Json) => release.id)).toContain(fx.releaseId);
		expect(one('Booking by external ID').id).toBe(fx.bookingId);
		expect(one('Equipment').id).toBe(fx.equipmentId);
		expect(items(result, 'All equipment')).toHaveLength((sandbox.store.equipment as Json[]).length);
		for (const daily of ['Usage', 'Working hours'])
			expect(items(result, daily).length).toBeGreaterThan(0);
	});

	nodeLogicTest(
		'add and delete a price item, detach a service: success only as the store shows it',
		async () => {
			const products = sandbox.store.products as Map<string, Json>;
			const attachments = sandbox.store.attachments as Map<string, Set<string>>;
			attachments.set(fx.inventoryProductId, new Set([fx.serviceProductId]));
			const result = await run('opLookupWrites');
			expectSuccess(result);
			// Each write's item says what it changed, where the API answers only { success: true }.
			expect(items(result, 'Add price item')).toEqual([
				{ success: true, productId: fx.equipmentProductId, from: 30, price: 77.5 },
			]);
			expect(items(result, 'Delete price item')).toEqual([
				{ success: true, productId: other.personProductId, priceId: other.personPriceId },
			]);
			expect(items(result, 'Detach service')).toEqual([
				{ success: true, productId: fx.inventoryProductId, serviceProductId: fx.serviceProductId },
			]);
			expect(
				products
					.get(fx.equipmentProductId)!
					.priceItems.some((item: Json) => item.from === 30 && item.price === 77.5),
			).toBe(true);
			expect(
				products.get(other.personProductId)!.priceItems.map((item: Json) => item.id),
			).not.toContain(other.personPriceId);
			expect(attachments.get(fx.inventoryProductId)?.has(fx.serviceProductId) ?? false).toBe(false);
		},
	);

	it('the every-operation example as 0.2.0 saved it (plain IDs in what are pickers now) still runs', async () => {
		// 0.2.0 sent Calculation Type as Fixed, which only the description knows: the server of the
		// description takes it, a whitelisting one would refuse it (docs/real-api.md).
		sandbox.setOptions({ strict: false });
		// The shipped example ran before: what it deleted and attached is as it was seeded again.
		(sandbox.store.inventories as Map<string, Json>).set(fx.inventoryId, { ...fixtureInventory });
		(sandbox.store.attachments as Map<string, Set<string>>)
			.get(fx.equipmentProductId)
			?.delete(fx.serviceProductId);
		try {
			const result = await run('exEveryOperation020');
			expectSuccess(result);
			const rentalNodes = everyOperationAsSavedBy020()
				.nodes.filter((node: Json) => node.type === rt.NODE_TYPE)
				.map((node: Json) => node.name);
			expect(rentalNodes).toHaveLength(8);
			for (const name of rentalNodes)
				for (const item of items(result, name)) expect(item).not.toHaveProperty('error');
			expect(result.sent.map((r) => r.status).every((status) => status! < 300)).toBe(true);
			expect(items(result, 'Create quote')[0]).toMatchObject({ clientId: fx.clientId });
		} finally {
			sandbox.setOptions({ strict: true });
		}
	});

	nodeLogicTest('product updatePriceItem: puts the price tier and outputs success', async () => {
		const result = await run('opPriceItem');
		expectSuccess(result);
		expect(result.items).toEqual([expect.objectContaining({ success: true })]);
		const puts = result.sent.filter((r) => r.method === 'PUT');
		expect(puts).toHaveLength(1);
		expect(puts[0].path).toBe(
			`/master-data/v1/product-management/products/${fx.equipmentProductId}/price-list/${fx.priceId}`,
		);
		expect(puts[0].body).toEqual({ from: 1, price: 399.5 });
		const product = (sandbox.store.products as Map<string, Json>).get(fx.equipmentProductId)!;
		expect(product.priceItems.find((item: Json) => item.id === fx.priceId)).toMatchObject({
			from: 1,
			price: 399.5,
		});
	});

	nodeLogicTest(
		"a sheet with a blank client cell: that row fails naming the filter, the others read only their client's contracts",
		async () => {
			const result = await run('sheetBlankClient');
			expectSuccess(result);
			const out = items(result, 'Contracts of the client');
			// Items are output in input order: the first row's contracts, then the two rows that failed.
			const failed = out.filter((json) => typeof json.error === 'string');
			expect(failed).toHaveLength(2);
			expect(out.slice(-2)).toEqual(failed);
			for (const [index, json] of failed.entries())
				expect(json.error).toMatch(
					new RegExp(
						`^'Client ID' must be a value: the filter was added but is empty \\[item ${index + 1}\\]`,
					),
				);
			const contracts = out.slice(0, -2);
			expect(contracts.length).toBeGreaterThan(0);
			expect(contracts.every((json) => json.clientId === fx.acmeClientId)).toBe(true);
			// Every list read carried the client: none read every client's contracts.
			expect(result.sent.length).toBeGreaterThan(0);
			expect(result.sent.every((request) => request.query.clientId === fx.acmeClientId)).toBe(true);
		},
	);

	nodeLogicTest(
		'a price sheet without quantities: the tier keeps where it starts, only its price changes',
		async () => {
			const tierBefore = (sandbox.store.products as Map<string, Json>)
				.get(fx.equipmentProductId)!
				.priceItems.find((item: Json) => item.id === other.furtherTierId);
			const result = await run('sheetPrices');
			expectSuccess(result);
			expect(result.sent.map((request) => [request.method, request.body])).toEqual([
				['GET', undefined],
				['PUT', { from: tierBefore.from, price: 99 }],
			]);
			expect(items(result, 'Update price')).toEqual([
				{
					success: true,
					productId: fx.equipmentProductId,
					priceId: other.furtherTierId,
					from: tierBefore.from,
					price: 99,
				},
			]);
			const tierAfter = (sandbox.store.products as Map<string, Json>)
				.get(fx.equipmentProductId)!
				.priceItems.find((item: Json) => item.id === other.furtherTierId);
			expect(tierAfter).toMatchObject({ from: tierBefore.from, price: 99 });
		},
	);

	nodeLogicTest('product attach: links a SERVICE product to the main product', async () => {
		const result = await run('opAttach');
		expectSuccess(result);
		expect(result.items).toHaveLength(1);
		const posts = result.sent.filter((r) => r.method === 'POST');
		expect(posts.map((r) => [r.path, r.body])).toEqual([
			[
				`/master-data/v1/product-management/products/${fx.equipmentProductId}/attach`,
				{ productId: other.serviceProductId },
			],
		]);
		expect(
			(sandbox.store.attachments as Map<string, Set<string>>)
				.get(fx.equipmentProductId)
				?.has(other.serviceProductId),
		).toBe(true);
	});

	// The run's phases rest on the engine (tested on every version by the sync below); this is
	// the node's own checking.
	nodeLogicTest(
		'a sheet of 100 clients with one bad e-mail (Continue On Fail off) writes nothing and names the row; fixed and run again, it gives 100 clients',
		async () => {
			const bad = await run(FAILED_RUN.badSheet);

			expect(bad.status).toBe('error');
			expect(bad.error?.message).toBe("'Email' must be an e-mail address [item 10]");
			expect(bad.error?.description).toContain('Nothing was sent');
			expect(bad.sent).toEqual([]);
			expect(clientsWithPrefix('E2E-FR-')).toEqual([]);

			const fixed = await run(FAILED_RUN.fixedSheet);

			expectSuccess(fixed);
			expect(
				clientsWithPrefix('E2E-FR-')
					.map((client) => client.externalId)
					.sort(),
			).toEqual(
				failedRunRows(false)
					.map((row) => row.externalId)
					.sort(),
			);
		},
	);

	nodeLogicTest(
		'a sheet of 100 clients previewed, then written: the preview sends no write, and each row says what the write then does',
		async () => {
			expectSuccess(await run(PREVIEWED_SHEET.seed));
			const preview = await run(PREVIEWED_SHEET.preview);
			expectSuccess(preview);
			expect(preview.sent.filter((request) => request.method !== 'GET')).toEqual([]);
			const outcomes = (result: RunResult) =>
				items(result, 'Sync clients').map((item) => [item.externalId, item.upserted]);
			const expected = previewedRows(false).map((row, index) => [
				row.externalId,
				index < 10 ? 'updated' : index < 60 ? 'unchanged' : 'created',
			]);
			expect(outcomes(preview)).toEqual(expected);
			expect(items(preview, 'Sync clients').every((item) => item.preview === true)).toBe(true);

			const write = await run(PREVIEWED_SHEET.write);
			expectSuccess(write);
			expect(outcomes(write)).toEqual(outcomes(preview));
			expect(
				items(write, 'Sync clients')
					.filter((item) => item.upserted === 'updated')
					.map((item) => item.changes),
			).toEqual(
				items(preview, 'Sync clients')
					.filter((item) => item.upserted === 'updated')
					.map((item) => item.changes),
			);
			expect(write.sent.filter((request) => request.method !== 'GET').length).toBe(50);
		},
	);

	it('a sync of 300 rows that the API fails at row 150 (Continue On Fail off) stops, and its error counts the clients it wrote and the rows it did not send, their IDs in its context', async () => {
		sandbox.setOptions({ faults: { rate: 1, kinds: ['500'], externalIds: ['E2E-SS-150'] } });
		let result: Awaited<ReturnType<typeof run>>;
		try {
			result = await run(FAILED_RUN.upsertSheet);
		} finally {
			sandbox.setOptions({ faults: null });
		}

		expect(result.status).toBe('error');
		expect(result.error?.message).toBe(
			'The Equipment Rental API failed to process the request (HTTP 500) [item 150]',
		);
		const description = String(result.error?.description);
		const written = clientsWithPrefix('E2E-SS-');
		expect(written.length).toBeGreaterThanOrEqual(150);
		expect(written.length).toBeLessThan(299);
		expect(description).toContain(`Created ${written.length}: items 0-149`);
		expect(String(result.error?.message).length + description.length).toBeLessThan(4000);
		// The clients' IDs are in the execution's error, by item, for an error workflow.
		const { run: story } = (result.error as unknown as { context: { run: Json } }).context;
		expect(story.done.map(({ id }: Json) => id).sort()).toEqual(
			written.map((client) => client.id).sort(),
		);
		expect(description).toMatch(/Not sent \d+: items \d+-299: run them again/);
		// Nothing was sent for the rows it names as not sent.
		const notSentFrom = Number(/Not sent \d+: items (\d+)-299/.exec(description)![1]);
		const sentRows = new Set(result.sent.map((request) => String(request.path).split('/').at(-1)));
		for (let index = notSentFrom; index < 300; index++)
			expect(sentRows.has(`E2E-SS-${index}`)).toBe(false);
	});

	it("product attach: a product that is not a SERVICE fails with the API's explanation", async () => {
		const result = await run('opAttachRefused');
		expect(result.status).toBe('error');
		const text = `${result.error?.message} ${result.error?.description ?? ''}`;
		expect(text).toContain('Only SERVICE products can be attached');
		expect(result.sent.map((r) => r.status)).toEqual([expect.any(Number)]);
		expect(result.sent[0].status).toBeGreaterThanOrEqual(400);
	});

	nodeLogicTest('release update: sends only the fields given', async () => {
		const result = await run('opReleaseUpdate');
		expectSuccess(result);
		expect(result.items).toHaveLength(1);
		const patches = result.sent.filter((r) => r.method === 'PATCH');
		expect(patches).toHaveLength(1);
		expect(patches[0].path).toBe(`/master-data/v1/booking-management/releases/${fx.releaseId}`);
		expect(patches[0].body).toEqual({
			quantity: 2.5,
			reason: 'Partial return',
			externalId: 'ext-rel-1',
			bookingId: fx.bookingId,
		});
		expect((sandbox.store.releases as Map<string, Json>).get(fx.releaseId)).toMatchObject({
			quantity: 2.5,
			reason: 'Partial return',
		});
	});

	nodeLogicTest(
		'inventory delete: outputs deleted: true, and a second run fails with the 404 message',
		async () => {
			expect((sandbox.store.inventories as Map<string, Json>).has(other.inventoryId)).toBe(true);
			const first = await run('opInventoryDelete');
			expectSuccess(first);
			expect(first.items).toEqual([expect.objectContaining({ deleted: true })]);
			expect((sandbox.store.inventories as Map<string, Json>).has(other.inventoryId)).toBe(false);

			const second = await run('opInventoryDelete');
			expect(second.status).toBe('error');
			expect(second.error?.message).toMatch(/not found/i);
			expect(second.error?.description ?? '').toContain(
				`No inventory has the id ${other.inventoryId}`,
			);
			expect(second.error?.node?.name).toBe('Delete inventory');
			expect(second.sent.map((r) => r.status)).toEqual([404]);
		},
	);

	it('equipmentModel getAll: all pages of a brand, a limited search, and a list of IDs', async () => {
		const result = await run('opModels');
		expectSuccess(result);

		const brand = await api(sandbox, TOKEN, `${MODELS_PATH}?brandId=${fx.brandId}&limit=1000`);
		const brandItems = items(result, 'Brand, all pages');
		expect(brand.total).toBeGreaterThan(50); // more than one page of the API's default size
		expect(brandItems).toHaveLength(brand.total);
		expect(new Set(brandItems.map((m) => m.id)).size).toBe(brand.total);
		expect(brandItems.every((m) => m.brandId === fx.brandId)).toBe(true);

		const search = await api(sandbox, TOKEN, `${MODELS_PATH}?search=komatsu&limit=5`);
		const searchItems = items(result, 'Search, first 5');
		expect(searchItems).toHaveLength(5);
		expect(searchItems.map((m) => m.id)).toEqual(search.content.map((m: Json) => m.id));
		expect(searchItems.every((m) => /komatsu/i.test(m.name))).toBe(true);

		const byIds = items(result, 'By IDs');
		expect(byIds.map((m) => m.id).sort()).toEqual(
			[fx.modelId, (sandbox.store.models as Json[])[1].id].sort(),
		);
		const idsRequest = result.sent.find((r) => typeof r.query.ids === 'string');
		expect(String(idsRequest?.query.ids).split(',')).toHaveLength(2);
	});

	nodeLogicTest(
		'equipmentDistance get: one item per equipment for the day, nulls kept',
		async () => {
			const result = await run('opDistance');
			expectSuccess(result);
			const expected: Json[] = await api(
				sandbox,
				TOKEN,
				`/analytics/v1/equipment-distance/${fx.distanceDate}`,
			);
			expect(expected.length).toBeGreaterThanOrEqual(200);
			expect(result.items).toEqual(expected);
			expect(result.items.some((record) => record.distance === null)).toBe(true);
			expect(result.sent.map((r) => [r.method, r.path, r.headers.accept])).toEqual([
				['GET', `/analytics/v1/equipment-distance/${fx.distanceDate}`, 'application/json'],
			]);
		},
	);

	it("the writes: Create, Update, Delete and Create or Update of every kind of record, and the contact persons' reads, as the store shows them", async () => {
		const result = await run(WRITES_WORKFLOW);
		expectSuccess(result);
		const one = (node: string) => {
			const out = items(result, node);
			expect([node, out.length]).toEqual([node, 1]);
			return out[0];
		};
		const stamp = (record: Json) => Date.parse(record.updatedAt);
		/** An update's answer: the record as created, but for the fields changed and cleared. */
		const changedOnly = (created: Json, changes: Json, cleared: string[] = []) => ({
			...without(created, ['updatedAt', ...cleared]),
			...changes,
			updatedAt: expect.any(String),
		});
		/** Both upserts of one external ID: created, then the same record updated. */
		const upserted = (kind: string) => {
			const [created, updated] = ['creates', 'updates'].map((run) =>
				one(`Create or update ${kind} (${run})`),
			);
			expect([kind, created.upserted, updated.upserted]).toEqual([kind, 'created', 'updated']);
			expect([kind, updated.id]).toEqual([kind, created.id]);
			expect(stamp(updated)).toBeGreaterThan(stamp(created));
			return { created, updated };
		};
		const clients = sandbox.store.clients as Json[];
		const contracts = sandbox.store.contracts as Json[];
		const products = [...(sandbox.store.products as Map<string, Json>).values()];
		const equipment = sandbox.store.equipment as Json[];
		const bookings = [...(sandbox.store.bookings as Map<string, Json>).values()];
		const withExternalId = (records: Json[], externalId: string) =>
			records.filter((record) => record.externalId === externalId);

		// Clients
		const client = one('Create client');
		expect(client).toMatchObject({
			id: expect.stringMatching(UUID),
			name: 'E2E Writes GmbH',
			externalId: EXT.client1,
			city: 'Berlin',
			phone: '+49 30 1234567',
			creditLimit: 5000,
			frameContract: true,
			contactPersons: [{ name: 'Jana Weber', isMain: true, jobTitle: 'CEO' }],
		});
		const clientUpdated = one('Update client');
		expect(clientUpdated).toEqual(
			changedOnly(client, { city: 'Hamburg', creditLimit: 7500 }, ['phone']),
		);
		const client2 = upserted('client');
		expect(client2.updated).toMatchObject({ city: 'Bonn', email: 'office@upsert.example' });
		expect(withExternalId(clients, EXT.client2)).toEqual([
			expect.objectContaining({ id: client2.created.id, city: 'Bonn' }),
		]);

		// Contact persons (of the second client)
		const contact = one('Create contact person');
		expect(contact).toMatchObject({
			clientId: client2.created.id,
			name: 'Max Mustermann',
			isMain: false,
			externalId: EXT.contact1,
			email: 'max@upsert.example',
			jobTitle: 'Foreman',
		});
		const contactUpdated = one('Update contact person');
		expect(contactUpdated).toEqual(changedOnly(contact, { jobTitle: 'Site Manager' }, ['email']));
		expect(one('Get contact person')).toEqual(contactUpdated);
		expect(one('Get contact person by external ID')).toEqual(contactUpdated);
		const contact2 = upserted('contact person');
		expect(contact2.updated).toMatchObject({
			name: 'Erika Musterfrau',
			phone: '+49 221 777',
			changes: { phone: { from: '+49 221 555', to: '+49 221 777' } },
		});
		expect(items(result, 'Get many contact persons')).toEqual([
			contactUpdated,
			without(contact2.updated, ['upserted', 'changes']),
		]);
		expect(one('Delete contact person')).toMatchObject({ deleted: true, id: contact.id });
		expect(clients.find((record) => record.id === client2.created.id)!.contactPersons).toEqual([
			expect.objectContaining({
				id: contact2.created.id,
				externalId: EXT.contact2,
				phone: '+49 221 777',
			}),
		]);

		// Contracts: the client given by its external ID is sent as its ID
		const contract = one('Create contract');
		expect(contract).toMatchObject({
			clientId: client.id,
			title: 'E2E site Berlin',
			externalId: EXT.contract1,
			city: 'Berlin',
			structureId: STRUCTURE_ID,
			startDate: '2026-07-01T00:00:00.000Z',
			point: { lat: 52.5251, lng: 13.3694 },
		});
		expect(one('Update contract')).toEqual(
			changedOnly(contract, { title: 'E2E site Berlin-Mitte' }, ['city']),
		);
		const contract2 = upserted('contract');
		expect(contract2.updated).toMatchObject({
			clientId: client2.created.id,
			title: 'E2E upsert site, phase 2',
		});
		expect(withExternalId(contracts, EXT.contract2)).toEqual([
			expect.objectContaining({ id: contract2.created.id, title: 'E2E upsert site, phase 2' }),
		]);

		// Products
		const product = one('Create product');
		expect(product).toMatchObject({
			title: 'E2E excavator',
			type: 'RESOURCE',
			unitType: 'DAYS',
			externalId: EXT.product1,
			additionalInformation: 'made by e2e',
			priceList: [
				{ from: 1, price: 100 },
				{ from: 3, price: 80 },
			],
		});
		expect(one('Update product')).toEqual(
			changedOnly(product, { title: 'E2E excavator 2 t' }, ['additionalInformation']),
		);
		const product2 = upserted('product');
		expect(product2.updated.priceList).toEqual([{ id: expect.any(String), from: 1, price: 55 }]);
		expect(withExternalId(products, EXT.product2)).toEqual([
			expect.objectContaining({
				id: product2.created.id,
				priceItems: [expect.objectContaining({ price: 55 })],
			}),
		]);

		// Equipment: the update (a PUT) keeps every field it was not told to change
		const unit = one('Create equipment');
		expect(unit).toMatchObject({
			title: 'E2E excavator #1',
			externalId: EXT.equipment1,
			invNumber: 'INV-E2E-1',
			productId: product.id,
			year: 2024,
			specifications: { bucket: '0.1 m3' },
		});
		const unitUpdated = one('Update equipment');
		expect(unitUpdated).toEqual(
			changedOnly(unit, { subtitle: 'with quick coupler', invNumber: null }, ['invNumber']),
		);
		expect(one('Get equipment by external ID')).toEqual(unitUpdated);
		const unit2 = upserted('equipment');
		expect(unit2.updated).toMatchObject({
			title: 'E2E roller #1',
			productId: product2.created.id,
			year: 2023,
		});
		expect(withExternalId(equipment, EXT.equipment2)).toEqual([
			expect.objectContaining({ id: unit2.created.id, year: 2023 }),
		]);

		// Bookings: the contract and product given by external ID are sent as their IDs
		const reservation = one('Create booking');
		expect(reservation).toMatchObject({
			contractId: contract.id,
			productId: product.id,
			entityId: unit.id,
			quantity: 2,
			pickUpAddress: 'Depot Nord',
			externalId: EXT.booking1,
		});
		const reservationUpdated = one('Update booking');
		expect(reservationUpdated).toMatchObject({
			quantity: 3,
			additionalInformation: 'extended by e2e',
		});
		expect(reservationUpdated).not.toHaveProperty('pickUpAddress');
		expect(without(reservationUpdated, ['updatedAt', 'quantity', 'additionalInformation'])).toEqual(
			without(reservation, ['updatedAt', 'quantity', 'pickUpAddress']),
		);
		const booking2 = upserted('booking');
		expect(booking2.updated).toMatchObject({ contractId: contract2.created.id, quantity: 4 });
		expect(withExternalId(bookings, EXT.booking2)).toEqual([
			expect.objectContaining({ id: booking2.created.id, quantity: 4 }),
		]);

		// Deletes: gone from the store, the upserted records stay
		for (const [node, record] of [
			['Delete booking', reservation],
			['Delete equipment', unit],
			['Delete product', product],
			['Delete contract', contract],
			['Delete client', client],
		] as const)
			expect([node, one(node)]).toEqual([
				node,
				expect.objectContaining({ deleted: true, id: record.id }),
			]);
		const remaining = [...clients, ...contracts, ...products, ...equipment, ...bookings];
		for (const record of [reservation, unit, product, contract, client])
			expect(
				remaining.filter(
					(stored) => stored.id === record.id || stored.externalId === record.externalId,
				),
			).toEqual([]);

		// Only the lookups of the external IDs not yet taken failed (404), one per upsert that created
		const refused = result.sent.filter((r) => (r.status ?? 0) >= 400);
		expect(refused.map((r) => [r.method, r.status, r.path.split('/').at(-1)])).toEqual(
			[EXT.client2, EXT.contact2, EXT.contract2, EXT.product2, EXT.equipment2, EXT.booking2].map(
				(externalId) => ['GET', 404, externalId],
			),
		);
		expect(result.sent.filter((r) => r.method === 'POST')).toHaveLength(12);
	});

	it('a German CSV (semicolons, 1.250,50 and 12.000, local dates) through Extract From File: with Number Format 1.234,56 the quotes and price items get the amounts meant and the dates in UTC; with the default, 12.000 stops the run and nothing is sent', async () => {
		placeGermanCsv();
		const { productId, tierIds } = germanCsvTiers();
		let result: Awaited<ReturnType<typeof run>>;
		let refused: Awaited<ReturnType<typeof run>>;
		try {
			result = await run(GERMAN_CSV.withCommaFormat);
			refused = await run(GERMAN_CSV.withDefaultFormat);
		} finally {
			fs.rmSync(GERMAN_CSV.file, { force: true });
		}
		expectSuccess(result);

		const quotes = result.sent
			.filter((request) => request.method === 'POST' && request.path === QUOTES_PATH)
			.map((request) => request.body as Json)
			.sort((left, right) => left.quoteId.localeCompare(right.quoteId));
		expect(quotes).toEqual([
			{
				clientId: fx.clientId,
				contractId: fx.contractId,
				amount: 1250.5,
				quoteId: 'A-2026-001',
				// Berlin is UTC+1 until 29 March 2026, UTC+2 from then on.
				startDate: '2026-03-28T07:00:00.000Z',
				endDate: '2026-03-28T16:30:00.000Z',
			},
			{
				clientId: fx.clientId,
				contractId: fx.contractId,
				amount: 12000,
				quoteId: 'A-2026-002',
				startDate: '2026-03-30T06:00:00.000Z',
				endDate: '2026-04-02T14:45:00.000Z',
			},
		]);
		const tierPath = (tierId: string) =>
			`/master-data/v1/product-management/products/${productId}/price-list/${tierId}`;
		const prices = result.sent
			.filter((request) => request.method === 'PUT')
			.map((request) => [request.path, request.body])
			.sort(
				([left], [right]) =>
					tierIds.indexOf(String(left).split('/').at(-1)!) -
					tierIds.indexOf(String(right).split('/').at(-1)!),
			);
		expect(prices).toEqual([
			[tierPath(tierIds[0]), { from: 1, price: 1250.5 }],
			[tierPath(tierIds[1]), { from: 3, price: 12000 }],
		]);
		expect(items(result, GERMAN_CSV.quoteNode).map((quote) => quote.amount)).toEqual([
			1250.5, 12000,
		]);

		expect(refused.status).toBe('error');
		expect(refused.error?.message).toContain(
			`'Amount' must be a number written as 1,234.56, no greater than 100000000: "12.000" could be 12 (as 1,234.56) or 12000 (as 1.234,56) [item 1]`,
		);
		expect(refused.error?.description).toContain('Nothing was sent');
		expect(refused.error?.description).toContain(
			'If it means 12000, choose 1.234,56 (Comma as Decimal Separator) in Number Format',
		);
		expect(refused.sent).toEqual([]);
	});

	it('a wrong access token fails with the authorization message', async () => {
		const result = await run('opBadCredential');
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/Authorization failed/);
		expect(result.sent.map((r) => [r.status, r.headers.authorization])).toEqual([
			[401, 'Bearer wrong-token'],
		]);
	});
});

describe(onN8n('a running n8n: the trigger, the credential test and error workflows'), () => {
	let server: N8nServer;
	/** The requests n8n sent to `path` (the test's own are left out). */
	const listRequests = (path: string) =>
		sandbox.requests.filter(
			(request) => request.path === path && !request.headers[EXPECTATION_HEADER],
		);

	/** Waits until each event's list has answered a poll that came after `after()` was called. */
	const answeredPollOfEach = async (what: string, after: () => Promise<unknown>) => {
		const counts = new Map(
			MASTER_DATA_TRIGGERS.map((kind) => [kind.path, listRequests(kind.path).length]),
		);
		await after();
		await waitFor(
			what,
			async () =>
				MASTER_DATA_TRIGGERS.every((kind) =>
					listRequests(kind.path)
						.slice(counts.get(kind.path))
						.some((request) => request.status !== null),
				) || undefined,
			{ timeoutMs: NEXT_POLL_TIMEOUT_MS, explain: server.logTail },
		);
	};

	beforeAll(async () => {
		const serverStarting = Date.now();
		server = await startN8nServer(n8n.userFolder);
		timings.push(['trigger: n8n server start', Date.now() - serverStarting]);
	}, 240_000);

	afterAll(() => server?.stop());

	it("the credential test names the HTTP status and what to fix, where n8n applies the credential's rules", async () => {
		const testCredential = async (data: Json) =>
			(
				await server.rest('POST', '/credentials/test', {
					credentials: {
						id: rt.CREDENTIAL_ID,
						name: rt.CREDENTIAL_NAME,
						type: rt.CREDENTIAL_TYPE,
						data,
					},
				})
			).message as string;
		const wrongBaseUrl = await testCredential({
			baseUrl: `${sandbox.url}/master-data`,
			accessToken: TOKEN,
		});
		const wrongToken = await testCredential({ baseUrl: sandbox.url, accessToken: 'wrong' });

		if (CREDENTIAL_RULES_IGNORED.includes(rt.n8nVersion())) {
			// n8n shows only its own text for the status here (README, Credentials).
			expect([wrongBaseUrl, wrongToken]).toEqual([
				'The resource you are requesting could not be found',
				'Authorization failed - please check your credentials',
			]);
		} else {
			expect(wrongBaseUrl).toBe(
				'Not found (HTTP 404): the API has no such address. The Base URL is the address of the Integration API without /master-data or /analytics, e.g. https://integration-api.ram.syniotec.com.',
			);
			expect(wrongToken).toBe(
				'Authorization failed (HTTP 401): the API did not accept the Access Token',
			);
		}
		expect(await testCredential({ baseUrl: sandbox.url, accessToken: TOKEN })).toBe(
			'Connection successful!',
		);
	});

	it("an error workflow receives the node's API error with its HTTP status and item, as the execution recorded it, also for a run stopped at a later item", async () => {
		// n8n 2.8 runs an error workflow only once it is published (workflow-execution.service.js reads
		// its active version); 1.x runs it unpublished, and refuses to publish a workflow whose only
		// trigger is the Error Trigger.
		if (!rt.n8nVersion().startsWith('1.')) await server.activate(ERROR_WORKFLOW);
		await server.activate(CLIENTS_BY_WEBHOOK);
		const missing = '00000000-0000-4000-8000-000000000404';
		const callWebhook = (ids: string[]) =>
			waitFor(
				'the clients webhook to start an execution',
				async () => {
					const answer = await fetch(
						`${server.url}/webhook/${CLIENTS_WEBHOOK_PATH}?ids=${ids.join(',')}`,
					);
					// 404 until n8n has registered the webhook (2.41 publishes after activate returns).
					if (answer.status === 404) return undefined;
					if (!answer.ok) throw new Error(`webhook: HTTP ${answer.status} ${await answer.text()}`);
					return answer;
				},
				{ timeoutMs: 30_000, explain: server.logTail },
			);

		for (const [ids, failedItem] of [
			[[missing], 0],
			[[fx.clientId, missing, fx.clientId], 1],
		] as const) {
			const handled = new Set((await server.executions(ERROR_WORKFLOW)).map((run) => run.id));
			await callWebhook([...ids]);
			const errorRun = await waitFor(
				'the error workflow to run',
				async () =>
					(await server.executions(ERROR_WORKFLOW)).find(
						(run) => !handled.has(run.id) && !RUNNING_STATUSES.includes(run.status),
					),
				{ timeoutMs: 60_000, explain: server.logTail },
			);
			const [received] = rt.nodeItems(
				await server.finishedExecution(errorRun.id),
				'Error Trigger',
			)!;
			const failed = await server.finishedExecution(received.execution.id);

			const apiError = {
				name: 'NodeApiError',
				httpCode: '404',
				message: `Not found (HTTP 404): no record has the ID you gave [item ${failedItem}]`,
				description: expect.stringContaining(`The API said: No client has the id ${missing}.`),
			};
			expect(received).toMatchObject({
				execution: { mode: 'webhook', lastNodeExecuted: 'Get client', error: apiError },
				workflow: { id: CLIENTS_BY_WEBHOOK },
			});
			expect(failed).toMatchObject({ status: 'error', data: { resultData: { error: apiError } } });
		}
	});

	it('Fetch Test Event: the model event shows recently changed models, the distance event yesterday', async () => {
		const models = await server.fetchTestEvent('exModelChangeAlert', MODEL_TRIGGER);
		expect(models).toMatchObject({ mode: 'manual', status: 'success' });
		const sample = rt.nodeItems(models, MODEL_TRIGGER)!;
		expect(sample.length).toBeGreaterThan(0);
		expect(sample.length).toBeLessThanOrEqual(5);
		const stored = new Map((sandbox.store.models as Json[]).map((model) => [model.id, model]));
		expect(sample).toEqual(sample.map((model) => stored.get(model.id)));
		const times = sample.map((model) => Date.parse(model.updatedAt));
		expect(times).toEqual([...times].sort((a, b) => b - a));

		const distances = await server.fetchTestEvent('trDistanceReport', DISTANCE_TRIGGER);
		expect(distances).toMatchObject({ mode: 'manual', status: 'success' });
		const expected: Json[] = await api(
			sandbox,
			TOKEN,
			`/analytics/v1/equipment-distance/${fx.distanceDate}`,
		);
		const reported = rt.nodeItems(distances, DISTANCE_TRIGGER)!;
		expect(reported.map((record) => record.equipmentId)).toEqual(
			expected.map((record) => record.equipmentId),
		);
	});

	it('model-change-alert (polling every 15 s): after the baseline poll, the next poll starts one execution carrying exactly the models changed in the sandbox', async () => {
		const workflowId = MODEL_ALERT_EVERY_15S;
		const modelRequests = () => sandbox.requests.filter((r) => r.path === MODELS_PATH);
		const manualRuns = (await server.executions(workflowId)).length;
		const requestsBefore = modelRequests().length;
		const activatedAt = Date.now();
		await server.activate(workflowId);
		// Activation polls once, for the baseline: it notes the models changed in the last overlap
		// (10 minutes by n8n's clock) and emits nothing. Newer n8n versions poll after activate returns.
		const baselinePoll = await waitFor(
			'the baseline poll',
			async () => modelRequests().slice(requestsBefore)[0],
			{ timeoutMs: NEXT_POLL_TIMEOUT_MS, explain: server.logTail },
		);
		expect(baselinePoll.query).toMatchObject({ page: '1', limit: '100' });
		const baselineFrom = Date.parse(String(baselinePoll.query.updatedAfter));
		expect(baselineFrom).toBeGreaterThanOrEqual(activatedAt - OVERLAP_MS - 1);
		expect(baselineFrom).toBeLessThan(Date.now() - OVERLAP_MS);
		expect(await server.executions(workflowId)).toHaveLength(manualRuns);

		const [changed, alsoChanged] = (sandbox.store.models as Json[])
			.slice(7, 9)
			.map((model) =>
				sandbox.updateModel<Json>(model.id, { name: `${model.name} (renamed in e2e)` }),
			);
		const changedAt = Date.now();
		const finished = await waitFor(
			'an execution started by the next poll',
			async () =>
				(await server.executions(workflowId)).find(
					(e) => e.mode === 'trigger' && e.status !== 'new' && e.status !== 'running',
				),
			{ timeoutMs: NEXT_POLL_TIMEOUT_MS, explain: server.logTail },
		);
		timings.push(['trigger: wait for the next poll', Date.now() - changedAt]);

		const [nextPoll] = modelRequests().slice(requestsBefore + 1);
		const nextFrom = Date.parse(String(nextPoll.query.updatedAfter));
		expect(nextFrom).toBeGreaterThanOrEqual(baselineFrom);
		expect(nextFrom).toBeLessThan(Date.parse(changed.updatedAt));
		const execution = await server.finishedExecution(finished.id);
		expect(execution).toMatchObject({ mode: 'trigger', status: 'success' });
		// One execution for the poll, whatever the number of models it found (examples/README.md).
		expect(await server.executions(workflowId)).toHaveLength(manualRuns + 1);
		// In the API's order (the sandbox lists models by name).
		const bothChanged = [changed, alsoChanged].sort((a, b) => (a.name < b.name ? -1 : 1));
		expect(rt.nodeItems(execution, 'Equipment model changed')).toEqual(bothChanged);
		expect(rt.nodeItems(execution, 'Change alert')).toEqual(
			bothChanged.map((model) => ({
				modelId: model.id,
				model: model.name,
				brand: model.brand.name,
				updatedAt: model.updatedAt,
				alert: `Equipment model "${model.name}" was created or changed at ${model.updatedAt}.`,
			})),
		);
	}, 240_000);

	it('Fetch Test Event: each event shows up to five recently changed records of its kind, telling created or updated', async () => {
		for (const kind of MASTER_DATA_TRIGGERS) {
			const run = await server.fetchTestEvent(MASTER_DATA_WORKFLOW, kind.node);
			expect(run).toMatchObject({ mode: 'manual', status: 'success' });
			const sample = rt.nodeItems(run, kind.node)!;
			const stored = new Set(storedRecords(sandbox, kind).map((record) => record.id));
			expect([kind.event, sample.length > 0 && sample.length <= 5]).toEqual([kind.event, true]);
			expect(sample.filter((record) => !stored.has(record.id))).toEqual([]);
			expect(
				sample.filter((record) => !['created', 'updated'].includes(record.changeType)),
			).toEqual([]);
		}
	});

	it('master-data events (polling every 15 s): after the baseline polls, one execution per event carries exactly the records created or changed in the sandbox, each telling which, and the next polls emit nothing', async () => {
		const [clientKind, contractKind, productKind] = MASTER_DATA_TRIGGERS;
		// Activation polls once per trigger, for the baseline (newer n8n versions after activate
		// returns); it emits nothing.
		await answeredPollOfEach('the baseline poll of each event', () =>
			server.activate(MASTER_DATA_WORKFLOW),
		);
		expect(await server.executions(MASTER_DATA_WORKFLOW)).toEqual(
			expect.not.arrayContaining([expect.objectContaining({ mode: 'trigger' })]),
		);

		// A client created through the API, and one record of each kind edited as the API would.
		const created: StoredRecord = await api(sandbox, TOKEN, clientKind.path, {
			name: 'Created in e2e',
			partnerType: 'INDUSTRY',
			status: 'ACTIVE',
		});
		const [clients, contracts, products] = MASTER_DATA_TRIGGERS.map((kind) =>
			storedRecords(sandbox, kind),
		);
		const changed: Record<string, Array<[StoredRecord, string]>> = {
			[clientKind.event]: [
				[created, 'created'],
				[renameRecord(sandbox, clientKind, clients[5]), 'updated'],
			],
			[contractKind.event]: [[renameRecord(sandbox, contractKind, contracts[5]), 'updated']],
			[productKind.event]: [[renameRecord(sandbox, productKind, products[5]), 'updated']],
		};
		const changedAt = Date.now();
		await waitFor(
			'an execution of each event',
			async () => {
				const ended = (await server.executions(MASTER_DATA_WORKFLOW)).filter(
					(e) => e.mode === 'trigger' && !RUNNING_STATUSES.includes(e.status),
				);
				const failed = ended.find((e) => e.status !== 'success');
				// A poll that fails shows as a failed execution: say why at once.
				if (failed) {
					const { data } = await server.execution(failed.id);
					throw new Error(
						`execution ${failed.id} ${failed.status}: ${JSON.stringify(data.resultData?.error).slice(0, 1500)}`,
					);
				}
				return ended.length >= MASTER_DATA_TRIGGERS.length || undefined;
			},
			{ timeoutMs: NEXT_POLL_TIMEOUT_MS, explain: server.logTail },
		);
		timings.push(['trigger on master data: wait for the next polls', Date.now() - changedAt]);
		// One more answered poll of each event, and a moment for an execution it would start: a record
		// emitted twice would show as a second execution.
		await answeredPollOfEach('one more poll of each event', async () => {});
		await new Promise((resolve) => setTimeout(resolve, 2_000));

		const executions = await Promise.all(
			(await server.executions(MASTER_DATA_WORKFLOW))
				.filter((summary) => summary.mode === 'trigger')
				.map((summary) => server.finishedExecution(String(summary.id))),
		);
		expect(executions).toHaveLength(MASTER_DATA_TRIGGERS.length);
		for (const kind of MASTER_DATA_TRIGGERS) {
			const ran = executions.filter((execution) => rt.nodeItems(execution, kind.node));
			expect([kind.event, ran.map((execution) => [execution.mode, execution.status])]).toEqual([
				kind.event,
				[['trigger', 'success']],
			]);
			// Each record as the list answers it, plus changeType.
			const answered: Json[] = (await api(sandbox, TOKEN, `${kind.path}?limit=1000`)).content;
			const byId = (left: Json, right: Json) => (left.id < right.id ? -1 : 1);
			const expected = changed[kind.event].map(([record, changeType]) => ({
				...answered.find((answer) => answer.id === record.id),
				changeType,
			}));
			const emitted = rt.nodeItems(ran[0], kind.node)!;
			expect([kind.event, [...emitted].sort(byId)]).toEqual([kind.event, expected.sort(byId)]);
		}
	}, 180_000);

	it('erp-sync run again while the client, contract and product events are active: it writes nothing, and their next polls emit nothing', async () => {
		// The events' workflow is active since the test above; the export's records hold its rows'
		// values since the example workflows' tests.
		const triggered = async () =>
			(await server.executions(MASTER_DATA_WORKFLOW)).filter(
				(execution) => execution.mode === 'trigger',
			).length;
		const before = await triggered();
		const sent = sandbox.requests.length;

		let sync: Execution | undefined;
		await answeredPollOfEach('a poll of each event after the sync', async () => {
			sync = await server.fetchTestEvent(ERP_SYNC_WORKFLOW, 'Run now (test)');
		});
		await new Promise((resolve) => setTimeout(resolve, 2_000));

		expect(sync?.status).toBe('success');
		const clients = rt.nodeItems(sync!, ERP_NODES.clients)!;
		expect(new Set(clients.map((item) => item.upserted))).toEqual(new Set(['unchanged']));
		expect(sandbox.requests.slice(sent).filter((request) => request.method !== 'GET')).toEqual([]);
		expect(await triggered()).toBe(before);
	}, 120_000);

	// The node's own logic (how it finds the records); the engine's part, a sync run again while the
	// events are active, is the test above on every version.
	nodeLogicTest(
		"a nightly sync of 1,000 clients, run twice while the client event is active: each run reads the clients whole, the first updates the 1% that differ, the second writes nothing, and the event emits the first run's updates only",
		async () => {
			const clientKind = MASTER_DATA_TRIGGERS.find((kind) => kind.collection === 'clients')!;
			// The API holds every row's client since yesterday (before the event's baseline), 1% of
			// them under another name.
			const rows = nightlyRows(NIGHTLY_SYNC.prefix);
			const { changed: differing } = clientsOfLastNight(sandbox.store, rows, {
				clockOffsetMs: -24 * 60 * 60 * 1000,
			});
			const triggerExecutions = async () =>
				(await server.executions(MASTER_DATA_WORKFLOW)).filter(
					(execution) => execution.mode === 'trigger',
				);
			// The sync's requests: the clients' paths, without the event's polls (which ask for the
			// records updated after their last poll).
			const syncRequests = (since: number) =>
				sandbox.requests
					.slice(since)
					.filter(
						(request) =>
							request.path.startsWith(clientKind.path) &&
							request.query.updatedAfter === undefined &&
							!request.headers[EXPECTATION_HEADER],
					);
			const pages = Math.ceil(storedRecords(sandbox, clientKind).length / WHOLE_READ_PAGE_SIZE);
			const runSync = async () => {
				const sent = sandbox.requests.length;
				const run = await server.fetchTestEvent(NIGHTLY_SYNC.workflow, 'Start');
				expect(run.status).toBe('success');
				const outcomes = rt.nodeItems(run, NIGHTLY_SYNC.node)!.map((item) => item.upserted);
				return { outcomes, requests: syncRequests(sent) };
			};
			const before = new Set((await triggerExecutions()).map((execution) => execution.id));

			const first = await runSync();
			expect(first.outcomes).toEqual(
				rows.map((row) => (differing.includes(row) ? 'updated' : 'unchanged')),
			);
			expect(first.requests.filter((request) => request.method !== 'GET')).toHaveLength(
				differing.length,
			);
			expect(first.requests.filter((request) => request.method === 'GET')).toHaveLength(pages);
			const synced = clientsWithPrefix(`${NIGHTLY_SYNC.prefix}-`);
			expect(synced.map((client) => client.name).sort()).toEqual(
				rows.map((row) => row.name).sort(),
			);
			const updatedIds = differing.map(
				(row) => synced.find((client) => client.externalId === row.externalId)!.id,
			);
			// The event emits the clients the first run updated, each once. A poll that comes while the
			// run is writing emits those written so far, and the next poll the rest.
			const emittedSinceBefore = async () => {
				const executions = (await triggerExecutions()).filter(
					(execution) => !before.has(execution.id),
				);
				const emitted: Array<[unknown, unknown]> = [];
				for (const execution of executions) {
					const run = await server.finishedExecution(String(execution.id));
					const records = rt.nodeItems(run, clientKind.node);
					if (!records)
						throw new Error(`execution ${execution.id} is another event's; only clients changed`);
					for (const record of records) emitted.push([record.id, record.changeType]);
				}
				return emitted;
			};
			const emitted = await waitFor(
				'the client event to emit the updated clients',
				async () => {
					const soFar = await emittedSinceBefore();
					return soFar.length >= updatedIds.length ? soFar : undefined;
				},
				{ timeoutMs: NEXT_POLL_TIMEOUT_MS, explain: server.logTail },
			);
			expect(emitted.sort()).toEqual(updatedIds.map((id) => [id, 'updated']).sort());
			const afterFirst = (await triggerExecutions()).length;

			const second = await runSync();
			expect(second.outcomes).toEqual(rows.map(() => 'unchanged'));
			expect(second.requests.filter((request) => request.method !== 'GET')).toEqual([]);
			expect(second.requests).toHaveLength(pages);
			// One more answered poll of each event after the second run, and a moment for an execution
			// it would start: none comes.
			await answeredPollOfEach('a poll of each event after the second run', async () => {});
			await new Promise((resolve) => setTimeout(resolve, 2_000));
			expect(await triggerExecutions()).toHaveLength(afterFirst);
		},
		240_000,
	);
});

describe(onN8n('the contract'), () => {
	it('every request n8n sent is one the OpenAPI document allows', () => {
		// The credential test's Base URL ending in /master-data doubles the path on purpose.
		const sentByN8n = sandbox.requests.filter(
			(r) => !r.headers[EXPECTATION_HEADER] && !r.path.startsWith('/master-data/master-data/'),
		);
		expect(sentByN8n.length).toBeGreaterThan(10);
		expect(contractViolations(sentByN8n)).toEqual([]);
	});
});
