import { DateTime } from 'luxon';
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { ErrorContext } from './errors';
import { malformedResponseError, toItemError } from './errors';
import { pageSizeField } from './listFields';
import { parallelRequestsField } from './requestOptionFields';
import type { FetchPage } from './pagination';
import { readList } from './pagination';
import type { Field, ItemParameters } from './parameters';

/**
 * A daily analytics report of the API, `/analytics/v1/<name>/{date}`: a JSON array of records for
 * the day, read by the node's Get operations and the trigger's daily events alike.
 *
 * The API's day is the UTC day. The reference gives working hours' start and end in UTC and splits
 * them "at 00:00" (https://ram-api.syniotec.com/reference/equipment-working-hours), and a distance
 * record's date is a UTC date-time (spec 2.5); no page names another zone (x-assumed in the
 * sandbox's openapi.yaml).
 */
export interface DailyReport {
	/** `/analytics/v1/<name>`; a day's report is `<path>/<YYYY-MM-DD>`. */
	path: `/analytics/v1/${string}`;
	/** The report's name in messages, e.g. "usage report". */
	name: string;
	/**
	 * Whether each record carries its interval (`start` and `end`): then the readable output reports
	 * the workflow's day, cut from the API's UTC days that overlap it (recordsOfReadableDay). Figures
	 * per day without an interval cannot be moved to another day: their readable rows name the UTC
	 * day, in `dateUtc`.
	 */
	hasIntervals: boolean;
	/**
	 * A record's own columns in the readable output, after the equipment's title and inventory
	 * number and before its ID; times as local text in `timezone`.
	 */
	readableColumns: (record: IDataObject, timezone: string) => IDataObject;
}

/** Milliseconds as hours, to two decimals (28800000 is 8, 5400000 is 1.5). */
function hours(milliseconds: unknown): number | null {
	return typeof milliseconds === 'number' ? Math.round(milliseconds / 36_000) / 100 : null;
}

/**
 * An ISO 8601 moment as the local time a spreadsheet shows, e.g. 2024-05-31 16:30; text that is no
 * moment as it is.
 */
function localTime(moment: unknown, timezone: string): string | null {
	if (typeof moment !== 'string') return null;
	const parsed = DateTime.fromISO(moment, { zone: 'UTC' });
	return parsed.isValid ? parsed.setZone(timezone).toFormat('yyyy-MM-dd HH:mm') : moment;
}

// Spec 4.6 (part 2.5's record): kilometers, null where none was recorded.
export const distanceReport: DailyReport = {
	path: '/analytics/v1/equipment-distance',
	name: 'distance report',
	hasIntervals: false,
	readableColumns: (record) => ({ distanceKm: record.distance ?? null }),
};

// https://ram-api.syniotec.com/reference/equipment-usage: milliseconds per piece of equipment and
// site. The reference gives a site its ID, cost center and type (PROJECT or WAREHOUSE), no name; its
// ID is kept, as the only thing that tells two sites with the same cost center apart.
export const usageReport: DailyReport = {
	path: '/analytics/v1/equipment-usage',
	name: 'usage report',
	hasIntervals: false,
	readableColumns: (record) => {
		const site = (record.site ?? {}) as IDataObject;
		return {
			siteType: site.type ?? null,
			siteCostCenter: site.costCenter ?? null,
			usageHours: hours(record.duration),
			siteId: site.id ?? null,
		};
	},
};

// https://ram-api.syniotec.com/reference/equipment-working-hours: start and end in UTC, split at
// 00:00 UTC, the duration in milliseconds. The record's own ID is left out: the equipment and the
// start tell a record apart.
export const workingHoursReport: DailyReport = {
	path: '/analytics/v1/equipment-working-hours',
	name: 'working-hours report',
	hasIntervals: true,
	readableColumns: (record, timezone) => ({
		start: localTime(record.start, timezone),
		end: localTime(record.end, timezone),
		workingHours: hours(record.duration),
	}),
};

const RAW = 'raw';
const READABLE = 'readable';

export const outputField: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	default: RAW,
	options: [
		{
			name: 'Raw (as the API Answers)',
			value: RAW,
			description:
				'Each record as the API answers it: durations in milliseconds, times in UTC, the equipment by its ID',
		},
		{
			name: 'Readable (for Sheets)',
			value: READABLE,
			description:
				"One flat row per record for a spreadsheet: the day (working time: the workflow's day; usage and distance: the API's UTC day, dateUtc), the equipment's title and inventory number, hours, local times. Reads the whole equipment list once, for the titles.",
		},
	],
	description: 'How each record is output',
};

/** Whether the records are to be output readable (Options > Output); raw when it is not set. */
export function outputsReadable(parameters: ItemParameters, options: Field): boolean {
	return parameters.oneOf(outputField, [RAW, READABLE], options) === READABLE;
}

/** The records of a day's report, from the API's answer: an array, or a malformed answer. */
export function reportRecords(
	context: ErrorContext,
	report: DailyReport,
	body: unknown,
): IDataObject[] {
	if (!Array.isArray(body))
		throw malformedResponseError(context, `an array of ${report.name} records`);
	return body as IDataObject[];
}

/** A moment of the API (ISO 8601) in milliseconds, `undefined` for anything else. */
/** The ID of the piece of equipment a record is about. */
export function equipmentIdOf(record: IDataObject): IDataObject[string] {
	return (record.equipment as IDataObject | undefined)?.id ?? record.equipmentId ?? null;
}

/**
 * Every piece of equipment by its ID, from the whole equipment list: one read, page after page,
 * for all the records of a run or a poll. A list that cannot be read whole fails, saying why it was
 * read and how to do without it.
 */
async function equipmentById(
	context: ErrorContext,
	fetchPage: FetchPage,
): Promise<Map<string, IDataObject>> {
	try {
		const equipment = await readList(
			context,
			fetchPage,
			Infinity,
			pageSizeField.default as number,
			parallelRequestsField.default as number,
		);
		return new Map(equipment.map((unit) => [String(unit.id), unit]));
	} catch (error) {
		const failure = toItemError(context, error);
		failure.message = `Could not read the equipment list for the readable output: ${failure.message}`;
		failure.description = [
			failure.description,
			"The readable output names each piece of equipment by its title from the equipment list, read whole. Set Options > Output to 'Raw (as the API Answers)' to get the report without it.",
		]
			.filter(Boolean)
			.join(' ');
		throw failure;
	}
}

/**
 * The readable rows of the records of one or more days (each day YYYY-MM-DD with its records, see
 * recordsOfReadableDay): one flat row per record, with the day (`date`, the workflow's, or
 * `dateUtc`, see DailyReport), the equipment's title (from the equipment list, read only when there
 * are records) and inventory number, the report's own columns, and the equipment's ID once, to join
 * other data on.
 */
export async function readableRows(
	context: ErrorContext & { getTimezone(): string },
	report: DailyReport,
	days: Array<[day: string, records: IDataObject[]]>,
	fetchEquipmentPage: FetchPage,
): Promise<IDataObject[]> {
	if (days.every(([, records]) => records.length === 0)) return [];
	const equipment = await equipmentById(context, fetchEquipmentPage);
	const timezone = context.getTimezone();
	const dayColumn = report.hasIntervals ? 'date' : 'dateUtc';
	return days.flatMap(([day, records]) =>
		records.map((record) => {
			const reported = (record.equipment ?? {}) as IDataObject;
			const equipmentId = equipmentIdOf(record);
			// A piece no longer in the list (deleted since) keeps its row, without a title.
			const listed = equipment.get(String(equipmentId));
			return {
				[dayColumn]: day,
				equipmentTitle: listed?.title ?? null,
				inventoryNumber: reported.invNumber ?? listed?.invNumber ?? null,
				...report.readableColumns(record, timezone),
				equipmentId,
			};
		}),
	);
}
