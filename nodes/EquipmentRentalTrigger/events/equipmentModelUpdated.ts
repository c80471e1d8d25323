import { createHash } from 'crypto';
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
import { getFromApi } from '../../EquipmentRental/shared/getFromApi';
import { optionsCollection } from '../optionsCollection';

const EVENT = 'equipmentModelUpdated';
const MODELS_PATH = '/master-data/v1/equipment-management/models';
const SAMPLE_SIZE = 5;
// The API cannot sort by last change: a manual run looks for changes over growing windows, a page
// each, then any.
const SAMPLE_LOOKBACK_DAYS = [1, 30, 365];
const SAMPLE_PAGE_SIZE = 100;
const MINUTE_MS = 60_000;
/** Most models the static data remembers as emitted, so that it stays small (see stateAfter). */
export const MAX_REMEMBERED_MODELS = 1000;

// The filters of Get Many equipment models that make sense for changes: the change window is the
// trigger's.
const filters: INodeProperties = { ...modelListFilters, options: [brandId, search] };

const overlapMinutes: INodeProperties = {
	displayName: 'Overlap (Minutes)',
	name: 'overlapMinutes',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 1440, numberPrecision: 0 },
	default: 10,
	description:
		"How far back the first poll, and polls of models without updatedAt, ask for changes by n8n's clock, so that no change is missed when the API's clock runs up to this far behind or ahead of n8n's. Models already emitted are not emitted again.",
};

const options = optionsCollection([overlapMinutes]);

export const option: INodePropertyOptions = {
	name: 'Equipment Model Created or Updated',
	value: EVENT,
	description: 'Triggers once for each equipment model created or changed since the previous poll',
};

export const fields = updateDisplayOptions({ show: { event: [EVENT] } }, [filters, options]);

/**
 * A model emitted (or found at activation) that the API may answer the next poll again: the version
 * emitted, and until when (ms): the API answers it while a poll asks for models updated after an
 * earlier moment.
 */
type RememberedModel = [version: string, until: number];

/** What a poll leaves for the next one, in the workflow's static data. */
type ModelPollState = {
	/** The next poll asks for models updated after this moment (ISO 8601, UTC). */
	updatedAfter: string;
	/** By model ID; only models the next poll may see again, at most MAX_REMEMBERED_MODELS. */
	remembered: Record<string, RememberedModel>;
};

/** The state as earlier versions of the trigger saved it: the previous poll's start, n8n's clock. */
type LegacyModelPollState = {
	previousPollStartedAt: string;
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

/** The model's version: its updatedAt, or where it has none a digest of its content. */
function versionOf(model: IDataObject): string {
	if (!Number.isNaN(updatedAtOf(model))) return model.updatedAt as string;
	return `#${createHash('sha256').update(JSON.stringify(model)).digest('base64url').slice(0, 16)}`;
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

/** The saved state, also as earlier versions saved it, so that an upgrade misses nothing. */
function savedState(saved: unknown): ModelPollState | undefined {
	const state = saved as Partial<ModelPollState & LegacyModelPollState> | undefined;
	if (typeof state?.updatedAfter === 'string' && typeof state.remembered === 'object')
		return state as ModelPollState;
	if (typeof state?.previousPollStartedAt !== 'string') return undefined;
	const remembered = Object.entries(state.seenSinceStart ?? {}).map(
		([id, updatedAt]): [string, RememberedModel] => [id, [updatedAt, Date.parse(updatedAt)]],
	);
	return { updatedAfter: state.previousPollStartedAt, remembered: Object.fromEntries(remembered) };
}

/**
 * Where to ask from when only n8n's clock is known: the poll's start less the overlap, so that a
 * change made after it is asked for while the API's clock is up to the overlap behind n8n's; 1 ms
 * more for a change in the very millisecond the poll started.
 */
function boundByN8nClock(startedAt: number, overlapMs: number): number {
	return startedAt - overlapMs - 1;
}

/** One poll's reading: when it started and ended (n8n's clock) and the models it was answered. */
type Reading = { startedAt: number; readAt: number; models: IDataObject[] };

/**
 * Where the next poll asks from so that it misses no change, and by whose clock. When every model
 * answered carries updatedAt, the API's own clock decides: a later change cannot carry an updatedAt
 * before the newest seen, less the time the poll took to read (a change during the read), less 1 ms
 * (a change in the same millisecond). Otherwise only n8n's clock is known. Nothing answered: nothing
 * learnt.
 */
function nextBound(previousBound: number, reading: Reading, overlapMs: number) {
	const { startedAt, readAt, models } = reading;
	if (models.length === 0) return { bound: previousBound, byApiClock: false };
	let newest = -Infinity;
	for (const model of models) newest = Math.max(newest, updatedAtOf(model));
	const byApiClock = !Number.isNaN(newest);
	const bound = byApiClock
		? newest - (readAt - startedAt) - 1
		: boundByN8nClock(startedAt, overlapMs);
	return { bound: Math.max(previousBound, bound), byApiClock };
}

/**
 * The state after a poll: the models the API may answer the next poll again are remembered, at most
 * MAX_REMEMBERED_MODELS of them, so that the static data stays small. Were more answered again, they
 * would be emitted again at every poll: where their updatedAt tells, the next poll asks from the
 * newest of those forgotten on instead, so that a model changed during this read, or in that very
 * millisecond, could be missed (and is logged); otherwise they can be emitted again.
 */
function stateAfter(
	context: IPollFunctions,
	{ bound, byApiClock }: { bound: number; byApiClock: boolean },
	remembered: Record<string, RememberedModel>,
): ModelPollState {
	let kept = Object.entries(remembered).filter(([, [, until]]) => until > bound);
	if (kept.length > MAX_REMEMBERED_MODELS) {
		kept.sort(([, [, left]], [, [, right]]) => right - left);
		const forgotten = kept.length - MAX_REMEMBERED_MODELS;
		if (byApiClock) bound = Math.max(bound, kept[MAX_REMEMBERED_MODELS][1][1]);
		kept = kept.slice(0, MAX_REMEMBERED_MODELS).filter(([, [, until]]) => until > bound);
		context.logger.warn(
			`Equipment Rental Trigger: ${forgotten} models beyond the ${MAX_REMEMBERED_MODELS} it remembers changed at about the same time; ${byApiClock ? `the next poll asks for changes after ${new Date(bound).toISOString()}, so that a change made during this poll could be missed` : 'the next poll may emit them again'}`,
		);
	}
	return { updatedAfter: new Date(bound).toISOString(), remembered: Object.fromEntries(kept) };
}

/**
 * Emits each model created or updated since the previous poll, once per version. Each poll asks
 * from before the last change seen (see nextBound) and drops the models it already emitted, so
 * that neither the API's clock (up to the overlap off n8n's) nor equal timestamps lose or repeat a
 * change. The first poll (activation) only takes note of the models changed within the overlap, so
 * that activating the workflow emits nothing, and checks the credential and the filters on the way.
 */
export async function poll(context: IPollFunctions): Promise<INodeExecutionData[]> {
	const parameters = new ItemParameters(context);
	const filterQuery = withoutUnset({
		brandId: parameters.uuid(brandId, filters),
		search: parameters.text(search, filters),
	});
	const overlapMs =
		(parameters.number(overlapMinutes, { min: 1, max: 1440 }, options) ??
			(overlapMinutes.default as number)) * MINUTE_MS;
	if (context.getMode() === 'manual')
		return (await recentModels(context, filterQuery)).map((json) => ({ json }));

	const startedAt = Date.now();
	const staticData = context.getWorkflowStaticData('node');
	const previous = savedState(staticData[EVENT]);
	const previousBound = previous
		? Date.parse(previous.updatedAfter)
		: boundByN8nClock(startedAt, overlapMs);
	const models = await readList(
		context,
		modelPages(context, { ...filterQuery, updatedAfter: new Date(previousBound).toISOString() }),
		Infinity,
		pageSizeField.default as number,
		parallelRequestsField.default as number,
	);
	const readAt = Date.now();

	const remembered = { ...previous?.remembered };
	const emitted: IDataObject[] = [];
	for (const model of models) {
		const id = String(model.id);
		const version = versionOf(model);
		const updatedAt = updatedAtOf(model);
		// A model is answered while the poll asks from before its updatedAt. Without one, it is kept
		// past the next poll's bound (which is before this poll), and each poll that answers it again
		// keeps it on; once a poll no longer answers it, no later poll will.
		const until = Number.isNaN(updatedAt) ? readAt : updatedAt;
		if (remembered[id]?.[0] !== version) emitted.push(model);
		remembered[id] = [version, until];
	}
	const next = nextBound(previousBound, { startedAt, readAt, models }, overlapMs);
	staticData[EVENT] = stateAfter(context, next, remembered) satisfies ModelPollState;
	return previous ? emitted.map((json) => ({ json })) : [];
}
