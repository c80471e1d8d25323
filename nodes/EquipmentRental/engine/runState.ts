import type { IDataObject } from 'n8n-workflow';

import type { CollectionList } from '../../shared/paths';
import type { RequestPace } from '../../shared/requestPace';

/*
 * What a run of the node holds beside its items' phases (nodeRun.ts), in one home: every item
 * reaches it through its run (NodeRun.state), which the one map of runs finds (nodeRunOf). No other
 * module of the node keeps state about runs (test/tooling/imports.test.ts checks it).
 */

/**
 * A whole read: every record of a collection, read once for the run and found by external ID
 * there: a record not in it is not in the collection (at the time of the read).
 */
export interface WholeRead {
	/** The record with `externalId`, as read (a copy); undefined when the collection has none. */
	find(externalId: string): IDataObject | undefined;
	/** A record the run has just written, for the run's later rows (and the node's later runs). */
	keep(record: IDataObject): void;
	/** A record the API no longer has (another writer deleted it): a later row creates it anew. */
	forget(externalId: string): void;
	/**
	 * A write of the run may have been done though its answer was lost: the read may be out of
	 * date, so the node's later runs (Retry On Fail's next try) read the list anew.
	 */
	doubt(): void;
	readonly doubted: boolean;
	/** The records as read whole, where the caller asked for every record (`every`). */
	every(): IDataObject[];
}

/** What the node's runs in one execution share (a loop's batches, Retry On Fail's tries). */
export interface ExecutionState {
	/** The whole reads shared, by API and collection, with when each was read. */
	readonly sharedReads: Map<string, { read: WholeRead; readAt: number }>;
	/** The external IDs the node's runs have named in each collection, added up run by run. */
	readonly named: Map<string, number>;
}

/** What a run keys its whole read of `list` at `path` by: the URL with the parent's path filled in. */
export function collectionKey(list: CollectionList, path: Record<string, string>): string {
	return `${list.url} ${JSON.stringify(path)}`;
}

/** n8n's Batching of Request Options: every `size` items, a pause of `interval` ms. */
export interface Batching {
	size: number;
	interval: number;
}

/** What one run of the node holds, for all its items. */
export class RunState {
	/** The pace every request of the run waits its turn in (paceOfRun.ts), set at the first item. */
	pace?: RequestPace;
	/** The credential's Base URL, read once for the run (runSettings.ts). */
	baseUrl?: Promise<string>;
	/** n8n's Batching, read once for the run (runSettings.ts). */
	batching?: Batching;
	/**
	 * The records the run has found by external ID, by URL and external ID (references.ts in
	 * operations/): items that name the same record look it up once.
	 */
	readonly lookups = new Map<string, Promise<IDataObject | undefined>>();
	/** The run's whole reads, by collection (collectionKey). */
	readonly wholeReads = new Map<string, Promise<WholeRead | undefined>>();
	/** The records a preview's rows would have written, by collection and external ID. */
	readonly previewed = new Map<string, IDataObject>();
	/** What the run shares with the node's other runs in its execution. */
	readonly execution: ExecutionState;

	/** `execution`: n8n's object for this execution of the node, the same for its runs (nodeRunOf). */
	constructor(execution: object) {
		this.execution = executionStateOf(execution);
	}
}

/*
 * What outlives a run, and why. A whole read serves the node's later runs in the execution (a
 * loop's batches, Retry On Fail's tries), each a run of its own: it is kept by the execution's
 * object, a weak key that goes with the execution's data. Two upserts of one record (a sheet with a
 * row twice, two executions at once) must be written one after the other in the whole n8n process,
 * so that the second finds what the first created: that lock is process-wide, and holds a key only
 * while a write of it is under way.
 */

const executions = new WeakMap<object, ExecutionState>();

function executionStateOf(execution: object): ExecutionState {
	let state = executions.get(execution);
	if (!state) {
		state = { sharedReads: new Map(), named: new Map() };
		executions.set(execution, state);
	}
	return state;
}

const writesUnderWay = new Map<string, Promise<unknown>>();

/** Runs `task` once every task under `key` started before it in this n8n process has ended. */
export async function oneAtATime<T>(key: string, task: () => Promise<T>): Promise<T> {
	const before = writesUnderWay.get(key) ?? Promise.resolve();
	const turn = before.then(task, task);
	const ended = turn.then(
		() => undefined,
		() => undefined,
	);
	writesUnderWay.set(key, ended);
	try {
		return await turn;
	} finally {
		if (writesUnderWay.get(key) === ended) writesUnderWay.delete(key);
	}
}
