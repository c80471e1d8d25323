import type {
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { malformedResponseError } from '../../shared/errors';
import { requestPerItem } from '../../shared/itemRequest';

const date: INodeProperties = {
	displayName: 'Date',
	name: 'date',
	type: 'dateTime',
	required: true,
	default: '',
	description:
		"Day to report (YYYY-MM-DD); a date and time counts as its day in the workflow's timezone. For yesterday use {{ $today.minus({ days: 1 }) }}.",
};

/**
 * The API answers a plain array of distance records (spec 4.6): one output item each, nulls kept.
 */
async function oneItemPerRecord(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	if (!Array.isArray(response.body))
		throw malformedResponseError(this, 'an array of distance records');
	return response.body.map((record) => ({ json: record }));
}

export const option: INodePropertyOptions = {
	name: 'Get',
	value: 'get',
	action: 'Get equipment distance for a day',
	description:
		'Get the kilometers each piece of equipment travelled on one day: one item per equipment, with distance null when none was recorded',
	routing: requestPerItem({
		method: 'GET',
		url: '/analytics/v1/equipment-distance/{date}',
		parts: (item) => ({ path: { date: item.calendarDate(date) as string } }),
		fieldsByApiName: { date },
		output: [oneItemPerRecord],
	}),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['equipmentDistance'], operation: ['get'] } },
	[date],
);
