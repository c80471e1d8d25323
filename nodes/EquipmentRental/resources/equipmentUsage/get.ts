import { dailyRecordsOperation } from '../../shared/dailyRecords';

// https://ram-api.syniotec.com/reference/equipment-usage
export const { option, fields } = dailyRecordsOperation({
	resource: 'equipmentUsage',
	url: '/analytics/v1/equipment-usage/{date}',
	action: 'Get equipment usage for a day',
	description:
		'Get how long each piece of equipment was used on one day, in milliseconds per site (project or warehouse): one item per equipment',
	records: 'usage records',
});
