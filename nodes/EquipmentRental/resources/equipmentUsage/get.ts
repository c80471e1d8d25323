import { dailyRecordsOperation } from '../../operations/dailyRecords';
import { usageReport } from '../../../shared/dailyReports';

// https://ram-api.syniotec.com/reference/equipment-usage
export const { option, fields } = dailyRecordsOperation({
	resource: 'equipmentUsage',
	report: usageReport,
	action: 'Get equipment usage for a day',
	description:
		'Get how long each piece of equipment was used on one day per site (project or warehouse): one item per equipment and site, in milliseconds, or in hours with its title for a sheet',
});
