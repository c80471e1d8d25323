import type {
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
} from 'n8n-workflow';

import { isFailedAnswer } from './answerCheck';
import { listOptionsField } from '../../shared/listFields';
import type { Field, ParameterContext } from '../../shared/parameters';
import { ItemParameters } from '../../shared/parameters';
import type { PaceSettings } from '../../shared/requestPace';
import { RequestPace } from '../../shared/requestPace';
import type { NodeRun } from './nodeRun';
import { runUnderWay } from './nodeRun';
import {
	maxRateLimitWaitField,
	parallelRequestsField,
	requestOptionsProperty,
} from '../../shared/requestOptionFields';

/**
 * The pace of a run of the node (nodes/shared/requestPace.ts), one per run. What n8n does: RoutingNode
 * starts all of a run's items at once and knows no budget of requests; its Batching only spaces the
 * items' starts. What this room does: the run (nodeRun.ts) keys one pace, read from the node's
 * Request Options at the run's first item, that every request of the run waits its turn in
 * (RunState.pace).
 */

/** What the pace reads of an item's context. */
export type PaceContext = ParameterContext & {
	getExecutionCancelSignal?(): AbortSignal | undefined;
};

/**
 * The node's Request Options that set its pace, read and checked once per run (at the first item
 * that comes). A list of a node saved by 0.2.0 may set Parallel Requests under its Options instead
 * (listFields.ts).
 */
function paceSettings(context: PaceContext): PaceSettings {
	const options = new ItemParameters(context);
	const parallelRequests = (collection: Field) =>
		options.number(parallelRequestsField, { min: 1, max: 20 }, collection);
	// Only a list has the Options of 0.2.0 (reading a field the operation lacks fails).
	const setInVersion1Options =
		context.getNodeParameter(`${listOptionsField.name}.${parallelRequestsField.name}`, null) !==
		null;
	const maxRateLimitWait =
		options.number(maxRateLimitWaitField, { min: 1 }, requestOptionsProperty) ??
		(maxRateLimitWaitField.default as number);
	return {
		parallelRequests: Math.floor(
			parallelRequests(requestOptionsProperty) ??
				(setInVersion1Options ? parallelRequests(listOptionsField) : undefined) ??
				(parallelRequestsField.default as number),
		),
		maxRateLimitWaitMs: maxRateLimitWait * 1000,
	};
}

/** The pace of `run` (one per run of the node, shared by its items); `context` is one of its items. */
export function paceOfRun(run: NodeRun, context: PaceContext): RequestPace {
	run.state.pace ??= new RequestPace(
		paceSettings(context),
		context.getExecutionCancelSignal?.(),
		run.stopsOnFailure,
	);
	return run.state.pace;
}

/**
 * The first postReceive of every operation: tells the pace of the item's run of a failed answer as
 * it reaches the node, before RoutingNode's other postReceive hand it over as the item's failure
 * (paceHolds.ts).
 */
export async function failedAnswerHeard(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	if (isFailedAnswer(response)) {
		runUnderWay(this)?.state.pace?.failedAnswer(this.getItemIndex(), response.statusCode);
	}
	return items;
}
