/**
 * Runs the Equipment Rental node the way n8n does: n8n-core's WorkflowExecute drives the
 * declarative node through its RoutingNode, and requests go over real HTTP. Only the host's
 * services (credential storage, hooks) are provided here, as small stand-ins.
 */
import {
	DirectoryLoader,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	WorkflowExecute,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IConnections,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRun,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeConnectionTypes, Workflow } from 'n8n-workflow';

import { EquipmentRentalApi } from '../../credentials/EquipmentRentalApi.credentials';
import { EquipmentRental } from '../../nodes/EquipmentRental/EquipmentRental.node';
import { CURRENT_VERSION } from '../../nodes/EquipmentRental/engine/nodeVersions';
import { EquipmentRentalTrigger } from '../../nodes/EquipmentRentalTrigger/EquipmentRentalTrigger.node';

export const NODE_TYPE = 'n8n-nodes-equipment-rental.equipmentRental';
export const TRIGGER_NODE_TYPE = 'n8n-nodes-equipment-rental.equipmentRentalTrigger';
/** The node as an AI agent's tool: n8n loads it under its type name followed by "Tool". */
export const TOOL_NODE_TYPE = `${NODE_TYPE}Tool`;
export const NODE_NAME = 'Equipment Rental';
const INPUT_NODE_NAME = 'Input';
const LOOP_NODE_NAME = 'Loop Over Items';
/** The second node in a loop (RunOptions.loop.then), with a credential of its own. */
export const SECOND_NODE_NAME = 'Equipment Rental 2';
/** How a workflow's node refers to the credential the harness provides. */
export const CREDENTIAL_REFERENCE: INode['credentials'] = {
	equipmentRentalApi: { id: 'credential-1', name: 'Equipment Rental account' },
};

/** Emits the items given in its `items` parameter: the input of the node under test. */
// eslint-disable-next-line @n8n/community-nodes/node-usable-as-tool -- a test fixture, never offered to an agent
class InputItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Input',
		name: 'testInput',
		group: ['input'],
		version: 1,
		description: 'Test input',
		defaults: { name: INPUT_NODE_NAME },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getNodeParameter('items', 0) as IDataObject[];
		return [items.map((json) => ({ json }))];
	}
}

/**
 * n8n's Loop Over Items (n8n-nodes-base's SplitInBatches, version 3), as far as a loop of one node
 * needs it: its first run keeps the input in its context of the node (`getContext('node')`) and
 * outputs the first batch on `loop` (output 1); each later run, fed by the node in the loop, adds
 * those items to what it has done and outputs the next batch, or, when none is left, every item done
 * on `done` (output 0). n8n-core's WorkflowExecute then runs the node in the loop once per batch, in
 * the same execution.
 */
// eslint-disable-next-line @n8n/community-nodes/node-usable-as-tool -- a test fixture, never offered to an agent
class LoopOverItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Loop Over Items',
		name: 'testLoopOverItems',
		group: ['organization'],
		version: 1,
		description: 'Test loop',
		defaults: { name: LOOP_NODE_NAME },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		properties: [{ displayName: 'Batch Size', name: 'batchSize', type: 'number', default: 10 }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const batchSize = this.getNodeParameter('batchSize', 0) as number;
		const state = this.getContext('node') as {
			left?: INodeExecutionData[];
			done?: INodeExecutionData[];
		};
		const input = this.getInputData();
		if (state.left === undefined) {
			state.left = input.slice(batchSize);
			state.done = [];
			return [[], input.slice(0, batchSize)];
		}
		state.done!.push(...input);
		const next = state.left.splice(0, batchSize);
		return next.length > 0 ? [[], next] : [state.done!, []];
	}
}

/**
 * The node as n8n loads it for an AI agent (n8n's convertNodeToAiTool, 1.85 to 2.41): the same
 * node, its description named with "Tool" appended, which is what `@tool` display conditions read.
 * n8n also gives it an `ai_tool` output instead of its main input and output; here they stay, since
 * AI Agent 3 runs a tool as a step of the workflow whose input item holds the model's arguments
 * (n8n-core requests-response.js), as the Input node's item does here.
 */
export function asAiTool(nodeType: INodeType): INodeType {
	const { description } = nodeType;
	return Object.assign(Object.create(nodeType) as INodeType, {
		description: {
			...description,
			name: `${description.name}Tool`,
			displayName: `${description.displayName} Tool`,
		},
	});
}

export function loadNodeTypes(equipmentRental: INodeType = new EquipmentRental()): INodeTypes {
	// n8n's loader adds the "Request Options" (timeout, batching, proxy) to every declarative node.
	DirectoryLoader.applyDeclarativeNodeOptionParameters(equipmentRental);
	const types: Record<string, INodeType> = {
		[NODE_TYPE]: equipmentRental,
		[TOOL_NODE_TYPE]: asAiTool(equipmentRental),
		[TRIGGER_NODE_TYPE]: new EquipmentRentalTrigger(),
		'test.input': new InputItems(),
		'test.loopOverItems': new LoopOverItems(),
	};
	return {
		getByName: (name) => types[name],
		getByNameAndVersion: (name) => types[name],
		getKnownTypes: () => ({}),
	};
}

const credentialType: ICredentialType = new EquipmentRentalApi();

/**
 * Stands in for n8n's credential store; authenticates requests from the credential type's own
 * description.
 */
class CredentialsHelper extends ICredentialsHelper {
	constructor(private readonly data: ICredentialDataDecryptedObject) {
		super();
	}

	getParentTypes() {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		_typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = credentialType;
		if (typeof authenticate !== 'function') throw new Error('expected an authenticate function');
		return await authenticate(credentials, requestOptions);
	}

	async preAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('not used by declarative nodes');
	}

	async getDecrypted() {
		return { ...this.data };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties() {
		return credentialType.properties;
	}
}

export interface RunOptions {
	/** The node's parameters, as saved in a workflow. */
	parameters: INodeParameters;
	/** Input items; one empty item when not given. */
	items?: IDataObject[];
	credentials: { baseUrl: string; accessToken: string };
	onError?: INode['onError'];
	timezone?: string;
	/**
	 * Runs this node type in place of the Equipment Rental node, e.g. a variant of its description.
	 */
	nodeType?: INodeType;
	/** Node settings of the node under test, such as n8n's own Retry On Fail. */
	settings?: Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries'>;
	/** The node's version as saved; a node added now (the newest) when not given. */
	typeVersion?: number;
	/** Runs the node as an AI agent's tool (TOOL_NODE_TYPE) rather than as a workflow's step. */
	asTool?: boolean;
	/**
	 * Runs the node in Loop Over Items of `batchSize` (LoopOverItems): once per batch, in one
	 * execution; `then` adds a second Equipment Rental node after it in the loop, with these
	 * parameters and another credential (the same token and Base URL).
	 */
	loop?: { batchSize: number; then?: INodeParameters };
}

export interface RunResult {
	/** Items of the main output. */
	items: INodeExecutionData[];
	/** Items of the error output (onError: continueErrorOutput). */
	errorItems: INodeExecutionData[];
	/** The error that stopped the workflow, if any. */
	error?: IRun['data']['resultData']['error'];
	run: IRun;
	/** The main output of each run of the node, in order (one per batch of a loop). */
	runs: INodeExecutionData[][];
}

/** The host's services an execution needs: the credential store and lifecycle hooks. */
export function executionAdditionalData(
	credentials: RunOptions['credentials'],
	mode: WorkflowExecuteMode,
	nodes: INode[],
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper: new CredentialsHelper(credentials),
		hooks: new ExecutionLifecycleHooks(mode, 'test-execution', {
			id: 'test-workflow',
			name: 'test',
			nodes,
			connections: {},
			active: false,
			activeVersionId: null,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
		}),
		executionId: 'test-execution',
		currentNodeExecutionIndex: 0,
		restApiUrl: '',
		instanceBaseUrl: '',
		formWaitingBaseUrl: '',
		webhookBaseUrl: '',
		webhookWaitingBaseUrl: '',
		webhookTestBaseUrl: '',
		variables: {},
		logAiEvent: () => {},
	} as unknown as IWorkflowExecuteAdditionalData;
}

/** A node of the harness's own (the input, the loop), `x` along the canvas. */
const harnessNode = (
	name: string,
	type: string,
	x: number,
	parameters: INodeParameters,
): INode => ({
	id: name,
	name,
	type,
	typeVersion: 1,
	position: [x, 0],
	parameters,
});

/** The workflow's nodes and connections: the input, then the node (in a loop, where asked). */
function workflowOf(options: RunOptions): { nodes: INode[]; connections: IConnections } {
	const main = (node: string, index = 0) => ({ node, type: NodeConnectionTypes.Main, index });
	const underTest: INode = {
		id: 'node-under-test',
		name: NODE_NAME,
		type: options.asTool ? TOOL_NODE_TYPE : NODE_TYPE,
		typeVersion: options.typeVersion ?? CURRENT_VERSION,
		position: [200, 0],
		parameters: options.parameters,
		credentials: CREDENTIAL_REFERENCE,
		...(options.onError ? { onError: options.onError } : {}),
		...options.settings,
	};
	const input = harnessNode(INPUT_NODE_NAME, 'test.input', 0, {
		items: (options.items ?? [{}]) as unknown as IDataObject[],
	} as INodeParameters);
	if (!options.loop)
		return {
			nodes: [input, underTest],
			connections: { [INPUT_NODE_NAME]: { main: [[main(NODE_NAME)]] } },
		};
	const { batchSize, then } = options.loop;
	const loop = harnessNode(LOOP_NODE_NAME, 'test.loopOverItems', 100, { batchSize });
	const second: INode | undefined = then && {
		...underTest,
		id: 'second-node',
		name: SECOND_NODE_NAME,
		position: [300, 0],
		parameters: then,
		credentials: { equipmentRentalApi: { id: 'credential-2', name: 'Another account' } },
	};
	return {
		nodes: [input, loop, underTest, ...(second ? [second] : [])],
		connections: {
			[INPUT_NODE_NAME]: { main: [[main(LOOP_NODE_NAME)]] },
			[LOOP_NODE_NAME]: { main: [[], [main(NODE_NAME)]] },
			[NODE_NAME]: { main: [[main(second ? SECOND_NODE_NAME : LOOP_NODE_NAME)]] },
			...(second ? { [SECOND_NODE_NAME]: { main: [[main(LOOP_NODE_NAME)]] } } : {}),
		},
	};
}

export async function runNode(options: RunOptions): Promise<RunResult> {
	const { nodes, connections } = workflowOf(options);
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'test',
		nodes,
		connections,
		active: false,
		nodeTypes: loadNodeTypes(options.nodeType),
		settings: {
			timezone: options.timezone ?? 'UTC',
			// A loop runs in the order n8n gives a workflow saved since 1.0.
			...(options.loop ? { executionOrder: 'v1' as const } : {}),
		},
	});
	const mode: WorkflowExecuteMode = 'manual';
	const additionalData = executionAdditionalData(options.credentials, mode, nodes);

	const run = await new WorkflowExecute(additionalData, mode).run({
		workflow,
		startNode: workflow.getNode(INPUT_NODE_NAME) as INode,
	});
	const runs = (run.data.resultData.runData[NODE_NAME] ?? []).map(
		(nodeRun) => nodeRun.data?.main?.[0] ?? [],
	);
	const output = run.data.resultData.runData[NODE_NAME]?.[0]?.data?.main ?? [];
	return {
		items: output[0] ?? [],
		errorItems: output[1] ?? [],
		error: run.data.resultData.error,
		run,
		runs,
	};
}

export interface SearchListOptions {
	/** The node's parameters as the editor holds them while the list is open. */
	parameters: INodeParameters;
	/** The listSearch method of the field's "From List" mode. */
	method: string;
	filter?: string;
	paginationToken?: string;
	credentials: RunOptions['credentials'];
}

/**
 * Opens a picker's list as n8n's editor does (its DynamicNodeParametersService): the node type's
 * listSearch method, called with n8n-core's LoadOptionsContext over real HTTP.
 */
export async function searchList(options: SearchListOptions): Promise<INodeListSearchResult> {
	const node: INode = {
		id: 'node-under-test',
		name: NODE_NAME,
		type: NODE_TYPE,
		typeVersion: CURRENT_VERSION,
		position: [0, 0],
		parameters: options.parameters,
		credentials: CREDENTIAL_REFERENCE,
	};
	const nodeTypes = loadNodeTypes();
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		settings: { timezone: 'UTC' },
	});
	const additionalData = {
		...executionAdditionalData(options.credentials, 'manual', [node]),
		currentNodeParameters: options.parameters,
	} as IWorkflowExecuteAdditionalData;
	const context = new LoadOptionsContext(workflow, node, additionalData, 'parameters');
	const search = nodeTypes.getByNameAndVersion(NODE_TYPE, 1).methods?.listSearch?.[options.method];
	if (!search) throw new Error(`The node has no listSearch method ${options.method}`);
	return await search.call(context, options.filter, options.paginationToken);
}
