import { dailyRecordsOperation } from '../../operations/dailyRecords';
import { workingHoursReport } from '../../../shared/dailyReports';

// https://ram-api.syniotec.com/reference/equipment-working-hours
export const { option, fields } = dailyRecordsOperation({
	resource: 'equipmentWorkingHours',
	report: workingHoursReport,
	action: 'Get equipment working hours for a day',
	description:
		"Get the working hours of each piece of equipment on one day: one item per record, split at 00:00 UTC, in UTC and milliseconds, or for a sheet the workflow's day in local times and hours",
});
