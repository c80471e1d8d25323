import { dailyRecordsOperation } from '../../operations/dailyRecords';
import { distanceReport } from '../../../shared/dailyReports';

export const { option, fields } = dailyRecordsOperation({
	resource: 'equipmentDistance',
	report: distanceReport,
	action: 'Get equipment distance for a day',
	description:
		'Get the kilometers each piece of equipment travelled on one day: one item per equipment, with distance null when none was recorded',
});
