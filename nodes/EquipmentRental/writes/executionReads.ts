import type { ExecutionState, WholeRead } from '../engine/runState';

/*
 * The whole reads a node's runs share within one execution (a loop's batches, Retry On Fail's
 * tries), kept in what the runs share of their execution (RunState.execution, engine/runState.ts).
 *
 * What identifies one execution of the node: n8n's context of the node in the execution's data
 * (getContext('node'), n8n-core 2.8.1, see nodeRunOf): one object per execution and node, which
 * every run of the node in that execution is given, and which goes with the execution's data.
 * The execution ID would not do alone: every execution of the test engine has the same one, and a
 * map by ID would have to be emptied by hand. A call of a sub-workflow is an execution of its own,
 * which shares nothing with the calls before it.
 *
 * Bounds: one read per collection, parent, credential and Base URL of the node in an execution
 * (each of at most MOST_RECORDS_READ_WHOLE records, wholeReads.ts), released with the execution's data
 * (a weak key); used for SHARED_READ_LIFETIME_MS after it was read, so that a long loop reads
 * again what other writers changed meanwhile, and let go by the node's next run after that.
 */

/** How long after its read a whole read serves the node's later runs in the execution. */
export const SHARED_READ_LIFETIME_MS = 5 * 60_000;

/**
 * The read an earlier run of the node in `execution` shared under `key`, while it is young enough;
 * an older one is let go here (n8n's rules for community nodes allow no timer of a node's own).
 */
export function sharedRead(execution: ExecutionState, key: string): WholeRead | undefined {
	const { sharedReads } = execution;
	const entry = sharedReads.get(key);
	if (entry && Date.now() - entry.readAt < SHARED_READ_LIFETIME_MS) return entry.read;
	sharedReads.delete(key);
	return undefined;
}

/** Shares `read` with the node's later runs in `execution`, in place of any before it. */
export function shareRead(execution: ExecutionState, key: string, read: WholeRead): void {
	execution.sharedReads.set(key, { read, readAt: Date.now() });
}

/**
 * Adds the `count` external IDs a run names in the collection under `key` to what the node's runs
 * in `execution` named before, and returns the sum: the rows a loop's batches have named so far.
 */
export function namedSoFar(execution: ExecutionState, key: string, count: number): number {
	const { named } = execution;
	const total = (named.get(key) ?? 0) + count;
	named.set(key, total);
	return total;
}
