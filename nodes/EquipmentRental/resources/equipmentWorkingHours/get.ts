import { dailyRecordsOperation } from '../../shared/dailyRecords';

// https://ram-api.syniotec.com/reference/equipment-working-hours
export const { option, fields } = dailyRecordsOperation({
	resource: 'equipmentWorkingHours',
	url: '/analytics/v1/equipment-working-hours/{date}',
	action: 'Get equipment working hours for a day',
	description:
		'Get the working hours of each piece of equipment on one day (split at 00:00 UTC): one item per equipment',
	records: 'working-hours records',
});
