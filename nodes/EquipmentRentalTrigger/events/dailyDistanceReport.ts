import { distanceReport } from '../../shared/dailyReports';
import { dailyReportEvent } from './dailyReport';

export const { option, fields, poll } = dailyReportEvent({
	event: 'dailyDistanceReport',
	name: 'Daily Distance Report',
	description:
		"Triggers once a day, once the set hour has passed, with the previous day's distance per piece of equipment, one item each, and any days missed before it",
	report: distanceReport,
});
