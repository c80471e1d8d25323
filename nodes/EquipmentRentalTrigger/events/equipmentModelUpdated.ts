import { DateTime } from 'luxon';
import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
	IPollFunctions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	brandId,
	filtersCollection as modelListFilters,
	search,
} from '../../EquipmentRental/shared/descriptions';
import { pageSizeField, parallelRequestsField } from '../../EquipmentRental/shared/listFields';
import type { FetchPage } from '../../EquipmentRental/shared/pagination';
import { asPage, readList } from '../../EquipmentRental/shared/pagination';
import { ItemParameters, withoutUnset } from '../../EquipmentRental/shared/parameters';
import { getFromApi } from '../apiRequest';

const EVENT = 'equipmentModelUpdated';
const MODELS_PATH = '/master-data/v1/equipment-management/models';
const SAMPLE_SIZE = 5;
// The API cannot sort by last change: a manual run looks for changes over growing windows, a page
// each, then any.
const SAMPLE_LOOKBACK_DAYS = [1, 30, 365];
const SAMPLE_PAGE_SIZE = 100;

// The filters of Get Many equipment models that make sense for changes: the change window is the
// trigger's.
const filters: INodeProperties = { ...modelListFilters, options: [brandId, search] };

export const option: INodePropertyOptions = {
	name: 'Equipment Model Created or Updated',
	value: EVENT,
	description: 'Triggers once for each equipment model created or changed since the previous poll',
};

export const fields = updateDisplayOptions({ show: { event: [EVENT] } }, [filters]);

/** What a poll leaves for the next one, in the workflow's static data. */
type ModelPollState = {
	/** Start of the previous poll (ISO 8601, UTC): the next poll asks for models updated after it. */
	previousPollStartedAt: string;
	/**
	 * updatedAt by ID of the models the previous poll saw that changed after it started: they match
	 * the next poll's window again, and are emitted again only if their updatedAt moved on. Only
	 * these are kept, so that the static data stays small however many models change.
	 */
	seenSinceStart: Record<string, string>;
};

function modelPages(context: IPollFunctions, query: IDataObject): FetchPage {
	return async (page, limit) =>
		asPage(context, await getFromApi(context, MODELS_PATH, { ...query, page, limit }));
}

/**
 * The model's updatedAt in milliseconds, NaN where it has none (the spec does not show the model's
 * fields).
 */
function updatedAtOf(model: IDataObject): number {
	return typeof model.updatedAt === 'string' ? Date.parse(model.updatedAt) : Number.NaN;
}

/** Models that carry updatedAt first, newest first; the others keep their order after them. */
function newestFirst(models: IDataObject[]): IDataObject[] {
	const rank = (model: IDataObject) => {
		const updatedAt = updatedAtOf(model);
		return Number.isNaN(updatedAt) ? -Infinity : updatedAt;
	};
	return [...models].sort((left, right) => Math.sign(rank(right) - rank(left)) || 0);
}

/**
 * A few recently changed models, so that a manual run has fields to map; the static data is left
 * alone.
 */
async function recentModels(
	context: IPollFunctions,
	filterQuery: IDataObject,
): Promise<IDataObject[]> {
	const lookbacks = SAMPLE_LOOKBACK_DAYS.map(
		(days) => DateTime.now().minus({ days }).toUTC().toISO() ?? undefined,
	);
	let models: IDataObject[] = [];
	for (const updatedAfter of [...lookbacks, undefined]) {
		const fetchPage = modelPages(context, withoutUnset({ ...filterQuery, updatedAfter }));
		models = (await fetchPage(1, SAMPLE_PAGE_SIZE)).content;
		if (models.length >= SAMPLE_SIZE) break;
	}
	return newestFirst(models).slice(0, SAMPLE_SIZE);
}

function stateAfter(startedAt: DateTime, seen: IDataObject[]): ModelPollState {
	const changedSinceStart = seen.filter((model) => updatedAtOf(model) > startedAt.toMillis());
	return {
		previousPollStartedAt: startedAt.toISO() as string,
		seenSinceStart: Object.fromEntries(
			changedSinceStart.map((model) => [String(model.id), String(model.updatedAt)]),
		),
	};
}

/**
 * Emits each model created or updated since the previous poll started. The first poll only records
 * its start, so that activating the workflow does not emit the whole catalogue.
 */
export async function poll(context: IPollFunctions): Promise<INodeExecutionData[]> {
	const parameters = new ItemParameters(context);
	const filterQuery = withoutUnset({
		brandId: parameters.uuid(brandId, filters),
		search: parameters.text(search, filters),
	});
	if (context.getMode() === 'manual')
		return (await recentModels(context, filterQuery)).map((json) => ({ json }));

	const startedAt = DateTime.now().toUTC();
	const staticData = context.getWorkflowStaticData('node');
	const previous = staticData[EVENT] as ModelPollState | undefined;
	if (!previous) {
		// One model is asked for, so that a wrong credential or a refused filter fails the activation,
		// not later polls.
		await modelPages(context, filterQuery)(1, 1);
		staticData[EVENT] = stateAfter(startedAt, []);
		return [];
	}
	const changed = await readList(
		context,
		modelPages(context, { ...filterQuery, updatedAfter: previous.previousPollStartedAt }),
		Infinity,
		pageSizeField.default as number,
		parallelRequestsField.default as number,
	);
	const emitted = changed.filter(
		(model) =>
			typeof model.updatedAt !== 'string' ||
			previous.seenSinceStart[String(model.id)] !== model.updatedAt,
	);
	staticData[EVENT] = stateAfter(startedAt, changed);
	return emitted.map((json) => ({ json }));
}
