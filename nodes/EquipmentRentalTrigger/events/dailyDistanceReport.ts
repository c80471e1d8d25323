import { DateTime } from 'luxon';
import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	IPollFunctions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { malformedResponseError } from '../../EquipmentRental/shared/errors';
import { ItemParameters } from '../../EquipmentRental/shared/parameters';
import { getFromApi } from '../apiRequest';

const EVENT = 'dailyDistanceReport';

const hour: INodeProperties = {
	displayName: 'Hour',
	name: 'hour',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 23, numberPrecision: 0 },
	default: 6,
	description:
		"Hour of the day (0-23, in the workflow's timezone) from which the previous day's report is emitted. Set it to when the day's distances are complete.",
};

export const option: INodePropertyOptions = {
	name: 'Daily Distance Report',
	value: EVENT,
	description:
		"Triggers once a day with the previous day's distance per piece of equipment, one item each, once the set hour has passed",
};

export const fields = updateDisplayOptions({ show: { event: [EVENT] } }, [hour]);

/** What a poll leaves for the next one, in the workflow's static data. */
type DistanceReportState = {
	/** The last day (YYYY-MM-DD) whose report was emitted; no day is emitted twice. */
	lastReportedDate: string;
};

async function distanceRecords(context: IPollFunctions, date: string): Promise<IDataObject[]> {
	const body = await getFromApi(context, `/analytics/v1/equipment-distance/${date}`);
	if (!Array.isArray(body)) throw malformedResponseError(context, 'an array of distance records');
	return body as IDataObject[];
}

/**
 * Emits yesterday's distance records (yesterday in the workflow's timezone) at the first poll from
 * the set hour on, also on the day the workflow is activated. A report that is still empty is asked
 * for again at the next poll of the same day, in case the API has not finished it yet.
 */
export async function poll(context: IPollFunctions): Promise<INodeExecutionData[]> {
	const fromHour = Math.floor(
		new ItemParameters(context).number(hour, { min: 0, max: 23 }) ?? (hour.default as number),
	);
	const now = DateTime.now().setZone(context.getTimezone());
	const yesterday = now.minus({ days: 1 }).toISODate() as string;
	if (context.getMode() === 'manual')
		return (await distanceRecords(context, yesterday)).map((json) => ({ json }));

	const staticData = context.getWorkflowStaticData('node');
	const previous = staticData[EVENT] as DistanceReportState | undefined;
	// Dates compare as text; a later date already emitted (the timezone was changed) also counts as
	// done.
	if (now.hour < fromHour || (previous && previous.lastReportedDate >= yesterday)) return [];

	const records = await distanceRecords(context, yesterday);
	if (records.length > 0)
		staticData[EVENT] = { lastReportedDate: yesterday } satisfies DistanceReportState;
	return records.map((json) => ({ json }));
}
