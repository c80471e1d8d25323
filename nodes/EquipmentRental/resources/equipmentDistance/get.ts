import { dailyRecordsOperation } from '../../shared/dailyRecords';

export const { option, fields } = dailyRecordsOperation({
	resource: 'equipmentDistance',
	url: '/analytics/v1/equipment-distance/{date}',
	action: 'Get equipment distance for a day',
	description:
		'Get the kilometers each piece of equipment travelled on one day: one item per equipment, with distance null when none was recorded',
	records: 'distance records',
});
