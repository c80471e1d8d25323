/**
 * One run of the node: the items n8n gives it in one execution of the node, and what became of each.
 *
 * What n8n does (n8n-core's RoutingNode, routing-node.js runNode, read in n8n 1.85.4, 2.8.1 and
 * 2.41.1): it starts every input item of a declarative node at once, each in a promise of its own,
 * waits until all have settled, and then throws the error of the first failed item by index, unless
 * Continue On Fail is on. Left to that, a run whose item 10 fails has sent every other item, and its
 * error says nothing of what they wrote: fixed and run again, it creates the others twice.
 *
 * What the node does about it: its items go through three phases together, each item waiting at the
 * end of a phase until every item of the run is there: check (each item's parameters read and
 * checked, nothing sent), prepare (the reads a write needs, nothing written: a write sent then is
 * refused) and perform (the operation's own requests).
 * Where the run stops on a failure (Continue On Fail off, and not an AI agent's tool), an item that
 * fails its checks or its preparation fails the whole run before anything is written, and its error
 * names every such item. A failure while performing stops the run from starting any further item,
 * from the moment its answer reaches the node (the pace holds new items, paceHolds.ts); items already
 * under way finish. Every failed item then throws the same error, which counts what the run did by
 * outcome with item ranges, and lists each record in its context (runReport.ts).
 * Where failures do not stop the run, each failed item is output as its own failure, the others go on.
 */
import type { IDataObject, IExecuteSingleFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import type { EarlierWrite, ItemEnd, ItemError, ItemOutcome, Outcome, Phase } from './runReport';
import { describeRun, wrote } from './runReport';
import { PhaseBarrier } from './phaseBarrier';
import { RunState } from './runState';

/** The grouping of checkedBy that puts every item in one group. */
const everyItem = () => '';

/** Thrown by an item that did not start a phase because the run had stopped. */
class NotStarted extends Error {}
/** Thrown by an item that passed a phase's barrier after a phase in which an item failed. */
class RunFailed extends Error {}

export class NodeRun {
	private readonly ends = new Map<number, ItemEnd>();
	private readonly arrivals = new Set<number>();
	/** What each item's checks gave (its request's parts), by item. */
	private readonly checkedParts = new Map<number, unknown>();
	/** checkedParts in the items' order, by each grouping asked for (checkedBy): made once each. */
	private readonly checkedGroups = new Map<unknown, Map<string, unknown[]>>();
	/** The writes of this try that failed but may have been done, by item: what each would have done. */
	private readonly attempts = new Map<number, Outcome>();
	/** What an item outputs after its own items, whether it succeeds or fails (see outputAfter). */
	private readonly trailing = new Map<number, INodeExecutionData[]>();
	private readonly barriers: Record<Exclude<Phase, 'perform'>, PhaseBarrier>;
	private stopped = false;
	private failures = 0;
	private phaseReached: Phase = 'check';
	/** When the items began to perform. */
	private performingSince = 0;
	private finalError?: ItemError;
	private allEnded?: () => void;
	private readonly ended: Promise<void>;
	/** What the run holds for its items: its pace, settings, lookups and whole reads (runState.ts). */
	readonly state: RunState;

	constructor(
		readonly itemCount: number,
		/** Whether a failure stops the run (Continue On Fail off, not an AI tool). */
		readonly stopsOnFailure: boolean,
		/** Whether the operation writes (its error then says what it wrote). */
		private readonly writes: boolean,
		/** What the earlier tries of the node in this execution wrote, by item (see nodeRunOf). */
		private readonly earlier: Map<number, EarlierWrite> = new Map(),
		/** This execution of the node, which its runs share (see nodeRunOf). */
		execution: object = {},
	) {
		const open = () => this.itemCount - this.ends.size;
		this.barriers = { check: new PhaseBarrier(open), prepare: new PhaseBarrier(open) };
		this.ended = new Promise<void>((resolve) => (this.allEnded = resolve));
		this.state = new RunState(execution);
	}

	/** Items output after item `index`'s own whatever becomes of it (records listed beside the rows). */
	outputAfter(index: number, items: INodeExecutionData[]): void {
		this.trailing.set(index, items);
	}

	/** Whether item `index` has already started in this run (then n8n is running the node again). */
	hasSeen(index: number): boolean {
		return this.arrivals.has(index);
	}

	/** A write of item `index` failed, and may have been done all the same: it would have `outcome`. */
	mayHaveWritten(index: number, outcome: Outcome): void {
		this.attempts.set(index, outcome);
	}

	/** What an earlier try of this execution wrote for item `index` (`created`, ...), if it wrote. */
	writtenBefore(index: number): Outcome | undefined {
		const earlier = this.earlier.get(index);
		if (!earlier) return undefined;
		return 'attempted' in earlier
			? earlier.attempted
			: earlier.done.find(({ outcome }) => wrote(outcome))?.outcome;
	}

	/** What the tries of this execution up to this one wrote, for the next try. */
	handOver(): Map<number, EarlierWrite> {
		for (const [index, end] of this.ends) {
			if ('done' in end && end.done.some(({ outcome }) => wrote(outcome)))
				this.earlier.set(index, { done: end.done });
			else if ('failed' in end && this.attempts.has(index) && !this.earlier.has(index))
				this.earlier.set(index, { attempted: this.attempts.get(index)! });
		}
		return this.earlier;
	}

	/** What the checks of the run's items gave, once every item is checked, in the items' order. */
	checked<Parts>(): readonly Parts[] {
		return this.checkedBy<Parts>(everyItem).get('') ?? [];
	}

	/** What the checks gave, in the items' order, grouped by `groupOf` (e.g. each row's parent). */
	checkedBy<Parts>(groupOf: (parts: Parts) => string): ReadonlyMap<string, readonly Parts[]> {
		let groups = this.checkedGroups.get(groupOf);
		if (!groups) {
			groups = new Map();
			const inOrder = [...this.checkedParts.entries()].sort(([left], [right]) => left - right);
			for (const [, parts] of inOrder as Array<[number, Parts]>) {
				const key = groupOf(parts);
				const group = groups.get(key);
				if (group) group.push(parts);
				else groups.set(key, [parts]);
			}
			this.checkedGroups.set(groupOf, groups);
		}
		return groups as Map<string, Parts[]>;
	}

	/** The phase the run's items are in: no item performs before every item has been prepared. */
	get phase(): Phase {
		return this.phaseReached;
	}

	/**
	 * Why a request of an item may not go now that its turn has come, if it may not: once the run has
	 * stopped, an item that has sent nothing in this phase (`opening`) sends nothing (it ends as not
	 * sent); one that has, finishes. A failure that stops the run reaches its item before such a turn
	 * comes (the pace holds them back from the failed answer on, paceHolds.ts).
	 */
	async reasonNotToSend(opening: boolean): Promise<Error | undefined> {
		return opening && this.stopped ? new NotStarted() : undefined;
	}

	/**
	 * Waits until item `index` may perform under n8n's Batching (Request Options): RoutingNode waits
	 * `interval` ms after every `size` items it starts, but the items then wait for each other to be
	 * prepared, so the batches are spaced again here, counted from when the items began to perform.
	 */
	async batchTurn(index: number, { size, interval }: { size: number; interval: number }) {
		const startsAt = this.performingSince + Math.floor(index / size) * interval;
		if (interval > 0 && startsAt > Date.now()) await sleep(startsAt - Date.now());
	}

	/**
	 * Runs item `index` through the phases: `check`, then (once every item is checked) `prepare`,
	 * then (once every item is prepared) `perform`, each in the item's turn of the run's pace
	 * (`inTurn`). `failureOutput` is what a failure outputs where failures do not stop the run.
	 */
	async runItem<Checked, Prepared>(
		index: number,
		steps: {
			check: () => Promise<Checked>;
			prepare: (checked: Checked) => Promise<Prepared>;
			perform: (prepared: Prepared) => Promise<INodeExecutionData[]>;
			inTurn: <T>(work: () => Promise<T>) => Promise<T>;
			outcomesOf: (items: INodeExecutionData[]) => ItemOutcome[];
			toItemError: (error: unknown) => ItemError;
			failureOutput: (error: ItemError) => INodeExecutionData[];
		},
	): Promise<INodeExecutionData[]> {
		this.arrivals.add(index);
		let phase: Phase = 'check';
		try {
			const checked = await steps.check();
			this.checkedParts.set(index, checked);
			this.checkedGroups.clear();
			await this.passBarrier('check', index);
			phase = 'prepare';
			const prepared = await steps.inTurn(async () => await steps.prepare(checked));
			await this.passBarrier('prepare', index);
			phase = 'perform';
			const items = await steps.inTurn(async () => await steps.perform(prepared));
			this.end(index, { done: steps.outcomesOf(items) });
			return [...items, ...(this.trailing.get(index) ?? [])];
		} catch (error) {
			// An item the run did not let go on outputs nothing: n8n throws the error of the first item
			// that failed (by index), which says what the run did, and drops every item's output.
			if (error instanceof RunFailed) return [];
			if (error instanceof NotStarted) {
				this.end(index, { notSent: true });
				return [];
			}
			const itemError = steps.toItemError(error);
			if (!this.stopsOnFailure) {
				this.end(index, { failed: itemError, phase });
				return [...steps.failureOutput(itemError), ...(this.trailing.get(index) ?? [])];
			}
			// Once an item fails while performing, or the API fails a read, nothing more is started;
			// an item that fails its checks or whose record is missing lets the others be checked.
			if (phase === 'perform' || itemError instanceof NodeApiError) this.stopped = true;
			this.end(index, { failed: itemError, phase });
			await this.ended;
			throw this.runError();
		}
	}

	/**
	 * Waits at the end of `phase` for the run's other items; where failures stop the run and an
	 * item failed in it, nothing goes on: the item ends unsent, with the run's error.
	 */
	private async passBarrier(phase: Exclude<Phase, 'perform'>, index: number): Promise<void> {
		await this.barriers[phase].arrive(index);
		if (this.stopsOnFailure && this.failures > 0) {
			this.end(index, { notSent: true });
			throw new RunFailed();
		}
		if (phase === 'prepare' && this.phaseReached !== 'perform') this.performingSince = Date.now();
		this.phaseReached = phase === 'check' ? 'prepare' : 'perform';
	}

	private end(index: number, end: ItemEnd): void {
		if (this.ends.has(index)) return;
		this.ends.set(index, end);
		if ('failed' in end) this.failures++;
		for (const barrier of Object.values(this.barriers)) barrier.releaseWhenComplete();
		if (this.ends.size === this.itemCount) this.allEnded?.();
	}

	/**
	 * The error every failed item of a stopped run throws, made once, when the run's failures are
	 * all known: items that have not ended by then are the ones it did not send.
	 */
	private runError(): ItemError {
		this.finalError ??= describeRun({
			itemCount: this.itemCount,
			ends: this.ends,
			phase: this.phaseReached,
			writes: this.writes,
			earlier: this.earlier,
		});
		return this.finalError;
	}
}

/** The execution data of the node's run as n8n gives it to each of its items. */
type RunContext = Pick<
	IExecuteSingleFunctions,
	'getExecuteData' | 'getNode' | 'getItemIndex' | 'getContext'
>;

/**
 * How many items n8n runs the node for: the main input's (an AI tool's, when run as one), or the
 * first only when the node is set to Execute Once (WorkflowExecute.runNode, handleExecuteOnce).
 */
function itemCountOf(context: RunContext): number {
	const data = context.getExecuteData().data as IDataObject;
	const connections = (data.main ?? data.ai_tool) as unknown[][] | undefined;
	const count = connections?.[0]?.length ?? 1;
	return context.getNode().executeOnce === true ? Math.min(count, 1) : count;
}

/**
 * The runs under way, by the execution data n8n gives every item of a run of the node: one object
 * per execution, node and run of the node (a loop's next run has its own). n8n's Retry On Fail
 * (WorkflowExecute.processRunExecutionData, n8n-core 2.8.1) runs the node again, every item of it,
 * with the same execution data, in the same execution: an item index seen twice starts the next
 * try, which is handed what the tries before it wrote (NodeRun.handOver), so that its output and
 * its error say what the execution did. That memory holds at most one entry per item of the run
 * (its outcome and record IDs), and lives as long as the execution data, a weak key here: it goes
 * with the execution, and neither another execution nor another run of the node sees it.
 */
const runs = new WeakMap<object, NodeRun>();

/** The run under way that item `context` belongs to, if it has begun. */
export function runUnderWay(context: Pick<RunContext, 'getExecuteData'>): NodeRun | undefined {
	return runs.get(context.getExecuteData());
}

/** The run of the node that item `context` belongs to. */
export function nodeRunOf(
	context: RunContext,
	{ stopsOnFailure, writes }: { stopsOnFailure: boolean; writes: boolean },
): NodeRun {
	const executeData = context.getExecuteData();
	let run = runs.get(executeData);
	if (!run || run.hasSeen(context.getItemIndex())) {
		// n8n's context of the node in the execution's data: the same object for every run of the
		// node in the execution (a loop's batches, the tries), another in the next execution.
		const execution = context.getContext('node');
		run = new NodeRun(itemCountOf(context), stopsOnFailure, writes, run?.handOver(), execution);
		runs.set(executeData, run);
	}
	return run;
}
