import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/*
 * What a created-or-updated event's poll keeps between polls (the workflow's static data) and how
 * it tells what changed: the records it emitted, by version, and the bound of the next poll by
 * n8n's clock.
 */

/** Most records the static data remembers as emitted, so that it stays small (see stateAfter). */
export const MAX_REMEMBERED_RECORDS = 1000;
/**
 * The field an event that tells created records from updated ones adds to each record: "created"
 * for a record the workflow has not had before, created since the trigger last looked, "updated"
 * for any other.
 */
export const CHANGE_TYPE_FIELD = 'changeType';

/**
 * A record emitted (or found at activation) that the API may answer the next poll again: the
 * version emitted, and until when (ms): the API answers it while a poll asks for records updated
 * after an earlier moment.
 */
export type RememberedRecord = [version: string, until: number];

/** What a poll leaves for the next one, in the workflow's static data. */
export type RecordPollState = {
	/** The next poll asks for records updated after this moment (ISO 8601, UTC). */
	updatedAfter: string;
	/** By record ID; only records the next poll may see again, at most MAX_REMEMBERED_RECORDS. */
	remembered: Record<string, RememberedRecord>;
};

/**
 * The state as earlier versions of the trigger saved it (the model event only): the previous poll's
 * start, n8n's clock.
 */
type LegacyRecordPollState = {
	previousPollStartedAt: string;
	seenSinceStart: Record<string, string>;
};

/** The moment in `field` (e.g. updatedAt) in milliseconds, NaN where the record has none. */
export function momentOf(record: IDataObject, field: 'createdAt' | 'updatedAt'): number {
	return typeof record[field] === 'string' ? Date.parse(record[field]) : Number.NaN;
}

/** The record's version: its updatedAt, or where it has none a digest of its content. */
export function versionOf(record: IDataObject): string {
	if (!Number.isNaN(momentOf(record, 'updatedAt'))) return record.updatedAt as string;
	return `#${createHash('sha256').update(JSON.stringify(record)).digest('base64url').slice(0, 16)}`;
}

/** Records that carry updatedAt first, newest first; the others keep their order after them. */
export function newestFirst(records: IDataObject[]): IDataObject[] {
	const rank = (record: IDataObject) => {
		const updatedAt = momentOf(record, 'updatedAt');
		return Number.isNaN(updatedAt) ? -Infinity : updatedAt;
	};
	return [...records].sort((left, right) => Math.sign(rank(right) - rank(left)) || 0);
}

/** The saved state, also as earlier versions saved it, so that an upgrade misses nothing. */
export function savedState(saved: unknown): RecordPollState | undefined {
	const state = saved as Partial<RecordPollState & LegacyRecordPollState> | undefined;
	if (typeof state?.updatedAfter === 'string' && typeof state.remembered === 'object')
		return state as RecordPollState;
	if (typeof state?.previousPollStartedAt !== 'string') return undefined;
	const remembered = Object.entries(state.seenSinceStart ?? {}).map(
		([id, updatedAt]): [string, RememberedRecord] => [id, [updatedAt, Date.parse(updatedAt)]],
	);
	return { updatedAfter: state.previousPollStartedAt, remembered: Object.fromEntries(remembered) };
}

/**
 * Where to ask from when only n8n's clock is known: the poll's start less the overlap, so that a
 * change made after it is asked for while the API's clock is up to the overlap behind n8n's; 1 ms
 * more for a change in the very millisecond the poll started.
 */
export function boundByN8nClock(startedAt: number, overlapMs: number): number {
	return startedAt - overlapMs - 1;
}

/** One poll's reading: when it started and ended (n8n's clock) and the records it was answered. */
type Reading = { startedAt: number; readAt: number; records: IDataObject[] };

/**
 * Where the next poll asks from so that it misses no change, and by whose clock. When every record
 * answered carries updatedAt, the API's own clock decides: a later change cannot carry an updatedAt
 * before the newest seen, less the time the poll took to read (a change during the read), less 1 ms
 * (a change in the same millisecond). Otherwise only n8n's clock is known. Nothing answered: nothing
 * learnt.
 */
export function nextBound(previousBound: number, reading: Reading, overlapMs: number) {
	const { startedAt, readAt, records } = reading;
	if (records.length === 0) return { bound: previousBound, byApiClock: false };
	let newest = -Infinity;
	for (const record of records) newest = Math.max(newest, momentOf(record, 'updatedAt'));
	const byApiClock = !Number.isNaN(newest);
	const bound = byApiClock
		? newest - (readAt - startedAt) - 1
		: boundByN8nClock(startedAt, overlapMs);
	return { bound: Math.max(previousBound, bound), byApiClock };
}

/**
 * "created" for a record the workflow has not had before (not remembered, and created after the
 * moment the poll asks from: a record created earlier was there when the trigger last looked),
 * "updated" for any other; undefined where the record does not show both moments.
 *
 * A record emitted before and no longer remembered was created before the moment the poll asks
 * from: it is forgotten once that moment has passed its updatedAt (stateAfter).
 */
export function changeTypeOf(
	record: IDataObject,
	askedAfter: number,
	known: boolean,
): 'created' | 'updated' | undefined {
	const createdAt = momentOf(record, 'createdAt');
	if (Number.isNaN(createdAt) || Number.isNaN(momentOf(record, 'updatedAt'))) return undefined;
	return !known && createdAt > askedAfter ? 'created' : 'updated';
}
