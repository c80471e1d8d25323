import type { IExecutePaginationFunctions } from 'n8n-workflow';

import type { NodeRun } from './nodeRun';
import type { Batching } from './runState';

/*
 * What a run of the node is set to, as n8n gives it to each item: as an AI tool or not, n8n's
 * Batching, and the credential's Base URL.
 */

/**
 * Whether the node runs as an AI agent's tool: n8n loads the tool variant of a node under its type
 * name followed by "Tool" (n8n 1.85 to 2.41, load-nodes-and-credentials). There a failure is the
 * tool's answer, so that the model reads it and can explain it or ask again: from AI Agent 3 on, n8n
 * runs a tool as a node of the workflow and a thrown error ends the whole execution.
 */
export function runsAsAiTool(context: IExecutePaginationFunctions): boolean {
	return context.getNode().type.endsWith('Tool');
}

/**
 * n8n's Batching under Request Options, as RoutingNode reads it (every `size` items, a pause of
 * `interval` ms; no pause without an interval), read once per run as RoutingNode does (at its first
 * item): reading a parameter costs n8n's lookup and checks, for every item that asks.
 */
export function batchingOf(run: NodeRun, context: IExecutePaginationFunctions): Batching {
	if (!run.state.batching) {
		const batch = context.getNodeParameter('requestOptions.batching.batch', {}) as {
			batchSize?: number;
			batchInterval?: number;
		};
		run.state.batching = {
			size: batch.batchSize !== undefined && batch.batchSize > 0 ? batch.batchSize : 1,
			interval: batch.batchInterval ?? 0,
		};
	}
	return run.state.batching;
}

/**
 * The credential's Base URL, read once per run. As the node's request default it would be an
 * expression RoutingNode evaluates for every item (routing-node.js runNode, n8n 1.85 to 2.41).
 */
export async function baseUrlOf(
	run: NodeRun,
	context: IExecutePaginationFunctions,
): Promise<string> {
	run.state.baseUrl ??= context
		.getCredentials<{ baseUrl: string }>('equipmentRentalApi')
		.then(({ baseUrl: given }) => String(given).replace(/\/+$/, ''));
	return await run.state.baseUrl;
}
