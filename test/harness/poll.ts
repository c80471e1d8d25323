/**
 * Polls the Equipment Rental Trigger the way n8n does. An active workflow: n8n-core's
 * TriggersAndPollers.runPoll with a PollContext in "trigger" mode, first at activation and then
 * once per scheduled poll, on one Workflow object whose static data lives on between polls. n8n
 * writes that static data to its database only after the activation and after each poll that
 * emitted, so a restart starts from that copy. A manual run (the editor's "Fetch Test Event"):
 * WorkflowExecute with the trigger as start node, which polls in "manual" mode.
 */
import { PollContext, WorkflowExecute } from 'n8n-core';
import { TriggersAndPollers } from 'n8n-core/dist/execution-engine/triggers-and-pollers';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeParameters,
	IRun,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { deepCopy, Workflow } from 'n8n-workflow';

import {
	CREDENTIAL_REFERENCE,
	executionAdditionalData,
	loadNodeTypes,
	type RunOptions,
	TRIGGER_NODE_TYPE,
} from './engine';

export const TRIGGER_NODE_NAME = 'Equipment Rental Trigger';

export interface TriggerOptions {
	/** The trigger's parameters, as saved in a workflow. */
	parameters: INodeParameters;
	credentials: RunOptions['credentials'];
	timezone?: string;
	/** Static data that n8n saved for the workflow before (a restart). */
	savedStaticData?: IDataObject;
}

function triggerWorkflow(options: TriggerOptions): { workflow: Workflow; node: INode } {
	const node: INode = {
		id: 'trigger-under-test',
		name: TRIGGER_NODE_NAME,
		type: TRIGGER_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: options.parameters,
		credentials: CREDENTIAL_REFERENCE,
	};
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'test',
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: loadNodeTypes(),
		staticData: deepCopy(options.savedStaticData ?? {}),
		settings: { timezone: options.timezone ?? 'UTC' },
	});
	return { workflow, node };
}

/** An active workflow whose only node is the trigger. */
export class ActiveTrigger {
	/** The static data as n8n last saved it. */
	savedStaticData: IDataObject = {};

	private constructor(
		private readonly options: TriggerOptions,
		private readonly workflow: Workflow,
		private readonly node: INode,
		private readonly activation: WorkflowActivateMode,
	) {}

	/**
	 * Activates the workflow: n8n polls once at once, fails the activation on an error, then saves
	 * static data.
	 */
	static async activate(
		options: TriggerOptions,
	): Promise<{ trigger: ActiveTrigger; emitted: INodeExecutionData[] | null }> {
		const { workflow, node } = triggerWorkflow(options);
		const trigger = new ActiveTrigger(
			options,
			workflow,
			node,
			options.savedStaticData ? 'init' : 'activate',
		);
		const emitted = await trigger.runPoll();
		trigger.save();
		return { trigger, emitted };
	}

	/** The static data as the running workflow holds it now, before n8n saves it. */
	get liveStaticData(): IDataObject {
		return this.workflow.staticData;
	}

	/** A scheduled poll: the items of the execution it started, or null when it started none. */
	async poll(): Promise<INodeExecutionData[] | null> {
		const emitted = await this.runPoll();
		if (emitted) this.save();
		return emitted;
	}

	/**
	 * n8n restarts, or the workflow is saved with `changes`: it is activated again from the static
	 * data n8n saved.
	 */
	async restart(
		changes: Partial<Omit<TriggerOptions, 'savedStaticData'>> = {},
	): Promise<{ trigger: ActiveTrigger; emitted: INodeExecutionData[] | null }> {
		return await ActiveTrigger.activate({
			...this.options,
			...changes,
			savedStaticData: this.savedStaticData,
		});
	}

	private async runPoll(): Promise<INodeExecutionData[] | null> {
		const mode: WorkflowExecuteMode = 'trigger';
		const additionalData = executionAdditionalData(this.options.credentials, mode, [this.node]);
		const context = new PollContext(
			this.workflow,
			this.node,
			additionalData,
			mode,
			this.activation,
		);
		// n8n starts an execution with the answer when it is not null.
		const response = await new TriggersAndPollers().runPoll(this.workflow, this.node, context);
		return response?.[0] ?? null;
	}

	private save() {
		this.savedStaticData = deepCopy(this.workflow.staticData);
	}
}

/** Runs the trigger alone in a manual execution; its items, or the error that stopped the run. */
export async function runTriggerManually(options: TriggerOptions): Promise<{
	items: INodeExecutionData[];
	error?: IRun['data']['resultData']['error'];
	staticData: IDataObject;
}> {
	const { workflow, node } = triggerWorkflow(options);
	const mode: WorkflowExecuteMode = 'manual';
	const run = await new WorkflowExecute(
		executionAdditionalData(options.credentials, mode, [node]),
		mode,
	).run({
		workflow,
		startNode: node,
	});
	return {
		items: run.data.resultData.runData[TRIGGER_NODE_NAME]?.[0]?.data?.main?.[0] ?? [],
		error: run.data.resultData.error,
		staticData: deepCopy(workflow.staticData),
	};
}
