import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { DailyReport } from '../../shared/dailyReports';
import {
	outputField,
	outputsReadable,
	readableRows,
	reportRecords,
} from '../../shared/dailyReports';
import { CALENDAR_DATE_FORMS } from '../../shared/descriptions';
import { runPerItem } from '../engine/itemRouting';
import { listOptionsField } from '../../shared/listFields';
import { asPage } from '../../shared/pagination';
import { EQUIPMENTS_PATH } from '../../shared/paths';
import type { Operation } from './recordOperations';
import { recordsOfReadableDay } from '../../shared/workflowDays';

const date: INodeProperties = {
	displayName: 'Date',
	name: 'date',
	type: 'dateTime',
	required: true,
	default: '',
	description: `Day to report; for yesterday use {{ $today.minus({ days: 1 }) }}. ${CALENDAR_DATE_FORMS}.`,
};

const options: INodeProperties = { ...listOptionsField, options: [outputField] };

/**
 * An analytics operation that reads one day, `/analytics/v1/<name>/{date}`: equipment distance
 * (spec 4.6), and equipment usage and working hours, which the vendor's reference documents with the
 * same path and answer (https://ram-api.syniotec.com/reference/equipment-usage). One output item per
 * record, as the API answers it or readable (Options > Output, see dailyReports.ts).
 */
export function dailyRecordsOperation({
	resource,
	report,
	action,
	description,
}: {
	resource: string;
	report: DailyReport;
	action: string;
	description: string;
}): Operation {
	return {
		option: {
			name: 'Get',
			value: 'get',
			action,
			description,
			routing: runPerItem(
				{
					method: 'GET',
					url: `${report.path}/{date}`,
					parts: (item) => ({
						path: { date: item.calendarDate(date) as string },
						readable: outputsReadable(item, options),
					}),
					fieldsByApiName: { date },
				},
				async function ({ path, readable }, _item, send) {
					const readApiDay = async (apiDay: string) =>
						reportRecords(this, report, (await send({ path: { date: apiDay } }))[0]?.json);
					if (!readable) return (await readApiDay(path.date)).map((json) => ({ json }));
					const records = await recordsOfReadableDay(
						report,
						path.date,
						this.getTimezone(),
						readApiDay,
					);
					const rows = await readableRows(
						this,
						report,
						[[path.date, records]],
						async (page, limit) =>
							asPage(this, (await send({ url: EQUIPMENTS_PATH, qs: { page, limit } }))[0]?.json),
					);
					return rows.map((json) => ({ json }));
				},
			),
		},
		fields: updateDisplayOptions({ show: { resource: [resource], operation: ['get'] } }, [
			date,
			options,
		]),
	};
}
