import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import type { DailyReport } from './dailyReports';
import { equipmentIdOf } from './dailyReports';

/**
 * A daily report's records in the workflow's days: the API's day is the UTC day (dailyReports.ts),
 * so a workflow day elsewhere overlaps two of them, and a record with an interval is cut at the
 * workflow's midnight.
 */

/** A moment the API gives (ISO 8601, UTC unless it says), in milliseconds. */
function millisecondsOf(moment: unknown): number | undefined {
	const parsed = typeof moment === 'string' ? DateTime.fromISO(moment, { zone: 'UTC' }) : undefined;
	return parsed?.isValid ? parsed.toMillis() : undefined;
}

/** The API's days (YYYY-MM-DD, UTC) that overlap `day` of `timezone`, oldest first. */
function apiDaysOverlapping(day: string, timezone: string): string[] {
	const end = DateTime.fromISO(day, { zone: timezone }).plus({ days: 1 });
	const apiDays: string[] = [];
	for (
		let apiDay = DateTime.fromISO(day, { zone: timezone }).toUTC().startOf('day');
		apiDay < end;
		apiDay = apiDay.plus({ days: 1 })
	)
		apiDays.push(apiDay.toISODate() as string);
	return apiDays;
}

/** A record's interval in milliseconds, `undefined` when it has no readable one. */
function intervalOf(record: IDataObject): { start: number; end: number } | undefined {
	const start = millisecondsOf(record.start);
	const end = millisecondsOf(record.end);
	return start !== undefined && end !== undefined && start <= end ? { start, end } : undefined;
}

/**
 * The part of `record` (its interval `start` to `end`) within [from, until), its duration shared
 * in proportion to the time inside; `undefined` when none of it is.
 */
function partWithin(
	record: IDataObject,
	{ start, end }: { start: number; end: number },
	from: number,
	until: number,
): IDataObject | undefined {
	const partStart = Math.max(start, from);
	const partEnd = Math.min(end, until);
	const inside = start === end ? from <= start && start < until : partStart < partEnd;
	if (!inside) return undefined;
	if (partStart === start && partEnd === end) return record;
	const { duration } = record;
	return {
		...record,
		start: new Date(partStart).toISOString(),
		end: new Date(partEnd).toISOString(),
		duration:
			typeof duration === 'number'
				? Math.round((duration * (partEnd - partStart)) / (end - start))
				: duration,
	};
}

/**
 * Joins what the API split at 00:00 UTC: a piece of equipment's part that ends at a UTC midnight
 * and its next part that starts there are one stretch of work (`parts` of one piece, by start).
 */
function joinedAtUtcMidnight(parts: IDataObject[]): IDataObject[] {
	const joined: IDataObject[] = [];
	for (const part of parts) {
		const previous = joined.at(-1);
		const at = millisecondsOf(part.start);
		const splitHere =
			previous !== undefined &&
			at !== undefined &&
			at === millisecondsOf(previous.end) &&
			at % 86_400_000 === 0;
		if (!splitHere) {
			joined.push(part);
			continue;
		}
		const bothTimed = typeof previous.duration === 'number' && typeof part.duration === 'number';
		joined[joined.length - 1] = {
			...previous,
			end: part.end,
			duration: bothTimed ? (previous.duration as number) + (part.duration as number) : null,
		};
	}
	return joined;
}

/**
 * The records a readable output of `day` (YYYY-MM-DD) is made of. For a report whose records carry
 * their interval, `day` in `timezone`: the records of every UTC day that overlaps it are read, one
 * after the other (either failing fails the day: no half day is output), each record is cut to its
 * part within the day, and a stretch the API split at 00:00 UTC is joined again; the records come
 * by piece of equipment, in the API's order, each piece's by start. A record without a readable
 * interval cannot be placed: it is kept, as it is, from the UTC day of the same date. For a report
 * of figures per day, the API's day of that date as it is.
 */
export async function recordsOfReadableDay(
	report: DailyReport,
	day: string,
	timezone: string,
	readApiDay: (apiDay: string) => Promise<IDataObject[]>,
): Promise<IDataObject[]> {
	if (!report.hasIntervals) return await readApiDay(day);
	const apiDays: Array<[apiDay: string, records: IDataObject[]]> = [];
	for (const apiDay of apiDaysOverlapping(day, timezone)) {
		apiDays.push([apiDay, await readApiDay(apiDay)]);
	}
	const from = DateTime.fromISO(day, { zone: timezone });
	const [fromMs, untilMs] = [from.toMillis(), from.plus({ days: 1 }).toMillis()];
	const partsByEquipment = new Map<IDataObject[string], IDataObject[]>();
	for (const [apiDay, records] of apiDays) {
		for (const record of records) {
			const interval = intervalOf(record);
			const part = interval
				? partWithin(record, interval, fromMs, untilMs)
				: apiDay === day
					? record
					: undefined;
			if (part === undefined) continue;
			const parts = partsByEquipment.get(equipmentIdOf(record)) ?? [];
			parts.push(part);
			partsByEquipment.set(equipmentIdOf(record), parts);
		}
	}
	return [...partsByEquipment.values()].flatMap((parts) =>
		joinedAtUtcMidnight(
			parts.sort((a, b) => (millisecondsOf(a.start) ?? 0) - (millisecondsOf(b.start) ?? 0)),
		),
	);
}
