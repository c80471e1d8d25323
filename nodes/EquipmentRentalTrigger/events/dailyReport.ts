import { DateTime } from 'luxon';
import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	IPollFunctions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { malformedResponseError, toItemError } from '../../EquipmentRental/shared/errors';
import { ItemParameters } from '../../EquipmentRental/shared/parameters';
import { getFromApi } from '../../EquipmentRental/shared/getFromApi';
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

const options = optionsCollection([catchUpDays]);

/** What a poll leaves for the next one, in the workflow's static data. */
type DailyReportState = {
	/** The last day (YYYY-MM-DD) whose report was emitted; no day is emitted twice. */
	lastReportedDate: string;
};

/** A daily analytics report of the API, `/analytics/v1/<name>/{date}`, as a trigger event. */
export interface DailyReport {
	event: string;
	name: string;
	description: string;
	path: `/analytics/v1/${string}`;
	/** The report's name in messages, e.g. "distance report". */
	report: string;
}

/**
 * The day's records, each telling its day: the API's `date`, or where a record has none,
 * `reportDate`, so that the days of a catch-up can be told apart.
 */
function asItems(records: IDataObject[], date: string): INodeExecutionData[] {
	return records.map((json) => ({
		json: typeof json.date === 'string' ? json : { ...json, reportDate: date },
	}));
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
	{ event, path, report }: DailyReport,
): Promise<INodeExecutionData[]> {
	const dayRecords = async (date: string): Promise<IDataObject[]> => {
		const body = await getFromApi(context, `${path}/${date}`);
		if (!Array.isArray(body))
			throw malformedResponseError(context, `an array of ${report} records`);
		return body as IDataObject[];
	};
	const parameters = new ItemParameters(context);
	const fromHour = Math.floor(
		parameters.number(hour, { min: 0, max: 23 }) ?? (hour.default as number),
	);
	const maxCatchUpDays = Math.floor(
		parameters.number(catchUpDays, { min: 0, max: 90 }, options) ?? (catchUpDays.default as number),
	);
	const now = DateTime.now().setZone(context.getTimezone());
	const yesterday = now.minus({ days: 1 }).toISODate() as string;
	if (context.getMode() === 'manual') return asItems(await dayRecords(yesterday), yesterday);

	const staticData = context.getWorkflowStaticData('node');
	const previous = staticData[event] as DailyReportState | undefined;
	const lastReported = previous?.lastReportedDate ?? (now.minus({ days: 2 }).toISODate() as string);
	// Kept from the activation on, so that the days missed after it are caught up.
	if (!previous) staticData[event] = { lastReportedDate: lastReported } satisfies DailyReportState;
	if (now.hour < fromHour) return [];

	const missed = daysBetween(lastReported, yesterday);
	const tooOld = missed.slice(0, Math.max(0, missed.length - maxCatchUpDays - 1));
	const items: INodeExecutionData[] = [];
	const passedOver: string[] = [];
	let stillEmpty: string[] = [];
	let reported = lastReported;
	for (const day of missed.slice(tooOld.length)) {
		const records = await dayRecords(day).catch((error: unknown) => toItemError(context, error));
		if (!Array.isArray(records)) {
			// Nothing to emit: the poll fails, loudly. Otherwise the days so far are emitted, and the
			// next poll starts with this day.
			if (items.length === 0) throw records;
			context.logger.warn(
				`Equipment Rental Trigger: the ${report} of ${day} could not be read (${records.message}); it is asked for again at the next poll, before the days after it`,
			);
			break;
		}
		if (records.length === 0) {
			stillEmpty.push(day);
			continue;
		}
		passedOver.push(...stillEmpty);
		stillEmpty = [];
		items.push(...asItems(records, day));
		reported = day;
	}
	if (reported === lastReported) return [];

	staticData[event] = { lastReportedDate: reported } satisfies DailyReportState;
	if (tooOld.length > 0) {
		context.logger.warn(
			`Equipment Rental Trigger: the ${report}s of ${tooOld[0]} to ${tooOld.at(-1)} were not emitted: they are more than Catch Up Days (${maxCatchUpDays}) before yesterday`,
		);
	}
	if (passedOver.length > 0) {
		context.logger.warn(
			`Equipment Rental Trigger: the ${report}s of ${passedOver.join(', ')} were empty while a later day's had records; they were passed over`,
		);
	}
	return items;
}

/** The event of the trigger that emits `report` each day: its option, fields and poll. */
export function dailyReportEvent(report: DailyReport) {
	return {
		option: {
			name: report.name,
			value: report.event,
			description: report.description,
		} satisfies INodePropertyOptions,
		fields: updateDisplayOptions({ show: { event: [report.event] } }, [hour, options]),
		poll: async (context: IPollFunctions) => await poll(context, report),
	};
}
