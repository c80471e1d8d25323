/*
 * The whole reads a node's runs share within one execution: the only module-level state of the
 * reads, kept here because a read shared by the runs of a node (a loop's batches, Retry On Fail's
 * tries) outlives each run, whose own state lives on the run (NodeRun).
 *
 * What identifies one execution of the node: n8n's context of the node in the execution's data
 * (NodeRun.execution, getContext('node'), n8n-core 2.8.1): one object per execution and node,
 * which every run of the node in that execution is given, and which goes with the execution's data.
 * The execution ID would not do alone: every execution of the test engine has the same one, and a
 * map by ID would have to be emptied by hand. A call of a sub-workflow is an execution of its own,
 * which shares nothing with the calls before it.
 *
 * Bounds: one read per collection, parent, credential and Base URL of the node in an execution
 * (each of at most MOST_RECORDS_HELD records, recordsHeld.ts), released with the execution's data
 * (a weak key); used for SHARED_READ_LIFETIME_MS after it was read, so that a long loop reads
 * again what other writers changed meanwhile, and let go by the node's next run after that.
 */

/** How long after its read a whole read serves the node's later runs in the execution. */
export const SHARED_READ_LIFETIME_MS = 5 * 60_000;

interface Shared<T> {
	read: T;
	readAt: number;
}

/** An execution's reads of one node, by what they read (its API and collection). */
interface NodeReads<T> {
	shared: Map<string, Shared<T>>;
	/** The external IDs the node's runs have named in each collection, added up run by run. */
	named: Map<string, number>;
}

const readsByExecution = new WeakMap<object, NodeReads<unknown>>();

function readsOf<T>(execution: object): NodeReads<T> {
	let reads = readsByExecution.get(execution);
	if (!reads) {
		reads = { shared: new Map(), named: new Map() };
		readsByExecution.set(execution, reads);
	}
	return reads as NodeReads<T>;
}

/**
 * The read an earlier run of the node in `execution` shared under `key`, while it is young enough;
 * an older one is let go here (n8n's rules for community nodes allow no timer of a node's own).
 */
export function sharedRead<T>(execution: object, key: string): T | undefined {
	const { shared } = readsOf<T>(execution);
	const entry = shared.get(key);
	if (entry && Date.now() - entry.readAt < SHARED_READ_LIFETIME_MS) return entry.read;
	shared.delete(key);
	return undefined;
}

/** Shares `read` with the node's later runs in `execution`, in place of any before it. */
export function shareRead<T>(execution: object, key: string, read: T): void {
	readsOf<T>(execution).shared.set(key, { read, readAt: Date.now() });
}

/**
 * Adds the `count` external IDs a run names in the collection under `key` to what the node's runs
 * in `execution` named before, and returns the sum: the rows a loop's batches have named so far.
 */
export function namedSoFar(execution: object, key: string, count: number): number {
	const { named } = readsOf(execution);
	const total = (named.get(key) ?? 0) + count;
	named.set(key, total);
	return total;
}
