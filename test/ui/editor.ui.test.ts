/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-hardcoded-secrets
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The editor as users see it: the built package in a real n8n (2.8.4 unless
 * EQUIPMENT_RENTAL_N8N_VERSION names another of scripts/runtime/versions.js; `n8n start`, its own
 * user folder, free ports), the sandbox behind it, and n8n's editor driven in Chromium. Every check
 * is an assertion on what the page shows; where editors differ, test/ui/versions.ts says what this
 * version shows, and every test's name starts with the n8n version. Each step saves a screenshot
 * into test/ui/screenshots/n8n-<version>/ (also when it fails); with UPDATE_SCREENSHOTS=1 the
 * README's pictures in docs/ are made again (from the default version only).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import type { Locator, Page } from 'playwright-core';

import {
	api,
	EXPECTATION_HEADER,
	type Json,
	onN8n,
	rt,
	type RuntimeServer,
	type Sandbox,
	start,
	UUID,
} from '../e2e/support';
import {
	killGroup,
	launchChromium,
	makeStep,
	type RunningBrowser,
	saveReadmePicture,
	VIEWPORT,
} from './browser';
import {
	actionsByGroup,
	addNodeAction,
	canvasOverlaps,
	canvasSubtitle,
	choose,
	closeNode,
	closeToasts,
	collectionChoices,
	executeStep,
	field,
	fieldLabels,
	fieldsNotAsDefinedByModel,
	fieldTooltip,
	fieldValue,
	fill,
	isPicker,
	markedFields,
	ndv,
	nodeCreator,
	openNode,
	openEntry,
	openNodesPanel,
	openPicker,
	openWorkflow,
	optionChoices,
	picker,
	pickById,
	pickerItems,
	pickerModes,
	readOutput,
	runToolWithValues,
	scrollPicker,
	searchPicker,
	searchNodes,
	settle,
	signIn,
	textInItsBox,
	tid,
	unfold,
} from './editor';
import { CLIENTS_PATH, CONTRACTS_PATH, PRODUCTS_PATH } from '../../nodes/shared/paths';
import {
	ACTIONS_BY_RESOURCE,
	EXTERNAL_ID_MODE,
	type ExpectedField,
	type ExpectedOperation,
	LOOKUPS,
	OPERATIONS,
	REQUEST_OPTIONS,
	SEARCH_WORDS,
	TRIGGER_EVENTS,
	WRITES,
} from './operations';
import { editorOf } from './versions';

/** What this n8n version's editor shows where versions differ. */
const EDITOR = editorOf(rt.n8nVersion());
/** The labels above an operation's own fields: the credential, Resource and Operation. */
const isNodeSetting = (label: string) =>
	[EDITOR.credentialLabel, 'Resource', 'Operation'].includes(label);

const TOKEN = 'ui-token-8d2e4a61';
const WRONG_TOKEN = 'ui-wrong-token-5c7f19';
const OWNER = {
	email: 'ui-owner@example.com',
	firstName: 'UI',
	lastName: 'Owner',
	password: 'Ui-Owner-Passw0rd',
};
/**
 * The examples' nodes n8n marks as needing the user's attention when opened as shipped: the AI
 * example's chat model, which ships without a credential (the user adds theirs).
 */
const EXPECTED_WARNINGS: Record<string, string[]> = {
	'ai-agent-quote.json': ['OpenAI Chat Model'],
};
const NODE_ENTRY = 'Equipment Rental';
/** The name a new trigger node gets. */
const TRIGGER_NODE = 'Equipment Rental Trigger';
const QUOTES_PATH = '/master-data/v1/quote-management/quotes';
const MODELS_PATH = '/master-data/v1/equipment-management/models';

let tmp: string;
let sandbox: Sandbox;
let n8n: RuntimeServer;
let chrome: RunningBrowser;
let page: Page;
const step = makeStep(() => page);
// The editor renders as it pleases and CI's machines are shared: a step that fails is run once more
// (each starts from its own page). The first failure is printed here and named by .ci/run's summary as
// "retried", so a flaky step stays visible; a step that fails twice fails the suite.
jest.retryTimes(1, { logErrorsBeforeRetry: true });

/**
 * Workflows as they were saved with version 0.2.0 of the package (test/e2e/fixtures), imported
 * under ids of their own: every-operation as 0.2.0 shipped it, and the AI-agent example as the
 * repository had it at package version 0.2.0 just before the pickers (examples/ai-agent-quote.json
 * at 71c1586^): 0.2.0's node with IDs as text, the fields the model defines in the form n8n's "Let
 * the model define this parameter" writes.
 */
const SAVED_BY_020 = {
	everyOperation: { file: 'every-operation-0.2.0.json', id: 'ui020EveryOperation' },
	aiTool: { file: 'ai-tool-0.2.0-editor.json', id: 'ui020AiTool' },
};
function savedBy020(which: keyof typeof SAVED_BY_020): Json {
	const { file, id } = SAVED_BY_020[which];
	const workflow = JSON.parse(
		fs.readFileSync(path.join(__dirname, '..', 'e2e', 'fixtures', file), 'utf8'),
	);
	return { ...workflow, id, name: `${workflow.name} (saved with 0.2.0)` };
}

/**
 * n8n's own Airtable Trigger (a polling trigger of an app, as ours) before an Edit Fields node: what
 * n8n's editor does for a trigger of its own.
 */
const AIRTABLE_CONTROL: Json = {
	id: 'uiAirtableControl',
	name: "n8n's Airtable Trigger, for comparison",
	active: false,
	nodes: [
		{
			id: 'airtable',
			name: 'Airtable Trigger',
			type: 'n8n-nodes-base.airtableTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] } },
		},
		{
			id: 'set',
			name: 'Edit Fields',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [260, 0],
			parameters: { options: {} },
		},
	],
	connections: {
		'Airtable Trigger': { main: [[{ node: 'Edit Fields', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
	pinData: {},
};

const TOOLS_DESCRIBED_BY_THE_NODE = 'uiToolsDescribedByTheNode';

/** The AI-agent example with its tools' descriptions left as the node fills them in. */
function toolsDescribedByTheNode(): Json {
	const example = rt.loadExamples().find((wf) => wf.file === 'ai-agent-quote.json')!;
	const nodes = example.nodes.map((node: Json) => {
		if (!/equipmentRentalTool$/.test(node.type)) return node;
		const parameters = { ...node.parameters };
		delete parameters.toolDescription;
		return { ...node, parameters };
	});
	return {
		...example,
		id: TOOLS_DESCRIBED_BY_THE_NODE,
		name: 'AI agent, its tools described by the node',
		nodes,
	};
}

/** The requests n8n sent to the sandbox since `since` (the test's own are left out). */
function sentSince(since: number) {
	return sandbox.requests.slice(since).filter((request) => !request.headers[EXPECTATION_HEADER]);
}

beforeAll(async () => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-ui-'));
	sandbox = await start({ token: TOKEN });
	const userFolder = path.join(tmp, 'user');
	await rt.prepareUserFolder(userFolder, {
		sandboxUrl: sandbox.url,
		token: TOKEN,
		workflows: [
			savedBy020('everyOperation'),
			savedBy020('aiTool'),
			AIRTABLE_CONTROL,
			toolsDescribedByTheNode(),
		],
	});
	n8n = await rt.startN8nServer(userFolder, { port: await rt.getFreePort(), output: 'quiet' });
	// n8n runs in its own process group; should Jest itself die, the group must not outlive it.
	const n8nGroup = n8n.child.pid!;
	process.once('exit', () => killGroup(n8nGroup, 'SIGKILL'));
	await rt.setupOwner(n8n.url, OWNER);
	chrome = await launchChromium();
	page = chrome.page;
	page.setDefaultTimeout(30_000);
	await signIn(page, n8n.url, OWNER);
	// The sign-in page's own check of the session (401 before signing in) is not a panel's error.
	chrome.takeConsoleErrors();
}, 600_000);

afterAll(async () => {
	await chrome?.stop();
	await n8n?.stop();
	await sandbox?.close();
	if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
}, 60_000);

describe(onN8n('the nodes panel'), () => {
	step('lists the node with its actions by resource, described as the node', async () => {
		await openWorkflow(page, n8n.url, 'exModelChangeAlert');
		await openNodesPanel(page);
		// The workflow has a trigger: the panel offers what happens next, i.e. the node's actions.
		await expect(nodeCreator(page).locator(tid('nodes-list-header')).innerText()).resolves.toMatch(
			/What happens next/,
		);
		expect(await searchNodes(page, 'Equipment', NODE_ENTRY)).toEqual([NODE_ENTRY]);
		await openEntry(page, NODE_ENTRY);
		await unfold(page, 'Actions', Object.values(ACTIONS_BY_RESOURCE)[0][0]);
		// The panel renders the actions a batch at a time: wait for the last one.
		await nodeCreator(page)
			.locator(tid('node-creator-item-name'), {
				hasText: Object.values(ACTIONS_BY_RESOURCE).flat().at(-1),
			})
			.last()
			.waitFor();
		expect(await actionsByGroup(page)).toEqual(ACTIONS_BY_RESOURCE);
		// The entry describes the node (quotes, price lists...), not only its trigger.
		const details = await nodeCreator(page).innerText();
		expect(details).toMatch(/quotes/i);
		expect(details).not.toMatch(/^Starts the workflow/m);
		await saveReadmePicture(nodeCreator(page), 'nodes-panel');
		expect(chrome.takeConsoleErrors()).toEqual([]);
	});

	step('lists the trigger with its events', async () => {
		await openWorkflow(page, n8n.url);
		await openNodesPanel(page);
		await expect(nodeCreator(page).locator(tid('nodes-list-header')).innerText()).resolves.toMatch(
			/What triggers this workflow/,
		);
		expect(await searchNodes(page, 'Equipment', NODE_ENTRY)).toEqual([NODE_ENTRY]);
		await openEntry(page, NODE_ENTRY);
		await unfold(page, 'Triggers', TRIGGER_EVENTS[0].entry);
		const names = await nodeCreator(page)
			.locator(tid('node-creator-item-name'))
			.filter({ visible: true })
			.allInnerTexts();
		expect(names.filter((name) => name !== NODE_ENTRY)).toEqual(
			TRIGGER_EVENTS.map((event) => event.entry),
		);
	});

	step('finds the node by the words users type', async () => {
		await openWorkflow(page, n8n.url, 'exModelChangeAlert');
		await openNodesPanel(page);
		const missing: string[] = [];
		for (const word of SEARCH_WORDS) {
			if (!(await searchNodes(page, word, NODE_ENTRY)).includes(NODE_ENTRY)) missing.push(word);
		}
		expect(missing).toEqual([]);
	});

	step("links to documentation that survives n8n's tracking query", async () => {
		await openWorkflow(page, n8n.url);
		await addNodeAction(page, NODE_ENTRY, 'Actions', 'Create a quote');
		// n8n appends "?utm_source=..." to some links: after a "#fragment" that breaks the anchor.
		const href = await ndv(page).getByRole('link', { name: 'Docs' }).getAttribute('href');
		expect(new URL(href!).hash).toMatch(/^(#[\w-]+)?$/);
	});
});

/**
 * What differs from the expected fields of the panel open in the page, each named with `where`:
 * picker or not and its modes, the value and placeholder shown, the hint and the note under the
 * field, the choices of a collection.
 */
async function fieldMismatches(where: string, fields: ExpectedField[]): Promise<string[]> {
	const mismatches: string[] = [];
	for (const expectedField of fields) {
		const item = await field(page, expectedField.label);
		const label = `${where} ${expectedField.label}`;
		if (expectedField.picker !== undefined && (await isPicker(item)) !== expectedField.picker)
			mismatches.push(`${label}: ${expectedField.picker ? 'not ' : ''}a picker`);
		else if (expectedField.modes) {
			const modes = await pickerModes(page, item);
			if (JSON.stringify(modes) !== JSON.stringify(expectedField.modes))
				mismatches.push(`${label} modes: ${modes.join(', ')}`);
		}
		if (expectedField.value !== undefined || expectedField.placeholder) {
			const { value, placeholder } = await fieldValue(item);
			const asShown = typeof expectedField.value === 'number' ? Number(value) : value;
			if (expectedField.value !== undefined && asShown !== expectedField.value)
				mismatches.push(`${label}: ${String(value)}`);
			if (expectedField.placeholder && !expectedField.placeholder.test(placeholder ?? ''))
				mismatches.push(`${label} placeholder: ${placeholder}`);
		}
		if (expectedField.hint) {
			const hint = await fieldTooltip(page, item);
			if (!expectedField.hint.test(hint)) mismatches.push(`${label} hint: ${hint}`);
		}
		if (expectedField.note) {
			// n8n renders a property's hint as HTML under the field, with no test id of its own.
			const text = await item.innerText();
			if (!expectedField.note.test(text)) mismatches.push(`${label} note: ${text}`);
		}
		if (expectedField.choices) {
			const choices = await collectionChoices(page, item);
			if (JSON.stringify(choices) !== JSON.stringify(expectedField.choices))
				mismatches.push(`${label}: ${choices.join(', ')}`);
		}
	}
	return mismatches;
}

/**
 * The seed's operations each added from its action in the nodes panel and checked whole, the panel's
 * subtitle on the canvas and Return All among it; the others of the seed are checked in one node by
 * switching Resource and Operation ("the reference's operations" below), as the reference's are.
 */
const ADDED_BY_ACTION = ['Create a quote', 'Get many equipment models'];

describe(onN8n('every operation'), () => {
	for (const operation of OPERATIONS.filter(({ action }) => ADDED_BY_ACTION.includes(action))) {
		step(`${operation.resource} > ${operation.operation}: fields, defaults, hints`, async () => {
			await openWorkflow(page, n8n.url);
			chrome.takeConsoleErrors();
			await addNodeAction(page, NODE_ENTRY, 'Actions', operation.action);
			await expect(fieldValue(await field(page, 'Resource'))).resolves.toMatchObject({
				value: operation.resource,
			});
			await expect(fieldValue(await field(page, 'Operation'))).resolves.toMatchObject({
				value: operation.operation,
			});
			const labels = await fieldLabels(page);
			expect(labels.filter((label) => !isNodeSetting(label))).toEqual(
				operation.fields.map((expected) => expected.label),
			);
			expect(
				await fieldMismatches(`${operation.resource} > ${operation.operation}`, operation.fields),
			).toEqual([]);
			if (labels.includes('Return All')) {
				// Return All on hides Limit; off shows it again.
				const returnAll = (await field(page, 'Return All')).locator('.el-switch');
				const limitShown = async () => (await fieldLabels(page)).includes('Limit');
				await returnAll.click();
				await expect(settle(limitShown, (shown) => !shown)).resolves.toBe(false);
				await returnAll.click();
				await expect(settle(limitShown, (shown) => shown)).resolves.toBe(true);
			}
			// Opening and reading the panel logs no error (a refused run below logs n8n's own).
			expect(chrome.takeConsoleErrors()).toEqual([]);
			if (operation.action === 'Create a quote') {
				await closeToasts(page);
				await saveReadmePicture(ndv(page), 'operation-panel');
			}
			const required = operation.fields.filter((expected) => expected.required).map((f) => f.label);
			if (required.length) {
				// n8n marks the empty required fields when the step is run, and runs nothing.
				const before = sandbox.requests.length;
				await executeStep(page);
				await expect(
					settle(
						() => markedFields(page),
						(marked) => marked.length >= required.length,
					),
				).resolves.toEqual(required);
				expect(sentSince(before)).toEqual([]);
				await closeToasts(page);
			}
			await closeNode(page);
			// The subtitle names the action as users read it, not n8n's internal values.
			const subtitle = await canvasSubtitle(page, operation.action);
			const readable =
				subtitle === operation.action ||
				(subtitle.includes(operation.operation) && subtitle.includes(operation.resource));
			expect([subtitle, readable]).toEqual([subtitle, true]);
		});
	}
});

describe(onN8n('Request Options'), () => {
	step(
		"the Settings tab's Request Options offers the node's Max Rate Limit Wait and Parallel Requests beside n8n's own",
		async () => {
			await openWorkflow(page, n8n.url);
			await addNodeAction(page, NODE_ENTRY, 'Actions', 'Get many equipment models');
			await ndv(page).locator(tid('tab-settings')).click();
			const requestOptions = await field(page, 'Request Options');
			expect(await collectionChoices(page, requestOptions)).toEqual(REQUEST_OPTIONS);
		},
	);
});

/** The operations by resource, each resource's in their order, the resources in the order they come. */
function byResource(operations: ExpectedOperation[]): Array<[string, ExpectedOperation[]]> {
	const groups = new Map<string, ExpectedOperation[]>();
	for (const operation of operations)
		groups.set(operation.resource, [...(groups.get(operation.resource) ?? []), operation]);
	return [...groups];
}

describe(onN8n("the reference's operations"), () => {
	/**
	 * The console's errors but n8n's own refusal of a run with empty required fields (a 500 from
	 * /run, "The workflow has issues"), which may arrive after the marks.
	 */
	const errorsButRefusals = () =>
		chrome
			.takeConsoleErrors()
			.filter((text) => !/workflow has issues|500 \(Internal Server Error\).*\/run\)$/.test(text));

	/**
	 * What differs from the expected panels, each operation chosen by switching Resource and
	 * Operation in one node: the labels, then each field as fieldMismatches reads it; with `runForMarks`, also the
	 * fields n8n marks as required when the step is run empty (it then runs nothing).
	 */
	async function panelMismatches(
		operations: ExpectedOperation[],
		{ runForMarks = false } = {},
	): Promise<string[]> {
		await openWorkflow(page, n8n.url);
		chrome.takeConsoleErrors();
		await addNodeAction(page, NODE_ENTRY, 'Actions', operations[0].action);
		const mismatches: string[] = [];
		for (const operation of operations) {
			await choose(page, 'resource', operation.resource);
			await choose(page, 'operation', operation.operation);
			const where = `${operation.resource} > ${operation.operation}`;
			const expected = operation.fields.map((expectedField) => expectedField.label);
			const shown = await settle(
				async () => (await fieldLabels(page)).filter((label) => !isNodeSetting(label)),
				(labels) => JSON.stringify(labels) === JSON.stringify(expected),
			);
			if (JSON.stringify(shown) !== JSON.stringify(expected))
				mismatches.push(`${where}: ${shown.join(', ')}`);
			if (runForMarks) {
				const required = operation.fields.filter((f) => f.required).map((f) => f.label);
				const before = sandbox.requests.length;
				for (const error of errorsButRefusals()) mismatches.push(`${where}: ${error}`);
				await executeStep(page);
				const marked = await settle(
					() => markedFields(page),
					(labels) => labels.length >= required.length,
				);
				if (JSON.stringify(marked) !== JSON.stringify(required))
					mismatches.push(`${where} marked required: ${marked.join(', ')}`);
				if (sentSince(before).length) mismatches.push(`${where}: ran with empty required fields`);
				await closeToasts(page);
				for (const error of errorsButRefusals()) mismatches.push(`${where}: ${error}`);
			}
			mismatches.push(
				...(await fieldMismatches(
					where,
					operation.fields.filter((item) => shown.includes(item.label)),
				)),
			);
		}
		return mismatches;
	}

	// One step per resource, its operations switched in one node: the 30 writes in one step took 113 s
	// on an idle machine and 146 s in a cold CI run, which a busy machine failed at the 240 s limit.
	for (const [resource, operations] of byResource(LOOKUPS))
		step(
			`every panel, ${resource}: labels, defaults and choices, with Resource and Operation switched in one node`,
			async () => {
				expect(await panelMismatches(operations)).toEqual([]);
				expect(chrome.takeConsoleErrors()).toEqual([]);
			},
		);

	const seedOthers = OPERATIONS.filter(({ action }) => !ADDED_BY_ACTION.includes(action));
	for (const [resource, operations] of byResource(seedOthers))
		step(
			`the seed's other operations, ${resource}: labels, defaults, placeholders, hints and required marks, with Resource and Operation switched in one node`,
			async () => {
				expect(await panelMismatches(operations, { runForMarks: true })).toEqual([]);
				expect(errorsButRefusals()).toEqual([]);
			},
		);

	for (const [resource, operations] of byResource(WRITES))
		step(
			`every write (issue 26), ${resource}: labels, required marks, pickers and the choices of Additional and Update Fields`,
			async () => {
				expect(await panelMismatches(operations, { runForMarks: true })).toEqual([]);
				expect(errorsButRefusals()).toEqual([]);
			},
		);
});

describe(onN8n('Execute step'), () => {
	step('Get Many equipment models shows the models the API holds', async () => {
		await openWorkflow(page, n8n.url);
		await addNodeAction(page, NODE_ENTRY, 'Actions', 'Get many equipment models');
		await fill(page, 'Limit', '5');
		await executeStep(page);
		const limited = await readOutput(page);
		const expected = await api(sandbox, TOKEN, `${MODELS_PATH}?page=1&limit=5`);
		expect(limited.status).toBe('success');
		expect(limited.count).toBe(5);
		expect(limited.rows.map((row) => [row.id, row.name])).toEqual(
			expected.content.map((model: Json) => [model.id, model.name]),
		);
		await (await field(page, 'Return All')).locator('.el-switch').click();
		await executeStep(page);
		const all = await settle(
			() => readOutput(page),
			(output) => output.count !== 5,
			60_000,
		);
		expect(all.count).toBe(expected.total);
	});

	step('Create Quote with an invalid UUID shows the node error naming field and item', async () => {
		await openWorkflow(page, n8n.url);
		await addNodeAction(page, NODE_ENTRY, 'Actions', 'Create a quote');
		const before = sandbox.requests.length;
		await pickById(page, 'clientId', 'not-a-uuid');
		await pickById(page, 'contractId', sandbox.store.fixtures.contractId);
		await fill(page, 'Amount', '10');
		await executeStep(page);
		const output = await readOutput(page);
		expect(output.status).toBe('error');
		expect(output.error!.message).toMatch(/'Client'.*UUID.*\[item 0\]/);
		expect(output.error!.description).toMatch(/not-a-uuid/);
		// The node's own error, not an API error: no "Error code none", no NodeApiError.
		expect(output.error!.details).not.toMatch(/Error code\s+none/);
		expect(output.error!.details).not.toMatch(/NodeApiError/);
		expect(sentSince(before)).toEqual([]);
		await closeToasts(page);
	});

	step('Amount keeps 200000000 as typed and the node refuses it, sending nothing', async () => {
		await openWorkflow(page, n8n.url);
		await addNodeAction(page, NODE_ENTRY, 'Actions', 'Create a quote');
		const before = sandbox.requests.length;
		await pickById(page, 'clientId', sandbox.store.fixtures.clientId);
		await pickById(page, 'contractId', sandbox.store.fixtures.contractId);
		const amount = await fill(page, 'Amount', '200000000');
		// n8n reformats a number field when it loses focus; the value must stay what was typed.
		expect(Number((await amount.inputValue()).replace(/,/g, ''))).toBe(200000000);
		await executeStep(page);
		const output = await readOutput(page);
		expect(output.status).toBe('error');
		expect(output.error!.message).toMatch(/'Amount'/);
		expect(`${output.error!.message} ${output.error!.description}`).toMatch(/100,?000,?000/);
		expect(output.error!.details).not.toMatch(/Error code\s+none/);
		expect(sentSince(before).filter((request) => request.path === QUOTES_PATH)).toEqual([]);
		await closeToasts(page);
	});
});

describe(onN8n('Create or Update from the editor'), () => {
	const EXTERNAL_ID = 'UI-ERP-4711';
	const withExternalId = () =>
		(sandbox.store.clients as Json[]).filter((client) => client.externalId === EXTERNAL_ID);

	step(
		"Client > Create or Update's panel says what an empty value does: Empty Values, above Additional Fields, leaves the field as it is",
		async () => {
			await openWorkflow(page, n8n.url);
			await addNodeAction(page, NODE_ENTRY, 'Actions', 'Create or update a client');
			const labels = await fieldLabels(page);
			expect(labels.slice(labels.indexOf('Empty Values'))).toEqual([
				'Empty Values',
				'Additional Fields',
				'Include Records Not in Input',
				'Number Format',
			]);
			const emptyValues = await field(page, 'Empty Values');
			await expect(fieldValue(emptyValues)).resolves.toMatchObject({
				value: 'Leave the Field as It Is',
			});
			// The field's (?) says when it applies; each choice says what it does under its name.
			await expect(fieldTooltip(page, emptyValues)).resolves.toMatch(
				/what a field added below does when its value comes out empty/i,
			);
			await expect(optionChoices(page, 'emptyValues')).resolves.toEqual([
				{
					name: 'Leave the Field as It Is',
					description: expect.stringMatching(/is not sent: the record keeps its value/),
				},
				{
					name: 'Clear the Field',
					description: expect.stringMatching(/is sent as null: the API removes the record's value/),
				},
			]);
		},
	);

	step(
		'Client > Create or Update creates the client once, then updates it: one record per external ID',
		async () => {
			await openWorkflow(page, n8n.url);
			await addNodeAction(page, NODE_ENTRY, 'Actions', 'Create or update a client');
			await fill(page, 'External ID', EXTERNAL_ID);
			await fill(page, 'Name', 'Editor Baumaschinen GmbH');
			await executeStep(page);
			const created = await readOutput(page);
			expect([created.status, created.count]).toEqual(['success', 1]);
			expect(created.rows[0]).toMatchObject({
				externalId: EXTERNAL_ID,
				name: 'Editor Baumaschinen GmbH',
				upserted: 'created',
			});
			await fill(page, 'Name', 'Editor Baumaschinen AG');
			await executeStep(page);
			const updated = await settle(
				() => readOutput(page),
				(output) => output.rows[0]?.upserted === 'updated',
			);
			expect(updated.rows[0]).toMatchObject({ id: created.rows[0].id, upserted: 'updated' });
			expect(withExternalId().map((client) => client.name)).toEqual(['Editor Baumaschinen AG']);
		},
	);
});

describe(onN8n('pickers'), () => {
	step(
		'Create Quote by picking a client by name and then one of its contracts: no UUID typed',
		async () => {
			const fx = sandbox.store.fixtures;
			await openWorkflow(page, n8n.url);
			await addNodeAction(page, NODE_ENTRY, 'Actions', 'Create a quote');
			const before = sandbox.requests.length;

			const clients = await openPicker(page, 'clientId');
			await expect(
				settle(
					() => pickerItems(clients).count(),
					(count) => count === 20,
				),
			).resolves.toBe(20);
			await scrollPicker(clients);
			// The second page, asked for as the user scrolls.
			await expect(
				settle(
					() => pickerItems(clients).count(),
					(count) => count > 20,
				),
			).resolves.toBeGreaterThan(20);
			await searchPicker(clients, 'acme');
			const acme = pickerItems(clients).filter({ hasText: 'Acme Construction' });
			await acme.first().waitFor();
			await saveReadmePicture(ndv(page), 'picker-client');
			await acme.first().click();
			const asked = sentSince(before).filter((request) => request.path === CLIENTS_PATH);
			expect(asked.map((request) => request.query.page)).toEqual(
				expect.arrayContaining(['1', '2']),
			);
			expect(asked.some((request) => request.query.search === 'acme')).toBe(true);

			const contracts = await openPicker(page, 'contractId');
			const berlin = pickerItems(contracts).filter({ hasText: 'Berlin' });
			await berlin.first().waitFor();
			const acmeContracts = (sandbox.store.contracts as Json[]).filter(
				(contract) => contract.clientId === fx.acmeClientId,
			);
			// The client list fades out as the contract list opens: counted once only the contracts show.
			await expect(
				settle(
					() => pickerItems(contracts).count(),
					(count) => count === acmeContracts.length,
				),
			).resolves.toBe(acmeContracts.length);
			await berlin.first().click();

			await fill(page, 'Amount', '4200');
			await executeStep(page);
			const output = await readOutput(page);
			expect(output.status).toBe('success');
			const posted = sentSince(before).filter((request) => request.path === QUOTES_PATH);
			expect(posted.map((request) => request.body)).toEqual([
				expect.objectContaining({
					clientId: fx.acmeClientId,
					contractId: fx.acmeBerlinContractId,
					amount: 4200,
				}),
			]);
			await closeToasts(page);
		},
	);

	step('Update Price Item by picking a product and then one of its tiers', async () => {
		const fx = sandbox.store.fixtures;
		await openWorkflow(page, n8n.url);
		await addNodeAction(page, NODE_ENTRY, 'Actions', 'Update a price item of a product');
		const products = await openPicker(page, 'productId');
		await searchPicker(products, 'crawler excavator 20');
		const excavator = pickerItems(products).filter({ hasText: 'Crawler excavator 20 t' });
		await excavator.first().waitFor();
		await excavator.first().click();

		const tiers = await openPicker(page, 'priceId');
		const second = pickerItems(tiers).filter({ hasText: /^From 3:/ });
		await second.first().waitFor();
		await saveReadmePicture(ndv(page), 'picker-price-item');
		await second.first().click();
		await fill(page, 'From Quantity', '3');
		await fill(page, 'Price', '399');
		const before = sandbox.requests.length;
		await executeStep(page);
		const output = await readOutput(page);
		expect(output.status).toBe('success');
		const tier = (sandbox.store.products as Map<string, Json>)
			.get(fx.equipmentProductId)!
			.priceItems.find((item: Json) => item.from === 3);
		expect(sentSince(before).map((request) => request.path)).toEqual([
			`/master-data/v1/product-management/products/${fx.equipmentProductId}/price-list/${tier.id}`,
		]);
		expect(tier.price).toBe(399);
		await closeToasts(page);
	});

	describe('every other picker lists what its field takes, searches and picks', () => {
		const fx = () => sandbox.store.fixtures;
		/** The service products' titles, as a pattern every item of a list of them matches. */
		const serviceProducts = () => {
			const products = [...(sandbox.store.products as Map<string, Json>).values()];
			const titles = products
				.filter((product) => product.type === 'SERVICE')
				.map((product) => (product.title as string).replace(/[()]/g, '.'));
			return new RegExp(`^(${titles.join('|')})`);
		};
		const cases: Array<{
			action: string;
			field: string;
			before?: () => Promise<void>;
			search?: string;
			pick: RegExp;
			/** What every item of the list must be. */
			each?: () => RegExp;
		}> = [
			{
				action: 'Get custom price list entries',
				field: 'customPriceId',
				search: 'harbour',
				pick: /^Harbour Construction Ltd.*custom price list/,
			},
			{
				action: 'Attach a service product to a product',
				field: 'serviceProductId',
				pick: /^Delivery and pick-up/,
				each: serviceProducts,
			},
			{
				action: 'Detach a service product from a product',
				field: 'serviceProductId',
				before: async () => await pickById(page, 'productId', fx().equipmentProductId),
				pick: /^Delivery and pick-up/,
			},
			{
				action: 'Update a release',
				field: 'releaseId',
				before: async () => await pickById(page, 'booking', fx().bookingId),
				pick: /\d{4}-\d{2}-\d{2}/,
			},
			{ action: 'Get a contract', field: 'contractId', search: 'berlin', pick: /Berlin/ },
			{
				action: 'Get a piece of equipment',
				field: 'equipmentId',
				search: 'INV-1000',
				pick: /\(INV-1000\d\)$/,
			},
		];

		// The equipment product has a service attached: Detach lists it.
		beforeAll(() => {
			(sandbox.store.attachments as Map<string, Set<string>>).set(
				fx().equipmentProductId,
				new Set([fx().serviceProductId]),
			);
		});

		// One step per picker: all six in one step took 90 s on a busy machine.
		for (const { action, field, before, search, pick, each } of cases)
			step(`${action}: ${field}`, async () => {
				await openWorkflow(page, n8n.url);
				await addNodeAction(page, NODE_ENTRY, 'Actions', action);
				await before?.();
				const wanted = (list: Locator) => pickerItems(list).filter({ hasText: pick });
				let list = await openPicker(page, field);
				// A value typed just before reaches n8n's parameters a moment later: a list that shows no
				// item (but "choose ... first") is opened again.
				for (let attempt = 1; ; attempt++) {
					await pickerItems(list)
						.first()
						.waitFor({ timeout: 5_000 })
						.catch(() => {});
					if ((await pickerItems(list).count()) > 0 || attempt === 3) break;
					await page.keyboard.press('Escape');
					list = await openPicker(page, field);
				}
				if (search) await searchPicker(list, search);
				await wanted(list)
					.first()
					.waitFor({ timeout: 10_000 })
					.catch(() => {});
				const names = (await pickerItems(list).allInnerTexts()).map((name) => name.trim());
				const errors = await page
					.locator(tid('rlc-error-container'))
					.filter({ visible: true })
					.allInnerTexts();
				const failures: string[] = [];
				if (!(await wanted(list).count()))
					failures.push(`no item like ${pick} in [${names.join(' | ')}] ${errors.join(' ')}`);
				else await wanted(list).first().click();
				const pattern = each?.();
				if (pattern && !names.every((name) => pattern.test(name)))
					failures.push(`not every item is like ${pattern}: ${names.join(' | ')}`);
				await closeNode(page);
				expect(failures).toEqual([]);
			});
	});

	/** The window width at which a user saw the external ID mode's label cut to "By Exter". */
	const REPORTED_WIDTH = 1500;

	step(
		`the external ID mode's label is whole, in the list of modes and once chosen, ${VIEWPORT.width} and ${REPORTED_WIDTH} px wide`,
		async () => {
			const shown: Record<string, unknown> = {};
			try {
				for (const width of [VIEWPORT.width, REPORTED_WIDTH]) {
					await page.setViewportSize({ ...VIEWPORT, width });
					await openWorkflow(page, n8n.url);
					await addNodeAction(page, NODE_ENTRY, 'Actions', 'Get a client');
					const selector = picker(page, 'clientId').locator(tid('rlc-mode-selector'));
					await selector.click();
					const option = page
						.getByRole('option', { name: EXTERNAL_ID_MODE, exact: true })
						.filter({ visible: true });
					const inList = await textInItsBox(option);
					await option.click();
					shown[`${width} px`] = { inList, chosen: await textInItsBox(selector.locator('input')) };
				}
			} finally {
				await page.setViewportSize(VIEWPORT);
			}
			// The widths measured are printed when it fails.
			const whole = expect.objectContaining({ text: EXTERNAL_ID_MODE, cut: false });
			expect(shown).toEqual({
				[`${VIEWPORT.width} px`]: { inList: whole, chosen: whole },
				[`${REPORTED_WIDTH} px`]: { inList: whole, chosen: whole },
			});
		},
	);

	step("a list the API cannot answer shows the API's error in the list", async () => {
		await openWorkflow(page, n8n.url);
		await addNodeAction(page, NODE_ENTRY, 'Actions', 'Create a quote');
		sandbox.setOptions({ faults: { rate: 1, kinds: ['503'] } });
		try {
			await openPicker(page, 'clientId');
			const shown = page.locator(tid('rlc-error-container')).filter({ visible: true });
			await shown.first().waitFor();
			expect(await shown.first().innerText()).toMatch(/HTTP 503/);
			await saveReadmePicture(ndv(page), 'picker-error');
		} finally {
			sandbox.setOptions({ faults: null });
		}
	});
});

describe(onN8n('API errors in the editor'), () => {
	step('a 401 and a 404 show their HTTP status as the error code and in the message', async () => {
		await openWorkflow(page, n8n.url);
		await addNodeAction(page, NODE_ENTRY, 'Actions', 'Create a quote');
		await pickById(page, 'clientId', '00000000-0000-4000-8000-000000000000');
		await pickById(page, 'contractId', sandbox.store.fixtures.contractId);
		await fill(page, 'Amount', '10');
		await executeStep(page);
		const notFound = await settle(
			() => readOutput(page),
			(output) => /Error code/.test(output.error?.details ?? ''),
		);
		expect(notFound.status).toBe('error');
		expect(notFound.error!.message).toMatch(/^Not found \(HTTP 404\)/);
		expect(notFound.error!.details).toMatch(/Error code\s+404/);
		await closeToasts(page);

		sandbox.setOptions({ token: 'another-token' });
		try {
			await executeStep(page);
			// The panel shows the new error's message before it has rendered its details: it is read
			// until both are the 401's.
			const refused = await settle(
				() => readOutput(page),
				(output) =>
					/Authorization/.test(output.error?.message ?? '') &&
					/Error code/.test(output.error?.details ?? ''),
			);
			expect(refused.error!.message).toMatch(/^Authorization failed \(HTTP 401\)/);
			expect(refused.error!.details).toMatch(/Error code\s+401/);
		} finally {
			sandbox.setOptions({ token: TOKEN });
		}
		await closeToasts(page);

		// A trigger's test event shows no error code (n8n 2.8.4): its message names the status.
		await openWorkflow(page, n8n.url);
		await addNodeAction(page, NODE_ENTRY, 'Triggers', TRIGGER_EVENTS[0].entry);
		sandbox.setOptions({ token: 'another-token' });
		try {
			await ndv(page).locator(tid('node-execute-button')).click();
			const refused = await readOutput(page);
			expect(refused.error!.message).toMatch(/^Authorization failed \(HTTP 401\)/);
		} finally {
			sandbox.setOptions({ token: TOKEN });
		}
		await closeToasts(page);
	});
});

describe(onN8n('the trigger'), () => {
	const DISTANCE_EVENT = TRIGGER_EVENTS.find((event) => event.name === 'Daily Distance Report')!;
	function eventIsReadable(event: (typeof TRIGGER_EVENTS)[number], subtitle: string): boolean {
		return subtitle.includes(event.name) || subtitle.includes(event.entry.replace(/^On /, ''));
	}

	step(
		'lists its events with their descriptions and fetches a test event for the model and distance events',
		async () => {
			await openWorkflow(page, n8n.url);
			await addNodeAction(page, NODE_ENTRY, 'Triggers', TRIGGER_EVENTS[0].entry);
			const shown = await optionChoices(page, 'event');
			expect(shown).toHaveLength(TRIGGER_EVENTS.length);
			TRIGGER_EVENTS.forEach((event, i) => {
				expect(shown[i].name).toBe(event.name);
				expect(shown[i].description).toMatch(event.hint);
			});
			const options = page.locator(tid('parameter-input-item')).filter({ visible: true });

			const fetchButton = ndv(page).locator(tid('node-execute-button'));
			await expect(fetchButton.innerText()).resolves.toMatch(/Fetch Test Event/);
			await fetchButton.click();
			const models = await readOutput(page);
			expect(models.status).toBe('success');
			expect(models.count).toBeGreaterThan(0);
			const known = await api(sandbox, TOKEN, `${MODELS_PATH}?ids=${models.rows[0].id}`);
			expect(known.content.map((model: Json) => model.name)).toEqual([models.rows[0].name]);
			await closeNode(page);
			const subtitles = [await canvasSubtitle(page, TRIGGER_NODE)];

			await openNode(page, TRIGGER_NODE);
			await ndv(page).locator(tid('parameter-input-event')).click();
			await options.filter({ hasText: DISTANCE_EVENT.name }).click();
			await fetchButton.click();
			const distances = await settle(
				() => readOutput(page),
				(output) => output.rows[0]?.distance !== undefined,
			);
			const yesterday = sandbox.store.fixtures.distanceDate;
			const records = await api(sandbox, TOKEN, `/analytics/v1/equipment-distance/${yesterday}`);
			expect(distances.count).toBe(records.length);
			expect(distances.rows[0].id).toBe(records[0].id);
			await closeToasts(page);
			await saveReadmePicture(ndv(page), 'trigger-test-event');
			await closeNode(page);
			subtitles.push(await canvasSubtitle(page, TRIGGER_NODE));
			// The subtitle names the event as the Event field or the nodes panel does.
			expect(
				subtitles.filter(
					(subtitle, i) => !eventIsReadable([TRIGGER_EVENTS[0], DISTANCE_EVENT][i], subtitle),
				),
			).toEqual([]);
		},
	);

	step(
		'Fetch Test Event of the client, contract and product events: a few recently changed records, each telling created or updated',
		async () => {
			await openWorkflow(page, n8n.url);
			await addNodeAction(page, NODE_ENTRY, 'Triggers', TRIGGER_EVENTS[0].entry);
			const options = page.locator(tid('parameter-input-item')).filter({ visible: true });
			const fetchButton = ndv(page).locator(tid('node-execute-button'));
			const shown: Record<string, unknown> = {};
			for (const [event, listPath] of [
				['Client Created or Updated', CLIENTS_PATH],
				['Contract Created or Updated', CONTRACTS_PATH],
				['Product Created or Updated', PRODUCTS_PATH],
			]) {
				await ndv(page).locator(tid('parameter-input-event')).click();
				await options.filter({ hasText: event }).click();
				await fetchButton.click();
				const sample = await settle(
					() => readOutput(page),
					(output) => output.rows[0]?.changeType !== undefined,
				);
				const stored = await Promise.all(
					sample.rows.map((row) => api(sandbox, TOKEN, `${listPath}/${row.id}`)),
				);
				shown[event] = {
					status: sample.status,
					aFew: sample.count > 0 && sample.count <= 5,
					stored: stored.every((record: Json, i) => record.id === sample.rows[i].id),
					changeTypes: sample.rows.every((row) => ['created', 'updated'].includes(row.changeType)),
				};
				await closeToasts(page);
			}
			const expected = { status: 'success', aFew: true, stored: true, changeTypes: true };
			expect(shown).toEqual({
				'Client Created or Updated': expected,
				'Contract Created or Updated': expected,
				'Product Created or Updated': expected,
			});
		},
	);

	step(
		"opening the node after it: the editor asks for the trigger's schema preview, as for n8n's own",
		async () => {
			// The input panel asks the server for the schema preview of a parent that has not run and
			// is not one of n8n's core nodes: /schemas/<type>/<version>.json, which n8n serves from a
			// __schema__ folder beside the node and answers 404 without one. A trigger's request
			// carries no event, so no one file could describe the trigger's four events; n8n's own
			// triggers ship none either, and the editor shows its usual empty input (README, Limits).
			// The console's 404 is the browser's, for both.
			const cases = [
				{
					workflow: 'exModelChangeAlert',
					next: 'Change alert',
					schema: `/schemas/${rt.PACKAGE_NAME}.equipmentRentalTrigger/1.0.0.json`,
				},
				{
					workflow: AIRTABLE_CONTROL.id,
					next: 'Edit Fields',
					schema: '/schemas/n8n-nodes-base.airtableTrigger/1.0.0.json',
				},
			];
			const logged: string[][] = [];
			for (const { workflow, next } of cases) {
				await openWorkflow(page, n8n.url, workflow);
				chrome.takeConsoleErrors();
				await openNode(page, next);
				const errors: string[] = [];
				await settle(
					() => {
						errors.push(...chrome.takeConsoleErrors());
						return Promise.resolve(errors.length);
					},
					(count) => count > 0,
				);
				await page.waitForTimeout(1_000);
				errors.push(...chrome.takeConsoleErrors());
				logged.push(errors);
				await expect(ndv(page).getByText('No input data').first().isVisible()).resolves.toBe(true);
				await closeNode(page);
			}
			expect(logged).toEqual(
				cases.map(({ schema }) => [
					`Failed to load resource: the server responded with a status of 404 (Not Found) (${n8n.url}${schema})`,
				]),
			);
		},
	);
});

describe(onN8n('the example workflows'), () => {
	const examples = rt.loadExamples();

	step('the AI agent example: the tool attached, its fields defined by the model', async () => {
		const example = examples.find((wf) => wf.file === 'ai-agent-quote.json')!;
		const tool = example.nodes.find((node: Json) => /equipmentRentalTool$/.test(node.type));
		await openWorkflow(page, n8n.url, example.id);
		// vue-flow names an edge by its output, e.g. ".../outputs/ai_tool/0".
		const toolEdge = page.locator(
			`.vue-flow__edge[data-id*="/outputs/ai_tool/"]:has(${tid('edge')}[data-source-node-name="${tool.name}"][data-target-node-name="AI Agent"])`,
		);
		// Edges are drawn after the nodes are measured: read until one shows.
		await expect(
			settle(
				() => toolEdge.count(),
				(count) => count === 1,
			),
		).resolves.toBe(1);
		await openNode(page, tool.name);
		expect(JSON.stringify(tool.parameters)).toMatch(/\$fromAI\(/);
		expect(await fieldsNotAsDefinedByModel(page, tool)).toEqual([]);
		await saveReadmePicture(ndv(page).locator(tid('node-parameters')), 'ai-tool');

		// Run from the editor with the values the model would give: under Client and Contract,
		// n8n's preview of their expression shows them. (It reads "undefined" while the run starts,
		// before the run's values arrive: README, Limits.)
		const fx = sandbox.store.fixtures;
		await runToolWithValues(page, {
			clientId: fx.clientId,
			contractId: fx.contractId,
			amount: '10',
			startDate: '2026-06-03T08:00:00Z',
			endDate: '2026-06-07T17:00:00Z',
		});
		expect((await readOutput(page)).status).toBe('success');
		const previews = async () =>
			Promise.all(
				['clientId', 'contractId'].map(async (name) =>
					(
						await ndv(page)
							.locator(tid(`parameter-expression-preview-${name}`))
							.innerText()
					).trim(),
				),
			);
		await expect(
			settle(previews, (shown) => shown[0] === fx.clientId && shown[1] === fx.contractId),
		).resolves.toEqual([fx.clientId, fx.contractId]);
		await closeToasts(page);
		await closeNode(page);
	});

	step(
		"an AI tool's Tool Description: filled in for its operation, following it until edited",
		async () => {
			await openWorkflow(page, n8n.url, TOOLS_DESCRIBED_BY_THE_NODE);
			await openNode(page, 'Find client');
			const shown = async () =>
				String((await fieldValue(await field(page, 'Tool Description'))).value);
			await expect(shown()).resolves.toBe(
				'Equipment Rental: List clients, optionally searched by name or filtered by status, partner type or last change.',
			);

			await choose(page, 'operation', 'Get');
			await expect(settle(shown, (text) => !text.includes('List clients'))).resolves.toBe(
				'Equipment Rental: Get one client by ID or external ID, with its custom price list ID, status and contact persons. Needs: Client.',
			);

			const written = 'Finds one client of the rental business by its ID.';
			const box = (await field(page, 'Tool Description')).locator('textarea').first();
			await box.fill(written);
			await box.blur();
			await choose(page, 'operation', 'Get Many');
			await expect(settle(shown, (text) => text === written)).resolves.toBe(written);
			await closeNode(page);
		},
	);

	step(
		'workflows saved with 0.2.0: IDs in their fields, and the AI tool defined by the model',
		async () => {
			const everyOperation = savedBy020('everyOperation');
			await openWorkflow(page, n8n.url, everyOperation.id);
			const found: string[] = [];
			for (const node of everyOperation.nodes.filter((n: Json) => n.type === rt.NODE_TYPE)) {
				const ids = Object.entries(node.parameters as Record<string, unknown>).filter(
					([, value]) => typeof value === 'string' && UUID.test(value),
				);
				if (!ids.length) continue;
				await openNode(page, node.name);
				for (const [name, id] of ids) {
					const shown = ndv(page).locator(tid(`parameter-input-${name}`));
					const values = await shown
						.locator('input')
						.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
					// A picker holding text shows an empty "Mode..." selector beside it (n8n's legacy mode).
					const modes = await shown
						.locator(`${tid('rlc-mode-selector')} input`)
						.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
					if (!values.includes(String(id)) || modes.includes(''))
						found.push(`${node.name} > ${name}: ${JSON.stringify({ values, modes })}`);
				}
				await closeNode(page);
			}

			const aiTool = savedBy020('aiTool');
			const tool = aiTool.nodes.find((node: Json) => /equipmentRentalTool$/.test(node.type));
			await openWorkflow(page, n8n.url, aiTool.id);
			await openNode(page, tool.name);
			const notByModel = await fieldsNotAsDefinedByModel(page, tool);
			await closeNode(page);
			expect({ ids: found, aiTool: notByModel }).toEqual({ ids: [], aiTool: [] });
		},
	);

	for (const example of examples) {
		step(
			`${example.file} opens with no warning but the expected ones, and nothing overlapping`,
			async () => {
				await openWorkflow(page, n8n.url, example.id);
				const nodes = example.nodes.filter(
					(node: Json) => node.type !== 'n8n-nodes-base.stickyNote',
				);
				const canvasNodes = page.locator(tid('canvas-node'));
				await expect(
					settle(
						() => canvasNodes.count(),
						(n) => n === nodes.length,
					),
				).resolves.toBe(nodes.length);
				// A missing node type or credential shows as a warning on the node.
				const warned = await page
					.locator(`${tid('canvas-node')}:has(${tid('node-issues')})`)
					.evaluateAll((found) => found.map((node) => node.getAttribute('data-node-name')));
				expect(warned).toEqual(EXPECTED_WARNINGS[example.file] ?? []);
				expect(await canvasOverlaps(page)).toEqual([]);
			},
		);
	}
});

describe(onN8n('the credential dialog'), () => {
	async function openCredential(name: string) {
		await page.goto(`${n8n.url}/home/credentials`);
		await page
			.locator(tid('resources-list-item'), { hasText: name })
			.locator(tid('card-content'))
			.click();
		await page.locator(tid('editCredential-modal')).waitFor();
	}

	/** Every text and input value on the page, but the token field's own (masked) value. */
	async function pageTextAndValues(): Promise<string> {
		return page.evaluate(() =>
			[
				document.body.innerText,
				...[...document.querySelectorAll('input, textarea')]
					.filter((input) => (input as HTMLInputElement).type !== 'password')
					.map((input) => (input as HTMLInputElement).value),
			].join('\n'),
		);
	}

	step('tests the sandbox credential green', async () => {
		await openCredential(rt.CREDENTIAL_NAME);
		const success = page.locator(tid('credentials-config-container-test-success'));
		await success.waitFor({ timeout: 30_000 });
		await expect(success.innerText()).resolves.toMatch(/Connection tested successfully/);
		const token = page.locator(`${tid('parameter-input-accessToken')} input`);
		await expect(token.getAttribute('type')).resolves.toBe('password');
		expect(await token.inputValue()).not.toContain(TOKEN);
		expect(await pageTextAndValues()).not.toContain(TOKEN);
	});

	// Last, as it changes the sandbox credential (and puts it back).
	step('shows a clear failure for a wrong token and never shows the token', async () => {
		await openCredential(rt.CREDENTIAL_NAME);
		const success = page.locator(tid('credentials-config-container-test-success'));
		await success.waitFor({ timeout: 30_000 });
		await page.locator(`${tid('parameter-input-accessToken')} input`).fill(WRONG_TOKEN);
		await page.locator(tid('credential-save-button')).click();
		const modal = page.locator(tid('editCredential-modal'));
		const failure = modal.getByText(/Couldn.t connect with these settings/);
		await failure.waitFor({ timeout: 30_000 });
		await modal.getByText('More details').click();
		await expect(modal.innerText()).resolves.toMatch(/Authorization failed|Access Token|401/i);
		for (const secret of [TOKEN, WRONG_TOKEN])
			expect(await pageTextAndValues()).not.toContain(secret);
		// Opened again, the saved token is not sent back to the page.
		await page.keyboard.press('Escape');
		await openCredential(rt.CREDENTIAL_NAME);
		await modal.getByText(/Couldn.t connect with these settings/).waitFor({ timeout: 30_000 });
		const token = page.locator(`${tid('parameter-input-accessToken')} input`);
		expect(await token.inputValue()).not.toContain(WRONG_TOKEN);
		expect(await pageTextAndValues()).not.toContain(WRONG_TOKEN);
		// The right token again: the test turns green.
		await token.fill(TOKEN);
		await page.locator(tid('credential-save-button')).click();
		await success.waitFor({ timeout: 30_000 });
		expect(await pageTextAndValues()).not.toContain(TOKEN);
	});
});
