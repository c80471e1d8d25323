import { DateTime } from 'luxon';
import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	IPollFunctions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { DailyReport } from '../../shared/dailyReports';
import {
	outputField,
	outputsReadable,
	readableRows,
	reportRecords,
} from '../../shared/dailyReports';
import { toItemError } from '../../shared/errors';
import { getFromApi } from '../../shared/transport';
import { asPage } from '../../shared/pagination';
import { ItemParameters } from '../../shared/parameters';
import { EQUIPMENTS_PATH } from '../../shared/paths';
import { recordsOfReadableDay } from '../../shared/workflowDays';
import { optionsCollection } from '../optionsCollection';

const hour: INodeProperties = {
	displayName: 'Hour',
	name: 'hour',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 23, numberPrecision: 0 },
	default: 6,
	description:
		"Hour of the day (0-23, in the workflow's timezone) from which the previous day's report is emitted. Set it to when the API has completed the day's figures.",
};

const catchUpDays: INodeProperties = {
	displayName: 'Catch Up Days',
	name: 'catchUpDays',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 90, numberPrecision: 0 },
	default: 7,
	description:
		'How many days before yesterday a poll still emits when they were missed (n8n stopped, or the API failing), oldest first. 0 emits only yesterday.',
};

const options = optionsCollection([catchUpDays, outputField]);

/** What a poll leaves for the next one, in the workflow's static data. */
type DailyReportState = {
	/** The last day (YYYY-MM-DD) whose report was emitted; no day is emitted twice. */
	lastReportedDate: string;
};

/** A daily analytics report of the API as a trigger event. */
export interface DailyReportEvent {
	event: string;
	name: string;
	description: string;
	report: DailyReport;
}

/** Days (YYYY-MM-DD), oldest first, each with its records. */
type DaysRecords = Array<[day: string, records: IDataObject[]]>;

/**
 * The days' records as the API answers them, each telling its day: the API's `date`, or where a
 * record has none, `reportDate`, so that the days of a catch-up can be told apart.
 */
function asRawItems(days: DaysRecords): INodeExecutionData[] {
	return days.flatMap(([day, records]) =>
		records.map((json) => ({
			json: typeof json.date === 'string' ? json : { ...json, reportDate: day },
		})),
	);
}

/** The calendar days after `after` up to `until` (YYYY-MM-DD both), oldest first. */
function daysBetween(after: string, until: string): string[] {
	const days: string[] = [];
	// Calendar days counted in UTC, where every day has 24 hours.
	for (
		let day = DateTime.fromISO(after, { zone: 'UTC' }).plus({ days: 1 });
		(day.toISODate() as string) <= until;
		day = day.plus({ days: 1 })
	)
		days.push(day.toISODate() as string);
	return days;
}

/**
 * From the set hour on, emits every day's records after the last day emitted up to yesterday
 * (yesterday in the workflow's timezone), oldest first, going back at most Catch Up Days before
 * yesterday. Activation starts from yesterday. A day is done once emitted:
 * - a day that fails is asked again at the next poll, and the days after it wait for it (the days
 *   before it are emitted); when it is the first day to ask, the poll fails;
 * - a day that is still empty is asked again at the next poll, until a later day has records: then
 *   the API has moved on and the empty day is passed over.
 */
async function poll(
	context: IPollFunctions,
	{ event, report }: DailyReportEvent,
): Promise<INodeExecutionData[]> {
	const parameters = new ItemParameters(context);
	const fromHour = Math.floor(
		parameters.number(hour, { min: 0, max: 23 }) ?? (hour.default as number),
	);
	const maxCatchUpDays = Math.floor(
		parameters.number(catchUpDays, { min: 0, max: 90 }, options) ?? (catchUpDays.default as number),
	);
	const readable = outputsReadable(parameters, options);
	const readApiDay = async (apiDay: string): Promise<IDataObject[]> =>
		reportRecords(context, report, await getFromApi(context, `${report.path}/${apiDay}`));
	/** A day's records: the API's day as it is, or what the readable rows of the day are made of. */
	const dayRecords = async (day: string): Promise<IDataObject[]> =>
		readable
			? await recordsOfReadableDay(report, day, context.getTimezone(), readApiDay)
			: await readApiDay(day);
	/**
	 * The days' records as the poll's items, raw or readable (Options > Output); a readable output
	 * that cannot be made fails the poll, before anything is taken as emitted.
	 */
	const asItems = async (days: DaysRecords): Promise<INodeExecutionData[]> => {
		if (!readable) return asRawItems(days);
		const rows = await readableRows(context, report, days, async (page, limit) =>
			asPage(context, await getFromApi(context, EQUIPMENTS_PATH, { page, limit })),
		);
		return rows.map((json) => ({ json }));
	};
	const now = DateTime.now().setZone(context.getTimezone());
	const yesterday = now.minus({ days: 1 }).toISODate() as string;
	if (context.getMode() === 'manual')
		return await asItems([[yesterday, await dayRecords(yesterday)]]);

	const staticData = context.getWorkflowStaticData('node');
	const previous = staticData[event] as DailyReportState | undefined;
	const lastReported = previous?.lastReportedDate ?? (now.minus({ days: 2 }).toISODate() as string);
	// Kept from the activation on, so that the days missed after it are caught up.
	if (!previous) staticData[event] = { lastReportedDate: lastReported } satisfies DailyReportState;
	if (now.hour < fromHour) return [];

	const missed = daysBetween(lastReported, yesterday);
	const tooOld = missed.slice(0, Math.max(0, missed.length - maxCatchUpDays - 1));
	const emitted: DaysRecords = [];
	const passedOver: string[] = [];
	let stillEmpty: string[] = [];
	let reported = lastReported;
	for (const day of missed.slice(tooOld.length)) {
		const records = await dayRecords(day).catch((error: unknown) => toItemError(context, error));
		if (!Array.isArray(records)) {
			// Nothing to emit: the poll fails, loudly. Otherwise the days so far are emitted, and the
			// next poll starts with this day.
			if (emitted.length === 0) throw records;
			context.logger.warn(
				`Equipment Rental Trigger: the ${report.name} of ${day} could not be read (${records.message}); it is asked for again at the next poll, before the days after it`,
			);
			break;
		}
		if (records.length === 0) {
			stillEmpty.push(day);
			continue;
		}
		passedOver.push(...stillEmpty);
		stillEmpty = [];
		emitted.push([day, records]);
		reported = day;
	}
	if (reported === lastReported) return [];

	const items = await asItems(emitted);
	staticData[event] = { lastReportedDate: reported } satisfies DailyReportState;
	if (tooOld.length > 0) {
		context.logger.warn(
			`Equipment Rental Trigger: the ${report.name}s of ${tooOld[0]} to ${tooOld.at(-1)} were not emitted: they are more than Catch Up Days (${maxCatchUpDays}) before yesterday`,
		);
	}
	if (passedOver.length > 0) {
		context.logger.warn(
			`Equipment Rental Trigger: the ${report.name}s of ${passedOver.join(', ')} were empty while a later day's had records; they were passed over`,
		);
	}
	return items;
}

/** The trigger's event that emits a report each day: its option, fields and poll. */
export function dailyReportEvent(event: DailyReportEvent) {
	return {
		option: {
			name: event.name,
			value: event.event,
			description: event.description,
		} satisfies INodePropertyOptions,
		fields: updateDisplayOptions({ show: { event: [event.event] } }, [hour, options]),
		poll: async (context: IPollFunctions) => await poll(context, event),
	};
}
