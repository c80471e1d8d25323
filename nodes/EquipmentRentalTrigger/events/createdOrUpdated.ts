import { DateTime } from 'luxon';
import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	IPollFunctions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { filtersCollection } from '../../shared/descriptions';
import { getFromApi } from '../../shared/transport';
import { pageSizeField } from '../../shared/listFields';
import { parallelRequestsField } from '../../shared/requestOptionFields';
import type { FetchPage } from '../../shared/pagination';
import { asPage, readList } from '../../shared/pagination';
import { ItemParameters, withoutUnset } from '../../shared/parameters';
import { optionsCollection } from '../optionsCollection';
import type { RecordPollState, RememberedRecord } from './pollState';
import {
	CHANGE_TYPE_FIELD,
	MAX_REMEMBERED_RECORDS,
	boundByN8nClock,
	changeTypeOf,
	momentOf,
	newestFirst,
	nextBound,
	savedState,
	versionOf,
} from './pollState';

const SAMPLE_SIZE = 5;
// The API cannot be relied on to sort by last change: a manual run looks for changes over growing
// windows, a page each, then any.
const SAMPLE_LOOKBACK_DAYS = [1, 30, 365];
const SAMPLE_PAGE_SIZE = 100;
const MINUTE_MS = 60_000;
/** A list of the API as a trigger event on its records' changes. */
export interface CreatedOrUpdatedEvent {
	/** The event's value, also the key of its state in the workflow's static data. */
	event: string;
	name: string;
	description: string;
	/** The list's path: it pages, and takes updatedAfter, compared with each record's updatedAt. */
	path: string;
	/** What the list holds, in the plural, for descriptions and log lines, e.g. "clients". */
	records: string;
	/** The list's filters that make sense for changes (the change window is the trigger's). */
	filters: INodeProperties[];
	/** The filters' query parameters, each read and checked from `collection`. */
	filterQuery: (parameters: ItemParameters, collection: INodeProperties) => IDataObject;
	/** Whether each item carries CHANGE_TYPE_FIELD (where the record shows createdAt and updatedAt). */
	tellsCreatedFromUpdated: boolean;
}

/**
 * Emits each record created or updated since the previous poll, once per version, for one list of
 * the API. Each poll asks from before the last change seen (see nextBound) and drops the records it
 * already emitted, so that neither the API's clock (up to the overlap off n8n's) nor equal
 * timestamps lose or repeat a change. The first poll (activation) only takes note of the records
 * changed within the overlap, so that activating the workflow emits nothing, and checks the
 * credential and the filters on the way.
 */
export function createdOrUpdatedEvent(spec: CreatedOrUpdatedEvent) {
	const { event, path, records } = spec;
	const filters: INodeProperties = { ...filtersCollection, options: spec.filters };
	const overlapMinutes: INodeProperties = {
		displayName: 'Overlap (Minutes)',
		name: 'overlapMinutes',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 1440, numberPrecision: 0 },
		default: 10,
		description: `How far back the first poll, and polls of ${records} without updatedAt, ask for changes by n8n's clock, so that no change is missed when the API's clock runs up to this far behind or ahead of n8n's. ${records[0].toUpperCase()}${records.slice(1)} already emitted are not emitted again.`,
	};
	const options = optionsCollection([overlapMinutes]);

	const pages =
		(context: IPollFunctions, query: IDataObject): FetchPage =>
		async (page, limit) =>
			asPage(context, await getFromApi(context, path, { ...query, page, limit }));

	/** The records as the list answers them, each with its change type where the event tells it. */
	const asItems = (
		context: IPollFunctions,
		answered: IDataObject[],
		askedAfter: number,
		known: Record<string, RememberedRecord> = {},
	): INodeExecutionData[] => {
		if (!spec.tellsCreatedFromUpdated) return answered.map((json) => ({ json }));
		let ownField = 0;
		const items = answered.map((record) => {
			// The record's own field of that name is the API's: it stays as sent.
			if (Object.hasOwn(record, CHANGE_TYPE_FIELD)) {
				ownField++;
				return { json: record };
			}
			const changeType = changeTypeOf(record, askedAfter, Object.hasOwn(known, String(record.id)));
			return { json: changeType ? { ...record, [CHANGE_TYPE_FIELD]: changeType } : record };
		});
		if (ownField > 0) {
			context.logger.warn(
				`Equipment Rental Trigger: ${ownField} ${records} have a field ${CHANGE_TYPE_FIELD} of their own; it is left as the API sent it, so that those items do not tell created from updated (compare createdAt with updatedAt instead)`,
			);
		}
		return items;
	};

	/**
	 * A few recently changed records, so that a manual run has fields to map; the static data is left
	 * alone. Their change type is told as by a poll a day after the previous one.
	 */
	async function recentRecords(
		context: IPollFunctions,
		filterQuery: IDataObject,
	): Promise<INodeExecutionData[]> {
		const lookbacks = SAMPLE_LOOKBACK_DAYS.map((days) => DateTime.now().minus({ days }).toUTC());
		let found: IDataObject[] = [];
		for (const updatedAfter of [...lookbacks, undefined]) {
			const fetchPage = pages(
				context,
				withoutUnset({ ...filterQuery, updatedAfter: updatedAfter?.toISO() ?? undefined }),
			);
			found = (await fetchPage(1, SAMPLE_PAGE_SIZE)).content;
			if (found.length >= SAMPLE_SIZE) break;
		}
		return asItems(context, newestFirst(found).slice(0, SAMPLE_SIZE), lookbacks[0].toMillis());
	}

	/**
	 * The state after a poll: the records the API may answer the next poll again are remembered, at
	 * most MAX_REMEMBERED_RECORDS of them, so that the static data stays small. Were more answered
	 * again, they would be emitted again at every poll: where their updatedAt tells, the next poll
	 * asks from the newest of those forgotten on instead, so that a record changed during this read,
	 * or in that very millisecond, could be missed (and is logged); otherwise they can be emitted
	 * again.
	 */
	function stateAfter(
		context: IPollFunctions,
		{ bound, byApiClock }: { bound: number; byApiClock: boolean },
		remembered: Record<string, RememberedRecord>,
	): RecordPollState {
		let kept = Object.entries(remembered).filter(([, [, until]]) => until > bound);
		if (kept.length > MAX_REMEMBERED_RECORDS) {
			kept.sort(([, [, left]], [, [, right]]) => right - left);
			const forgotten = kept.length - MAX_REMEMBERED_RECORDS;
			if (byApiClock) bound = Math.max(bound, kept[MAX_REMEMBERED_RECORDS][1][1]);
			kept = kept.slice(0, MAX_REMEMBERED_RECORDS).filter(([, [, until]]) => until > bound);
			context.logger.warn(
				`Equipment Rental Trigger: ${forgotten} ${records} beyond the ${MAX_REMEMBERED_RECORDS} it remembers changed at about the same time; ${byApiClock ? `the next poll asks for changes after ${new Date(bound).toISOString()}, so that a change made during this poll could be missed` : 'the next poll may emit them again'}`,
			);
		}
		return { updatedAfter: new Date(bound).toISOString(), remembered: Object.fromEntries(kept) };
	}

	async function poll(context: IPollFunctions): Promise<INodeExecutionData[]> {
		const parameters = new ItemParameters(context);
		const filterQuery = withoutUnset(spec.filterQuery(parameters, filters));
		const overlapMs =
			(parameters.number(overlapMinutes, { min: 1, max: 1440 }, options) ??
				(overlapMinutes.default as number)) * MINUTE_MS;
		if (context.getMode() === 'manual') return await recentRecords(context, filterQuery);

		const startedAt = Date.now();
		const staticData = context.getWorkflowStaticData('node');
		const previous = savedState(staticData[event]);
		const previousBound = previous
			? Date.parse(previous.updatedAfter)
			: boundByN8nClock(startedAt, overlapMs);
		const answered = await readList(
			context,
			pages(context, { ...filterQuery, updatedAfter: new Date(previousBound).toISOString() }),
			Infinity,
			pageSizeField.default as number,
			parallelRequestsField.default as number,
		);
		const readAt = Date.now();

		const known = { ...previous?.remembered };
		const remembered = { ...known };
		const emitted: IDataObject[] = [];
		for (const record of answered) {
			const id = String(record.id);
			const version = versionOf(record);
			const updatedAt = momentOf(record, 'updatedAt');
			// A record is answered while the poll asks from before its updatedAt. Without one, it is
			// kept past the next poll's bound (which is before this poll), and each poll that answers it
			// again keeps it on; once a poll no longer answers it, no later poll will.
			const until = Number.isNaN(updatedAt) ? readAt : updatedAt;
			if (remembered[id]?.[0] !== version) emitted.push(record);
			remembered[id] = [version, until];
		}
		const next = nextBound(previousBound, { startedAt, readAt, records: answered }, overlapMs);
		staticData[event] = stateAfter(context, next, remembered) satisfies RecordPollState;
		return previous ? asItems(context, emitted, previousBound, known) : [];
	}

	return {
		option: {
			name: spec.name,
			value: event,
			description: spec.description,
		} satisfies INodePropertyOptions,
		fields: updateDisplayOptions({ show: { event: [event] } }, [filters, options]),
		poll,
	};
}
