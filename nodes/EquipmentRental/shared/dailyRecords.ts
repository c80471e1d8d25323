import type {
	IExecuteSingleFunctions,
	IN8nHttpFullResponse,
	INodeExecutionData,
	INodeProperties,
	PostReceiveAction,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { malformedResponseError } from './errors';
import { requestPerItem } from './itemRequest';
import type { Operation } from './recordOperations';

const date: INodeProperties = {
	displayName: 'Date',
	name: 'date',
	type: 'dateTime',
	required: true,
	default: '',
	description:
		"Day to report (YYYY-MM-DD); a date and time counts as its day in the workflow's timezone. For yesterday use {{ $today.minus({ days: 1 }) }}.",
};

/** The API answers a plain array of records for the day: one output item each, nulls kept. */
function oneItemPerRecord(records: string): PostReceiveAction {
	return async function (
		this: IExecuteSingleFunctions,
		_items: INodeExecutionData[],
		response: IN8nHttpFullResponse,
	): Promise<INodeExecutionData[]> {
		if (!Array.isArray(response.body)) throw malformedResponseError(this, `an array of ${records}`);
		return response.body.map((record) => ({ json: record }));
	};
}

/**
 * An analytics operation that reads one day, `/analytics/v1/<name>/{date}`: equipment distance
 * (spec 4.6), and equipment usage and working hours, which the vendor's reference documents with the
 * same path and answer (https://ram-api.syniotec.com/reference/equipment-usage).
 */
export function dailyRecordsOperation({
	resource,
	url,
	action,
	description,
	records,
}: {
	resource: string;
	url: `/analytics/v1/${string}/{date}`;
	action: string;
	description: string;
	/** What the answer lists, for an unreadable answer's error, e.g. "distance records". */
	records: string;
}): Operation {
	return {
		option: {
			name: 'Get',
			value: 'get',
			action,
			description,
			routing: requestPerItem({
				method: 'GET',
				url,
				parts: (item) => ({ path: { date: item.calendarDate(date) as string } }),
				fieldsByApiName: { date },
				output: [oneItemPerRecord(records)],
			}),
		},
		fields: updateDisplayOptions({ show: { resource: [resource], operation: ['get'] } }, [date]),
	};
}
