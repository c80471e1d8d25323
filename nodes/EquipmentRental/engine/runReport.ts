import type { JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { asSentence, failureSentences, mayHaveBeenDone } from '../../shared/errors';

/**
 * The error of a run of the node that stopped (nodeRun.ts). What n8n does (RoutingNode, n8n 1.85 to
 * 2.41): it throws the error of the first failed item by index and drops every other item's output,
 * so the error n8n shows is all a user learns of the run. What this room does: that error keeps the
 * failed item's message and HTTP status, and its description says what the run did, in counts and
 * item ranges: every bad item of a run stopped before writing, or the items each outcome, the
 * failures, the items not sent and the writes that may have been done. It stays short whatever the
 * run's size (MAX_ERROR_LENGTH): the records' IDs, item by item, are in `context.run`, for an error
 * workflow.
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

/**
 * What an earlier try of the node in the same execution (n8n's Retry On Fail) wrote for an item: its
 * records, or a write that may have been done (`attempted`: what it would have done).
 */
export type EarlierWrite = { done: ItemOutcome[] } | { attempted: Outcome };

/** The outcome of a Create or Update that found the record holding every value already. */
export const UNCHANGED = 'unchanged';

/** Whether `outcome` is a write's (not `unchanged` nor `read`). */
export function wrote(outcome: Outcome): boolean {
	return outcome !== UNCHANGED && outcome !== 'read';
}

/** How many failures the message names, and the description with their explanation. */
const FAILURES_NAMED = 3;

/** How many ranges of items a list names before it counts the rest. */
const RANGES_NAMED = 12;

/** The most a stopped run's message and description take together, whatever the run's size. */
export const MAX_ERROR_LENGTH = 4000;

/** How much of one failure's explanation the description quotes. */
const EXPLANATION_LENGTH = 400;

/** The most a list of item ranges takes (RANGES_NAMED of them, and the count of the rest). */
const LIST_LENGTH = 200;

/** `[0, 1, 2, 5, 7, 8]` as "0-2, 5 and 7-8"; past `most` ranges, the others are counted. */
export function describeIndexes(indexes: number[], most = Number.POSITIVE_INFINITY): string {
	const ranges: string[] = [];
	for (let start = 0; start < indexes.length;) {
		let end = start;
		while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1) end++;
		ranges.push(end === start ? String(indexes[start]) : `${indexes[start]}-${indexes[end]}`);
		start = end + 1;
	}
	if (ranges.length > most) {
		const rest = ranges.length - most;
		return `${ranges.slice(0, most).join(', ')} and ${rest.toLocaleString('en-US')} more ranges`;
	}
	return ranges.length < 2
		? ranges.join('')
		: `${ranges.slice(0, -1).join(', ')} and ${ranges.at(-1)}`;
}

function itemsNamed(indexes: number[]): string {
	return `${indexes.length === 1 ? 'item' : 'items'} ${describeIndexes(indexes, RANGES_NAMED)}`;
}

function count(number: number, noun: string): string {
	return `${number.toLocaleString('en-US')} ${noun}${number === 1 ? '' : 's'}`;
}

/** "Created 698: items 0-697". */
function tally(label: string, indexes: number[]): string {
	return `${label} ${indexes.length.toLocaleString('en-US')}: ${itemsNamed(indexes)}`;
}

/** `text` cut to `length` characters at most. */
function clipped(text: string, length: number): string {
	if (text.length <= length) return text;
	return length > 1 ? `${text.slice(0, length - 1).trimEnd()}…` : '';
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
	/** What earlier tries of the node in this execution wrote, by item (Retry On Fail). */
	earlier?: ReadonlyMap<number, EarlierWrite>;
}

type Failed = [number, Extract<ItemEnd, { failed: ItemError }>];

/**
 * What the execution's items came to, by outcome (in the order the outcomes first appear), each
 * record with its item: this try's, and an earlier try's write of an item this try did not do.
 */
function outcomes(state: RunState) {
	const byOutcome = new Map<string, Array<{ index: number } & ItemOutcome>>();
	for (let index = 0; index < state.itemCount; index++) {
		const end = state.ends.get(index);
		const earlier = state.earlier?.get(index);
		const done = end && 'done' in end ? end.done : earlier && 'done' in earlier ? earlier.done : [];
		for (const record of done) {
			const records = byOutcome.get(record.outcome) ?? [];
			records.push({ index, ...record });
			byOutcome.set(record.outcome, records);
		}
	}
	return byOutcome;
}

/** The sentences of the story, each ended, joined. */
function told(story: Array<string | undefined>): string {
	return story
		.filter((sentence): sentence is string => typeof sentence === 'string' && sentence !== '')
		.map(asSentence)
		.join(' ');
}

/**
 * The other failures, each with its explanation while `room` lasts (a run of a few failures names
 * them all), the rest by item.
 */
function alsoFailed(others: Failed[], room: number): string {
	if (others.length === 0) return '';
	const named: string[] = [];
	let left = room - LIST_LENGTH;
	for (const [index, { failed: error }] of others) {
		const line = `Item ${index}: ${asSentence(clipped(failureSentences(error), EXPLANATION_LENGTH))}`;
		if (line.length + 1 > left) break;
		named.push(line);
		left -= line.length + 1;
	}
	const rest = others.slice(named.length).map(([index]) => index);
	return [`Also failed:`, ...named, rest.length > 0 ? `And ${itemsNamed(rest)}` : '']
		.filter((part) => part !== '')
		.join(' ');
}

/**
 * The error of a run that stopped on a failure (see NodeRun): the first failed item's message, and a
 * description that says what the run did. Before it performed (a check, or a record named by an
 * external ID, failed) nothing was written, and the failed items are named; once it performed, the
 * items of each outcome, the failures, the items not sent and the writes that may have been done.
 */
export function describeRun(state: RunState): ItemError {
	const failed = [...state.ends]
		.filter((entry): entry is Failed => 'failed' in entry[1])
		.sort(([left], [right]) => left - right);
	const [firstIndex, { failed: first }] = failed[0];
	// A run of one item is that item: its own error says it all.
	if (state.itemCount === 1 && !state.earlier?.size) return first;
	const done = outcomes(state);
	const written = new Set([...done].flatMap(([, records]) => records.map(({ index }) => index)));
	const notSent = [...Array(state.itemCount).keys()].filter(
		(index) =>
			(!state.ends.has(index) || 'notSent' in state.ends.get(index)!) && !written.has(index),
	);
	// A failed write whose answer was lost, or that the API failed after it, may have been done; so
	// may an earlier try's that this try did not do again.
	const uncertain = state.writes
		? [...Array(state.itemCount).keys()].filter((index) => {
				const end = state.ends.get(index);
				if (end && 'failed' in end) return mayHaveBeenDone(end.failed);
				const earlier = state.earlier?.get(index);
				return (!end || 'notSent' in end) && earlier !== undefined && 'attempted' in earlier;
			})
		: [];
	const others = failed.slice(1);
	const counted = [...done].map(([outcome, records]) =>
		tally(outcome.charAt(0).toUpperCase() + outcome.slice(1), [
			...new Set(records.map(({ index }) => index)),
		]),
	);
	let message = withItem(first, firstIndex);
	// What the first failure said; what the run did; (the other failures;) what to do next.
	let explained: string;
	let story: string[];
	let next = '';
	if (state.phase !== 'perform') {
		const nothingDone =
			state.phase === 'check'
				? 'Nothing was sent: the node checks every item before it sends any request'
				: 'Nothing was written: the node checks every item, and finds the records it names, before it writes any';
		const failedOf = `${failed.length.toLocaleString('en-US')} of the ${count(state.itemCount, 'item')} failed${done.size > 0 ? ' in this try' : ''}`;
		next = `Fix ${others.length > 0 ? 'them' : 'it'} and run the node again, or turn on Continue On Fail (the node's Settings > On Error) to send the other items and output each failure as an item of its own.`;
		// A try of Retry On Fail stopped before writing, after earlier tries wrote.
		const earlier =
			done.size > 0
				? `Earlier tries of this execution (Retry On Fail) did: ${counted.join('. ')}`
				: '';
		if (others.length === 0) {
			explained = first.description ?? '';
			story = [`${nothingDone}, and ${failedOf}`, earlier];
		} else {
			const named = failed
				.slice(0, FAILURES_NAMED)
				.map(([index, { failed: error }]) => withItem(error, index));
			const more = failed.length - named.length;
			message = `${count(failed.length, 'item')} failed: ${named.join('; ')}${more > 0 ? `; and ${more.toLocaleString('en-US')} more` : ''}`;
			explained = '';
			story = [
				`${nothingDone}, and ${failedOf}: ${itemsNamed(failed.map(([index]) => index))}`,
				`Item ${firstIndex}: ${clipped(failureSentences(first), EXPLANATION_LENGTH * 2)}`,
				earlier,
			];
		}
	} else {
		const tries = state.earlier?.size ? ' over the tries of this execution (Retry On Fail)' : '';
		explained = first.description ?? '';
		story = [
			`The run stopped at item ${firstIndex}: it started no item after this failure, and let the items already under way finish`,
			`What it did${tries}: ${[
				...counted,
				tally(
					'Failed',
					failed.map(([index]) => index),
				),
			].join('. ')}`,
			notSent.length > 0
				? `${tally('Not sent', notSent)}: run ${notSent.length === 1 ? 'it' : 'them'} again once the failure is fixed`
				: '',
			uncertain.length > 0
				? `${tally('May have been done', uncertain)} (the answer was lost, or the API failed after the write): check for ${uncertain.length === 1 ? 'its record' : 'their records'} before you send ${uncertain.length === 1 ? 'it' : 'them'} again`
				: '',
		];
	}
	if (state.writes && written.size > 0)
		next += " Each record's ID, by item, is in the error's context.run.done.";
	message = clipped(message, EXPLANATION_LENGTH * 2);
	// The counts and ranges first; the first failure's explanation (the API's words) and then the
	// other failures take the room they leave.
	const fixed = told([...story, next]);
	let room = MAX_ERROR_LENGTH - message.length - fixed.length - 1;
	explained = clipped(explained, Math.min(room - LIST_LENGTH, EXPLANATION_LENGTH * 3));
	room -= explained.length + 1;
	const description = told([explained, ...story, alsoFailed(others, room), next]);
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
			done: [...done.values()]
				.flat()
				.map(({ index, outcome, id }) => ({ item: index, outcome, ...(id ? { id } : {}) })),
		},
	});
	return error;
}
