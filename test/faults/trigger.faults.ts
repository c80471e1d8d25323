/**
 * The trigger's created-or-updated events (equipment models, clients, contracts, products) polled
 * again and again under injected faults, on small pages, while records are edited and added between
 * polls (and in one scenario while a poll is reading them). Every poll must emit exactly the records
 * changed since the last successful poll, each once, or fail loudly and leave the static data as it
 * was, so that the next successful poll still emits what the failed one missed. Across a scenario,
 * every change is emitted once, also with the API's clock as far behind or ahead of n8n's as the
 * trigger's overlap; where the event tells created from updated, a record the test added is
 * "created" the first time it is emitted and "updated" after, every other "updated".
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MAX_REMEMBERED_RECORDS } from '../../nodes/EquipmentRentalTrigger/events/pollState';
import type { FaultKind, FaultOptions } from '../../sandbox/faults';
import { advanceClock, useFakeDateOverSeededData } from '../harness/clock';
import { ActiveTrigger, TRIGGER_NODE_NAME } from '../harness/poll';
import {
	editRecord,
	insertRecord,
	RECORD_KINDS,
	type RecordKind,
	type StoredRecord,
	storedRecords,
} from '../harness/records';
import { TOKEN, useSandbox } from '../harness/sandbox';
import type { ListOutcome } from './results';
import { emptyTriggerTally, recordResults } from './results';

// The sandbox's seeded generator keeps the edits of a scenario reproducible.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createRandom } = require('../../sandbox/random');

interface Random {
	next(): number;
	integer(min: number, max: number): number;
	pick<T>(items: readonly T[]): T;
	chance(probability: number): boolean;
	uuid(): string;
}

const MODEL_COUNT = 300;
const TRANSIENT_FAULTS: FaultKind[] = ['500', '503', '429', 'malformed', 'drop', 'slow'];
/**
 * Small delays keep the suite fast; Retry-After 0 still goes through the trigger's Retry-After
 * path.
 */
const QUICK_FAULTS: Partial<FaultOptions> = {
	kinds: TRANSIENT_FAULTS,
	retryAfterSeconds: 0,
	slowMs: 100,
};
/**
 * The API down for a while: every request fails (overloaded, or cut off), until the trigger's
 * retries give up.
 */
const OUTAGE: FaultOptions = { rate: 1, kinds: ['503', '429', 'drop'], retryAfterSeconds: 0 };
const POLL_INTERVAL_MS = 60_000;
/**
 * Edits between polls are made a moment apart, as people make them. (Many records with the same
 * updatedAt, which the trigger reads again at the next poll, are the trigger suite's concern.)
 */
const CHANGE_SPACING_MS = 100;
/**
 * How far the clock moves while the API answers one request, so that a change during a poll is
 * later than its start.
 */
const REQUEST_MS = 3;
/**
 * An edit renames the record with one of these first: the lists are sorted by name or title, so
 * that it moves between pages.
 */
const NAME_PREFIXES = ['A ~ ', 'G ~ ', 'M ~ ', 'T ~ '];
const STATIC_DATA_KEY = `node:${TRIGGER_NODE_NAME}`;

interface RecordPollState {
	updatedAfter: string;
	remembered: Record<string, unknown>;
}

/**
 * The versions (updatedAt) the test gave each record it changed, and the version the trigger last
 * emitted. A record is pending while its latest version has not been emitted: several edits between
 * two polls are one change to emit. Records the test added are "created" until first emitted.
 */
class Ledger {
	private readonly versions = new Map<string, string[]>();
	private readonly emitted = new Map<string, string>();
	private readonly added = new Set<string>();
	changes = 0;

	record(record: StoredRecord, added: boolean) {
		if (added) this.added.add(record.id);
		const versions = this.versions.get(record.id) ?? [];
		if (versions.at(-1) === record.updatedAt) return;
		versions.push(record.updatedAt);
		this.versions.set(record.id, versions);
		this.changes++;
	}

	/** The latest version of each record whose latest version the trigger has not emitted. */
	pending(): Map<string, string> {
		const pending = new Map<string, string>();
		for (const [id, versions] of this.versions) {
			if (this.emitted.get(id) !== versions.at(-1)) pending.set(id, versions.at(-1)!);
		}
		return pending;
	}

	/** The position of `version` among the record's versions: -1 for one the test never made. */
	order(id: string, version: string | undefined): number {
		return version === undefined ? -1 : (this.versions.get(id)?.indexOf(version) ?? -1);
	}

	lastEmitted(id: string): string | undefined {
		return this.emitted.get(id);
	}

	/** What the record's next emission must tell: created the first time for a record the test added. */
	changeType(id: string): 'created' | 'updated' {
		return this.added.has(id) && !this.emitted.has(id) ? 'created' : 'updated';
	}

	markEmitted(id: string, version: string) {
		this.emitted.set(id, version);
	}
}

/**
 * Judges one successful poll: it must emit each record pending when it started, at that version or
 * a later one (a record may change again while the poll reads), each record once, no version the
 * trigger emitted before, and where the event tells it, whether the record is new to the workflow.
 * It may also emit a record that changed while it was running. Records what it emitted in the
 * ledger.
 */
function judgePoll(
	kind: RecordKind,
	ledger: Ledger,
	items: INodeExecutionData[],
	pendingAtStart: Map<string, string>,
): { outcome: ListOutcome; problems: string[] } {
	const problems: string[] = [];
	let duplicates = false;
	let partial = false;
	const emittedIds = new Set<string>();
	for (const { json } of items) {
		const id = String(json.id);
		const version = typeof json.updatedAt === 'string' ? json.updatedAt : undefined;
		const order = ledger.order(id, version);
		if (emittedIds.has(id)) {
			duplicates = true;
			problems.push(`record ${id} emitted twice in one poll`);
			continue;
		}
		emittedIds.add(id);
		if (order === -1) {
			partial = true;
			problems.push(`record ${id} emitted at ${version}, a version the test did not make`);
		} else if (order <= ledger.order(id, ledger.lastEmitted(id))) {
			duplicates = true;
			problems.push(`record ${id} emitted again at ${version}, already emitted by an earlier poll`);
		} else {
			if (pendingAtStart.has(id) && order < ledger.order(id, pendingAtStart.get(id))) {
				partial = true;
				problems.push(
					`record ${id} emitted at ${version}, older than its version when the poll started`,
				);
			}
			const changeType = kind.tellsCreatedFromUpdated ? ledger.changeType(id) : undefined;
			if (json.changeType !== changeType) {
				partial = true;
				problems.push(`record ${id} emitted as ${json.changeType}, not ${changeType}`);
			}
			ledger.markEmitted(id, version!);
		}
	}
	const missed = [...pendingAtStart.keys()].filter((id) => !emittedIds.has(id));
	if (missed.length > 0) {
		partial = true;
		problems.push(
			`${missed.length} of ${pendingAtStart.size} changed records not emitted: ${missed.slice(0, 3).join(', ')}...`,
		);
	}
	return { outcome: duplicates ? 'duplicates' : partial ? 'partial' : 'complete', problems };
}

interface Scenario {
	name: string;
	polls: number;
	/** Share of the requests that get a fault. */
	faultRate: number;
	/**
	 * The sandbox's silent ceiling of `limit` for the 300 models: the trigger asks 1000 a page and
	 * reads several.
	 */
	maxPageSize: number;
	seed: number;
	/**
	 * Most records edited (or added) between two polls; a poll with none is as likely as any other
	 * count.
	 */
	maxChangesBetweenPolls: number;
	/** Chance that a record changes while the API answers one of a poll's requests. */
	changeWhileReading?: number;
	/**
	 * Chance that n8n restarts before a poll: the workflow is activated again from the static data
	 * n8n saved.
	 */
	restartChance?: number;
	/**
	 * Chance that the API goes down during a poll, after answering 0 to 3 of its requests, until the
	 * poll ends.
	 */
	outageChance: number;
	/** Share of the polls that must complete: the trigger's retries ride out most faults. */
	minCompleteShare: number;
	/**
	 * How far the API's clock runs ahead of n8n's (negative: behind), in minutes; the trigger's
	 * overlap is 10.
	 */
	clockOffsetMinutes: number;
}

const SCENARIOS: Scenario[] = [
	{
		name: 'changes between polls, faults on a fifth of the requests',
		polls: 50,
		faultRate: 0.2,
		maxPageSize: 10,
		seed: 31,
		maxChangesBetweenPolls: 35,
		outageChance: 0.15,
		minCompleteShare: 0.75,
		clockOffsetMinutes: 0,
	},
	{
		name: "changes between polls, faults on two requests in five, n8n restarting now and then, the API's clock 10 minutes behind",
		polls: 30,
		faultRate: 0.4,
		maxPageSize: 25,
		seed: 32,
		maxChangesBetweenPolls: 60,
		restartChance: 0.15,
		outageChance: 0.2,
		minCompleteShare: 0.55,
		clockOffsetMinutes: -10,
	},
	{
		name: "changes between polls and while a poll reads, faults on a third of the requests, n8n restarting now and then, the API's clock 10 minutes ahead",
		polls: 30,
		faultRate: 0.3,
		maxPageSize: 15,
		seed: 33,
		maxChangesBetweenPolls: 40,
		changeWhileReading: 0.25,
		restartChance: 0.1,
		outageChance: 0.2,
		minCompleteShare: 0.55,
		clockOffsetMinutes: 10,
	},
];

describe.each(RECORD_KINDS)('The trigger event $name polled under injected faults', (kind) => {
	const suite = useSandbox({ models: MODEL_COUNT, today: '2024-05-12' });
	const tally = emptyTriggerTally();
	const stored = () => storedRecords(suite.sandbox, kind);

	useFakeDateOverSeededData(suite, '2024-05-12T08:00:00.000Z');
	afterAll(() => recordResults(`trigger-${kind.event}`, { trigger: { [kind.name]: tally } }));

	/**
	 * The trigger's state in the workflow's static data, as the running workflow holds it (not as n8n
	 * saved it). A copy through JSON: n8n wraps static data it loads in proxies, which
	 * structuredClone refuses.
	 */
	const liveState = (trigger: ActiveTrigger): RecordPollState | null => {
		const state = (trigger.liveStaticData[STATIC_DATA_KEY] as IDataObject | undefined)?.[
			kind.event
		];
		return state === undefined ? null : JSON.parse(JSON.stringify(state));
	};

	// Clients, contracts and products (32 to 93 seeded) change and are read at a fifth of the
	// models' scale (changes, pages, changes per page read), so that a poll's changes span as many
	// pages, and as many requests meet faults.
	const scale = kind.collection === 'models' ? 1 : 1 / 5;

	it.each<Scenario & { pageSize: number; maxChanges: number }>(
		SCENARIOS.map((scenario) => ({
			...scenario,
			// Each event's own changes and faults (the models' seeds unchanged).
			seed: scenario.seed + 100 * RECORD_KINDS.indexOf(kind),
			pageSize: Math.round(scenario.maxPageSize * scale),
			maxChanges: Math.round(scenario.maxChangesBetweenPolls * scale),
			changeWhileReading: (scenario.changeWhileReading ?? 0) * scale,
		})),
	)(
		'$name, up to $maxChanges changes between polls, pages of $pageSize: $polls polls, each exact or failed loudly, every change emitted once',
		async (scenario) => {
			const {
				polls,
				faultRate,
				pageSize,
				seed,
				maxChanges,
				restartChance = 0,
				outageChance,
				clockOffsetMinutes,
			} = scenario;
			let changeWhileReading = scenario.changeWhileReading ?? 0;
			const random = createRandom(seed) as Random;
			// Requests arrive in no fixed order: what happens while a poll reads draws from its own
			// generator.
			const whileReading = createRandom(seed + 1000) as Random;
			const ledger = new Ledger();
			const outcomes = { complete: 0, failedLoudly: 0, partial: 0, duplicates: 0 };
			const problems: string[] = [];
			let carriedOver = 0;
			let pollsRun = 0;
			let lost = 0;
			let restarts = 0;

			/**
			 * Adds a record, or changes one, as the API would: a new name (which moves it between
			 * pages), updatedAt (and for a new record createdAt) by the API's clock.
			 */
			function changeRecord(random: Random) {
				const picked = random.pick(stored());
				const name = `${random.pick(NAME_PREFIXES)}${String(picked[kind.nameField]).replace(/^. ~ /, '')}`;
				const added = random.chance(0.15);
				const changed = added
					? insertRecord(suite.sandbox, kind, picked, name, random.uuid())
					: editRecord(suite.sandbox, picked, { [kind.nameField]: name });
				ledger.record(changed, added);
			}

			let reading = false;
			let pagesRead = 0;
			let requestsOfPoll = 0;
			let outageAfter: number | undefined;
			const removeHook = suite.sandbox.onRequest((request) => {
				if (request.path !== kind.path) return;
				advanceClock(REQUEST_MS);
				pagesRead = Math.max(pagesRead, Number(request.query.page));
				if (!reading) return;
				if (whileReading.chance(changeWhileReading)) changeRecord(whileReading);
				if (outageAfter !== undefined && ++requestsOfPoll === outageAfter + 1) {
					suite.sandbox.setOptions({ faults: { ...OUTAGE, seed: requestsOfPoll + 10 * pollsRun } });
				}
			});

			suite.sandbox.setOptions({ clockOffsetMs: clockOffsetMinutes * 60_000 });
			const activation = await ActiveTrigger.activate({
				parameters: { event: kind.event, filters: {} },
				credentials: { baseUrl: suite.sandbox.url, accessToken: TOKEN },
			});
			let trigger = activation.trigger;
			expect(activation.emitted).toBeNull();
			suite.sandbox.setOptions({ maxPageSize: pageSize });

			/** Changes pending when a poll failed, until a successful poll. */
			let missedByFailedPolls = new Set<string>();
			let restartPending = false;

			async function pollOnce(label: string) {
				pollsRun++;
				const pendingAtStart = ledger.pending();
				const stateBefore = liveState(trigger);
				const savedBefore = JSON.stringify(trigger.savedStaticData);
				let items: INodeExecutionData[] | null = null;
				let error: unknown;
				reading = true;
				try {
					if (restartPending) {
						const restarted = await trigger.restart();
						trigger = restarted.trigger;
						items = restarted.emitted;
						restartPending = false;
					} else {
						items = await trigger.poll();
					}
				} catch (caught) {
					error = caught;
				} finally {
					reading = false;
				}

				if (error !== undefined) {
					outcomes.failedLoudly++;
					if (!(error instanceof Error) || error.message === '')
						problems.push(`${label}: failed without a message: ${String(error)}`);
					// The running workflow's state (a failed activation after a restart leaves the old one as
					// it was).
					const stateAfter = JSON.stringify(liveState(trigger));
					if (stateAfter !== JSON.stringify(stateBefore)) {
						problems.push(
							`${label}: failed, but moved the static data from ${JSON.stringify(stateBefore)} to ${stateAfter}`,
						);
					}
					if (JSON.stringify(trigger.savedStaticData) !== savedBefore) {
						problems.push(`${label}: failed, but n8n saved its static data`);
					}
					for (const id of pendingAtStart.keys()) missedByFailedPolls.add(id);
					return;
				}
				const judged = judgePoll(kind, ledger, items ?? [], pendingAtStart);
				outcomes[judged.outcome]++;
				problems.push(...judged.problems.map((problem) => `${label}: ${problem}`));
				// The next poll must ask from before every change still pending (made while this one read),
				// and the static data stay small.
				const state = liveState(trigger)!;
				for (const [id, version] of ledger.pending()) {
					if (Date.parse(version) <= Date.parse(state.updatedAfter)) {
						problems.push(
							`${label}: succeeded, but the next poll asks for changes after ${state.updatedAfter}, not for record ${id} changed at ${version}`,
						);
					}
				}
				if (Object.keys(state.remembered).length > MAX_REMEMBERED_RECORDS) {
					problems.push(`${label}: remembers more than ${MAX_REMEMBERED_RECORDS} records`);
				}
				const emittedIds = new Set((items ?? []).map((item) => String(item.json.id)));
				carriedOver += [...missedByFailedPolls].filter((id) => emittedIds.has(id)).length;
				missedByFailedPolls = new Set();
			}

			try {
				for (let round = 1; round <= polls; round++) {
					advanceClock(POLL_INTERVAL_MS / 2);
					const changes = random.integer(0, maxChanges);
					for (let change = 0; change < changes; change++) {
						changeRecord(random);
						advanceClock(CHANGE_SPACING_MS);
					}
					advanceClock(POLL_INTERVAL_MS / 2);
					suite.sandbox.setOptions({
						faults: { ...QUICK_FAULTS, rate: faultRate, seed: seed * 1000 + round },
					});
					outageAfter = random.chance(outageChance) ? random.integer(0, 3) : undefined;
					requestsOfPoll = 0;
					if (!restartPending && random.chance(restartChance)) {
						restartPending = true;
						restarts++;
					}
					await pollOnce(`poll ${round}${restartPending ? ' (activation after a restart)' : ''}`);
				}
				// The faults and the changes stop: the next poll emits whatever is still pending, and the
				// one after it nothing.
				suite.sandbox.setOptions({ faults: null });
				outageAfter = undefined;
				changeWhileReading = 0;
				for (const label of ['first poll without faults', 'second poll without faults']) {
					advanceClock(POLL_INTERVAL_MS);
					await pollOnce(label);
				}
			} finally {
				removeHook();
				// A change still pending now was never emitted (each successful poll judged above must also
				// have emitted it).
				lost = ledger.pending().size;
				const counts = {
					polls: pollsRun,
					...outcomes,
					changes: ledger.changes,
					lost,
					carriedOver,
					restarts,
				};
				for (const [key, value] of Object.entries(counts))
					(tally[key as keyof typeof counts] as number) += value;
				tally.clockOffsetsMinutes.push(clockOffsetMinutes);
			}

			expect(problems).toEqual([]);
			expect({ ...outcomes, lost }).toMatchObject({ partial: 0, duplicates: 0, lost: 0 });
			expect(outcomes.complete).toBeGreaterThanOrEqual(scenario.minCompleteShare * pollsRun);
			// The faults must have failed some polls, and what those missed must have come with a later
			// one.
			expect(outcomes.failedLoudly).toBeGreaterThan(0);
			expect(carriedOver).toBeGreaterThan(0);
			// The changes of a poll were read over several small pages, and n8n restarted where the
			// scenario says.
			expect(pagesRead).toBeGreaterThanOrEqual(3);
			expect(restarts > 0).toBe(restartChance > 0);
		},
	);
});
