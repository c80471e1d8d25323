import { workingHoursReport } from '../../shared/dailyReports';
import { dailyReportEvent } from './dailyReport';

// https://ram-api.syniotec.com/reference/equipment-working-hours
export const { option, fields, poll } = dailyReportEvent({
	event: 'dailyWorkingHoursReport',
	name: 'Daily Working Hours Report',
	description:
		"Triggers once a day, once the set hour has passed, with the previous day's working hours per piece of equipment, one item each, and any days missed before it",
	report: workingHoursReport,
});
