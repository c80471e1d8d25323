import { usageReport } from '../../shared/dailyReports';
import { dailyReportEvent } from './dailyReport';

// https://ram-api.syniotec.com/reference/equipment-usage
export const { option, fields, poll } = dailyReportEvent({
	event: 'dailyUsageReport',
	name: 'Daily Usage Report',
	description:
		"Triggers once a day, once the set hour has passed, with the previous day's usage per piece of equipment and site (milliseconds, or hours for a sheet), one item each, and any days missed before it",
	report: usageReport,
});
