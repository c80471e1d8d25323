/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * What the fault suite found, kept per test file in the folder that jest.faults.config.js names, so
 * that print-summary.js can end the run with one plain summary line across the files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { RunResult } from '../harness/engine';

export type ListOutcome = 'complete' | 'failedLoudly' | 'partial' | 'duplicates';

export type ListTally = Record<ListOutcome, number> & { runs: number };

export function emptyTally(): ListTally {
	return { runs: 0, complete: 0, failedLoudly: 0, partial: 0, duplicates: 0 };
}

/**
 * Judges one Return All run against the records the sandbox holds: the exact set (by id, each
 * once), or a loud failure that output no record at all. Anything else is a partial list, or one
 * with duplicates.
 */
export function listOutcome(result: RunResult, expectedIds: string[]): ListOutcome {
	const records = result.items.filter(
		(item) => item.error === undefined && item.json.error === undefined,
	);
	const ids = records.map((item) => item.json.id as string);
	const failed = result.error !== undefined || records.length < result.items.length;
	if (new Set(ids).size !== ids.length) return 'duplicates';
	if (failed) return records.length === 0 ? 'failedLoudly' : 'partial';
	const expected = new Set(expectedIds);
	const exact = ids.length === expected.size && ids.every((id) => expected.has(id));
	return exact ? 'complete' : 'partial';
}

export function addTo(tally: ListTally, outcome: ListOutcome): void {
	tally.runs += 1;
	tally[outcome] += 1;
}

/**
 * A created-or-updated event's polls under faults (trigger.faults.ts): each poll complete (exactly
 * the records changed since the last successful poll, each once, telling created from updated where
 * the event does), failed loudly (threw, static data left alone), partial (a change missing, one it
 * should not have emitted, or told wrong) or with duplicates (a record twice in a poll, or a change
 * emitted again). `lost`: changes never emitted once the faults stopped; `carriedOver`: changes a
 * failed poll missed that the next successful poll emitted.
 */
export type TriggerTally = Record<ListOutcome, number> & {
	polls: number;
	changes: number;
	lost: number;
	carriedOver: number;
	/** n8n restarts before a poll (the workflow activated again from its saved static data). */
	restarts: number;
	/** How far the API's clock ran ahead of n8n's in each scenario, in minutes (negative: behind). */
	clockOffsetsMinutes: number[];
};

export function emptyTriggerTally(): TriggerTally {
	return {
		polls: 0,
		complete: 0,
		failedLoudly: 0,
		partial: 0,
		duplicates: 0,
		changes: 0,
		lost: 0,
		carriedOver: 0,
		restarts: 0,
		clockOffsetsMinutes: [],
	};
}

export interface CompletionShare {
	runs: number;
	complete: number;
}

export interface FaultSuiteResults {
	lists?: ListTally;
	completionUnder5xx?: { nodeRetries: CompletionShare; withRetryOnFail: CompletionShare };
	writes?: {
		sent: number;
		succeeded: number;
		failedLoudly: number;
		falseSuccesses: number;
		retriedWrites: number;
		/** Items whose write was refused with 429 (not done) and sent again. */
		resentAfterRefusal: number;
		/** Writes the sandbox carried out and then closed the connection without answering. */
		lostAnswers: number;
		/** Failed items whose write the sandbox had done: their answer never reached the node. */
		doneUnanswered: number;
	};
	/**
	 * The same writes with Continue On Fail off, each run stopping at its first failure: `lost`
	 * (done by the API, not in the run's error), `falseReports` (in the error as done, not done) and
	 * `notSentButSent` (named not sent, yet sent) must be 0.
	 */
	stoppedWrites?: {
		runs: number;
		stopped: number;
		reportedDone: number;
		notSent: number;
		lost: number;
		falseReports: number;
		notSentButSent: number;
		sentTwice: number;
	};
	upserts?: UpsertTally;
	findRetries?: FindRetryTally;
	retryOnFail?: RetryOnFailTally;
	/** By event name, e.g. "Client Created or Updated". */
	trigger?: Record<string, TriggerTally>;
}

/**
 * Create or Update by External ID run again and again under faults (writes.faults.ts): `kinds`
 * record kinds of `externalIds` external IDs in all, `runs` runs of `items` items. `missing` and
 * `duplicates`: external IDs with no record, or more than one, after the last run (must be 0).
 * `lostCreates`: creates whose answer was lost; `foundAfterLostCreate`: of those, the items that
 * looked again, found the record and reported it created. `sentTwice`: a create or update the node
 * sent twice for one item; `falseSuccesses`: items whose reported record the store does not hold.
 */
export interface UpsertTally {
	kinds: number;
	externalIds: number;
	runs: number;
	items: number;
	created: number;
	updated: number;
	failed: number;
	missing: number;
	duplicates: number;
	lostAnswers: number;
	lostCreates: number;
	foundAfterLostCreate: number;
	/** Creates refused 409 (another writer took the external ID meanwhile). */
	taken: number;
	/** Of those, the items that looked again and updated the other writer's record. */
	updatedAfterTaken: number;
	sentTwice: number;
	falseSuccesses: number;
}

/**
 * Create or Update with n8n's Retry On Fail under faults (Continue On Fail off), counted by what each
 * execution said its rows came to (its output, or its last try's error): `misreported`, a row said
 * written that the store does not hold with its values, or said `created` for a record the API held
 * before the execution, `updated` for one it made, or `unchanged`, must be 0.
 */
export interface RetryOnFailTally {
	executions: number;
	succeeded: number;
	stopped: number;
	rows: number;
	created: number;
	updated: number;
	misreported: number;
	duplicates: number;
}

export function emptyRetryOnFailTally(): RetryOnFailTally {
	return {
		executions: 0,
		succeeded: 0,
		stopped: 0,
		rows: 0,
		created: 0,
		updated: 0,
		misreported: 0,
		duplicates: 0,
	};
}

/** Create or Update with faults on the GETs only: finds retried by the node itself. */
export interface FindRetryTally {
	items: number;
	created: number;
	updated: number;
	failed: number;
	retriedFinds: number;
	duplicates: number;
}

export function share({ runs, complete }: CompletionShare): number {
	return runs === 0 ? 0 : complete / runs;
}

/** Saves this file's part of the results (a no-op outside `npm run test:faults`). */
export function recordResults(name: string, results: FaultSuiteResults): void {
	const folder = process.env.FAULT_SUITE_RESULTS;
	if (!folder) return;
	mkdirSync(folder, { recursive: true });
	writeFileSync(join(folder, `${name}.json`), JSON.stringify(results));
}
