import type { JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { asSentence, failureSentences, mayHaveBeenDone } from '../../shared/errors';

/**
 * The error of a run of the node that stopped (nodeRun.ts). What n8n does (RoutingNode, n8n 1.85 to
 * 2.41): it throws the error of the first failed item by index and drops every other item's output,
 * so the error n8n shows is all a user learns of the run. What this room does: that error keeps the
 * failed item's message and HTTP status, and its description (and `context.run`, for an error
 * workflow) says what the run did: every bad item of a run stopped before writing, or the records
 * each item wrote and the items not sent.
 */

export type ItemError = NodeApiError | NodeOperationError;

export type Phase = 'check' | 'prepare' | 'perform';

/** What an item's records came to: e.g. `created`, `updated`, `unchanged`, `deleted`, `read`. */
export type Outcome = string;

/** What one record of an item's output came to. */
export interface ItemOutcome {
	outcome: Outcome;
	id?: string;
}

/** How an item of the run ended. */
export type ItemEnd =
	{ done: ItemOutcome[] } | { failed: ItemError; phase: Phase } | { notSent: true };

/** The outcome of a Create or Update that found the record holding every value already. */
const UNCHANGED = 'unchanged';

/** How many failures the message names; the description names them all. */
const FAILURES_IN_MESSAGE = 3;

/** `[0, 1, 2, 5, 7, 8]` as "0-2, 5 and 7-8". */
export function describeIndexes(indexes: number[]): string {
	const ranges: string[] = [];
	for (let start = 0; start < indexes.length;) {
		let end = start;
		while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1) end++;
		ranges.push(end === start ? String(indexes[start]) : `${indexes[start]}-${indexes[end]}`);
		start = end + 1;
	}
	return ranges.length < 2
		? ranges.join('')
		: `${ranges.slice(0, -1).join(', ')} and ${ranges.at(-1)}`;
}

function itemsNamed(indexes: number[]): string {
	return `${indexes.length === 1 ? 'item' : 'items'} ${describeIndexes(indexes)}`;
}

function count(number: number, noun: string): string {
	return `${number.toLocaleString('en-US')} ${noun}${number === 1 ? '' : 's'}`;
}

/** A failure's message with the item it belongs to, as the node's own checks end theirs. */
function withItem(error: ItemError, index: number): string {
	const suffix = ` [item ${index}]`;
	return error.message.endsWith(suffix) ? error.message : `${error.message}${suffix}`;
}

interface RunState {
	itemCount: number;
	ends: ReadonlyMap<number, ItemEnd>;
	/** The phase the run reached: a run stopped before `perform` wrote nothing. */
	phase: Phase;
	/** Whether the operation writes. */
	writes: boolean;
}

/** What the run's items came to, by outcome, in the order the outcomes first appear. */
function outcomes(ends: ReadonlyMap<number, ItemEnd>) {
	const byOutcome = new Map<string, Array<{ index: number } & ItemOutcome>>();
	for (const [index, end] of [...ends].sort(([left], [right]) => left - right)) {
		if (!('done' in end)) continue;
		for (const record of end.done) {
			const records = byOutcome.get(record.outcome) ?? [];
			records.push({ index, ...record });
			byOutcome.set(record.outcome, records);
		}
	}
	return byOutcome;
}

/** What a run that performed did, its records by item (what a user needs to clean up or resume). */
function whatItDid(state: RunState, notSent: number[]): string[] {
	const done = outcomes(state.ends);
	const summary = [...done].map(
		([outcome, records]) =>
			`${outcome} ${records.length.toLocaleString('en-US')} (${itemsNamed([...new Set(records.map((record) => record.index))])})`,
	);
	// The records a write changed, by item: what a user needs to undo or finish the run by hand.
	const records = [...done]
		.filter(([outcome]) => state.writes && outcome !== UNCHANGED)
		.map(([outcome, records]) => [outcome, records.filter(({ id }) => id !== undefined)] as const)
		.filter(([, records]) => records.length > 0)
		.map(
			([outcome, records]) =>
				`Records ${outcome}, by item: ${records.map(({ index, id }) => `${index}: ${id}`).join(', ')}.`,
		);
	return [
		summary.length > 0
			? `Before it stopped, the run ${state.writes ? 'wrote' : 'read'} these: ${summary.join('; ')}.`
			: `No item was ${state.writes ? 'written' : 'read'} before it stopped.`,
		notSent.length > 0
			? `Not sent: ${itemsNamed(notSent)}. Run ${notSent.length === 1 ? 'it' : 'them'} again once the failure is fixed.`
			: '',
		...records,
	];
}

/**
 * The error of a run that stopped on a failure (see NodeRun): the first failed item's message, and a
 * description that says what the run did. Before it performed (a check, or a record named by an
 * external ID, failed) nothing was written, and every failed item is named; once it performed, the
 * records each item wrote and the items not sent are named.
 */
export function describeRun(state: RunState): ItemError {
	const failed = [...state.ends]
		.filter(
			(entry): entry is [number, Extract<ItemEnd, { failed: ItemError }>] => 'failed' in entry[1],
		)
		.sort(([left], [right]) => left - right);
	const notSent = [...Array(state.itemCount).keys()].filter(
		(index) => !state.ends.has(index) || 'notSent' in state.ends.get(index)!,
	);
	const [firstIndex, { failed: first }] = failed[0];
	// A run of one item is that item: its own error says it all.
	if (state.itemCount === 1) return first;
	const others = failed.slice(1);
	const othersSaid = others.map(
		([index, { failed: error }]) => `Item ${index}: ${failureSentences(error)}`,
	);

	// A failed write whose answer was lost, or that the API failed after it, may have been done.
	const uncertain = state.writes
		? failed.filter(([, { failed: error }]) => mayHaveBeenDone(error)).map(([index]) => index)
		: [];
	let message = withItem(first, firstIndex);
	let story: Array<string | null | undefined>;
	if (state.phase !== 'perform') {
		const nothingDone =
			state.phase === 'check'
				? 'Nothing was sent: the node checks every item before it sends any request'
				: 'Nothing was written: the node checks every item, and finds the records it names, before it writes any';
		const failedOf = `${failed.length.toLocaleString('en-US')} of the ${count(state.itemCount, 'item')} failed`;
		const fix = `Fix ${others.length > 0 ? 'them' : 'it'} and run the node again, or turn on Continue On Fail (the node's Settings > On Error) to send the other items and output each failure as an item of its own.`;
		if (others.length === 0) {
			story = [first.description, `${nothingDone}, and ${failedOf}.`, fix];
		} else {
			const named = failed
				.slice(0, FAILURES_IN_MESSAGE)
				.map(([index, { failed: error }]) => withItem(error, index));
			const more = failed.length - named.length;
			message = `${count(failed.length, 'item')} failed: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
			story = [
				`${nothingDone}, and ${failedOf}.`,
				`Item ${firstIndex}: ${failureSentences(first)}`,
				...othersSaid,
				fix,
			];
		}
	} else {
		story = [
			first.description,
			`The run stopped at item ${firstIndex}: it started no item after this failure, and let the items already under way finish.`,
			uncertain.length > 0
				? `The write of ${itemsNamed(uncertain)} may have been done all the same (its answer was lost or the API failed after it): check for ${uncertain.length === 1 ? 'its record' : 'their records'} before you send ${uncertain.length === 1 ? 'it' : 'them'} again.`
				: '',
			othersSaid.length > 0 ? `Also failed: ${othersSaid.join(' ')}` : '',
			...whatItDid(state, notSent),
		];
	}
	const description = story
		.filter((sentence): sentence is string => typeof sentence === 'string' && sentence !== '')
		.map(asSentence)
		.join(' ');
	const options = { message, description, itemIndex: firstIndex };
	const error =
		first instanceof NodeApiError
			? new NodeApiError(first.node, (first.errorResponse ?? {}) as JsonObject, {
					...options,
					httpCode: first.httpCode ?? undefined,
				})
			: new NodeOperationError(first.node, message, options);
	// The same in a form an error workflow can act on (e.g. to undo what the run created).
	Object.assign(error.context, first.context, {
		itemIndex: firstIndex,
		run: {
			phase: state.phase,
			failed: failed.map(([index]) => index),
			mayHaveBeenDone: uncertain,
			notSent,
			done: [...outcomes(state.ends).values()]
				.flat()
				.map(({ index, outcome, id }) => ({ item: index, outcome, ...(id ? { id } : {}) })),
		},
	});
	return error;
}
