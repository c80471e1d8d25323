/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(README.md, "n8n's n8n-node tool"). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { MAX_REMEMBERED_RECORDS } from '../nodes/EquipmentRentalTrigger/events/createdOrUpdated';

import { advanceClock, setClock, useFakeDateOverSeededModels } from './harness/clock';
import {
	ActiveTrigger,
	runTriggerManually,
	TRIGGER_NODE_NAME,
	type TriggerOptions,
} from './harness/poll';
import { useRedirectingServer } from './harness/recordingServer';
import { TOKEN, useSandbox } from './harness/sandbox';

interface Model {
	id: string;
	name: string;
	brandId: string;
	brand: { id: string; name: string };
	category: string;
	updatedAt: string;
	createdAt: string;
}

interface DistanceRecord {
	id: string;
	date: string;
}

const MODELS_PATH = '/master-data/v1/equipment-management/models';
const MINUTE_MS = 60_000;
const STATIC_DATA_KEY = `node:${TRIGGER_NODE_NAME}`;

const ids = (items: INodeExecutionData[] | null) => (items ?? []).map((item) => item.json.id);

describe('Equipment Rental Trigger', () => {
	const suite = useSandbox({ models: 60, equipment: 20, today: '2024-05-12' });
	const models = () => suite.sandbox.store.models as unknown as Model[];
	const distances = () => suite.sandbox.store.distances as unknown as Map<string, DistanceRecord[]>;
	const options = (
		parameters: INodeParameters,
		extra: Partial<TriggerOptions> = {},
	): TriggerOptions => ({
		parameters,
		credentials: { baseUrl: suite.sandbox.url, accessToken: TOKEN },
		...extra,
	});
	const modelRequests = () =>
		suite.sandbox.requests.filter((request) => request.path === MODELS_PATH);

	/** Changes a model as the API would on an edit: new name, updatedAt by the API's clock. */
	function editModel(model: Model, name = `${model.name} (edited)`) {
		return suite.sandbox.updateModel<Model>(model.id, { name });
	}

	function addModel(name: string): Model {
		const { brandId, brand, category } = models()[0];
		return suite.sandbox.createModel({ name, brandId, brand, category });
	}

	useFakeDateOverSeededModels(suite, '2024-05-12T08:00:00.000Z');

	describe('event: Equipment Model Created or Updated', () => {
		const modelEvent = (filters: Record<string, string> = {}): INodeParameters => ({
			event: 'equipmentModelUpdated',
			filters,
		});

		it('records a baseline at activation and emits nothing: it notes the models changed within the overlap', async () => {
			advanceClock(-5 * MINUTE_MS);
			const changedBefore = editModel(models()[4]);
			advanceClock(5 * MINUTE_MS);

			const { trigger, emitted } = await ActiveTrigger.activate(options(modelEvent()));
			advanceClock(MINUTE_MS);
			const nextPoll = await trigger.poll();

			expect(emitted).toBeNull();
			expect(nextPoll).toBeNull();
			expect(suite.sandbox.requests.map((request) => request.query)).toEqual([
				{ updatedAfter: '2024-05-12T07:49:59.999Z', page: '1', limit: '100' },
				{ updatedAfter: '2024-05-12T07:54:59.999Z', page: '1', limit: '100' },
			]);
			expect(trigger.savedStaticData).toEqual({
				'node:Equipment Rental Trigger': {
					equipmentModelUpdated: {
						updatedAfter: '2024-05-12T07:54:59.999Z',
						remembered: {
							[changedBefore.id]: [
								'2024-05-12T07:55:00.000Z',
								Date.parse('2024-05-12T07:55:00.000Z'),
							],
						},
					},
				},
			});
		});

		it('emits a new model and an edited model once, asking for changes from just before the newest change seen', async () => {
			const { trigger } = await ActiveTrigger.activate(options(modelEvent()));
			advanceClock(MINUTE_MS);
			const created = addModel('Aardvark Lift 100');
			const edited = editModel(models()[7]);
			suite.sandbox.resetStats();

			const emitted = await trigger.poll();
			advanceClock(MINUTE_MS);
			const nextPoll = await trigger.poll();

			expect(ids(emitted).sort()).toEqual([created.id, edited.id].sort());
			expect(emitted?.find((item) => item.json.id === edited.id)?.json.name).toBe(edited.name);
			expect(nextPoll).toBeNull();
			expect(modelRequests().map((request) => request.query.updatedAfter)).toEqual([
				'2024-05-12T07:49:59.999Z',
				'2024-05-12T08:00:59.999Z',
			]);
		});

		it('skips a poll that starts while the previous one is still running, so that no change is emitted twice', async () => {
			const { trigger } = await ActiveTrigger.activate(options(modelEvent()));
			advanceClock(MINUTE_MS);
			const created = addModel('Aardvark Lift 100');
			let release = () => {};
			const held = new Promise<void>((resolve) => (release = resolve));
			let heldRequests = 0;
			const removeHook = suite.sandbox.onRequest(async () => {
				if (heldRequests++ === 0) await held;
			});
			try {
				const slowPoll = trigger.poll();
				while (heldRequests === 0) await new Promise((resolve) => setImmediate(resolve));
				advanceClock(MINUTE_MS);

				const overlappingPoll = await trigger.poll();
				release();

				expect(overlappingPoll).toBeNull();
				expect(heldRequests).toBe(1);
				expect(ids(await slowPoll)).toEqual([created.id]);
			} finally {
				removeHook();
				release();
			}
			advanceClock(MINUTE_MS);
			const requestsBefore = modelRequests().length;
			expect(await trigger.poll()).toBeNull();
			expect(modelRequests().length).toBe(requestsBefore + 1);
		});

		it('emits a model changed during a poll once, though the next poll asks for it again', async () => {
			const { trigger } = await ActiveTrigger.activate(options(modelEvent()));
			advanceClock(MINUTE_MS);
			const model = models()[3];
			const removeHook = suite.sandbox.onRequest(() => {
				// The edit lands after the poll started, just before the API answers it.
				model.updatedAt = new Date(Date.now() + 1000).toISOString();
			});
			const duringPoll = await trigger.poll();
			removeHook();

			advanceClock(MINUTE_MS);
			suite.sandbox.resetStats();
			const overlappingPoll = await trigger.poll();
			advanceClock(MINUTE_MS);
			editModel(model);
			const afterAnotherEdit = await trigger.poll();

			expect(ids(duringPoll)).toEqual([model.id]);
			expect(overlappingPoll).toBeNull();
			expect(modelRequests().map((request) => request.query.updatedAfter)).toEqual([
				'2024-05-12T08:01:00.999Z',
				'2024-05-12T08:01:00.999Z',
			]);
			expect(ids(afterAnotherEdit)).toEqual([model.id]);
		});

		it('emits changed models that carry no updatedAt (the spec does not show the model fields)', async () => {
			const { trigger } = await ActiveTrigger.activate(options(modelEvent()));
			advanceClock(MINUTE_MS);
			const model = editModel(models()[5]);
			// The sandbox still filters on it, but no longer sends it.
			Object.defineProperty(model, 'updatedAt', {
				value: model.updatedAt,
				enumerable: false,
				writable: true,
			});

			const emitted = await trigger.poll();

			expect(ids(emitted)).toEqual([model.id]);
			expect(emitted?.[0].json).not.toHaveProperty('updatedAt');
		});

		it('reads every page of the changes when the API serves small pages', async () => {
			const { trigger } = await ActiveTrigger.activate(options(modelEvent()));
			advanceClock(MINUTE_MS);
			suite.sandbox.setOptions({ maxPageSize: 5 });
			const edited = models()
				.slice(10, 22)
				.map((model) => editModel(model).id);
			suite.sandbox.resetStats();

			const emitted = await trigger.poll();

			expect(ids(emitted).sort()).toEqual([...edited].sort());
			expect(
				modelRequests()
					.map((request) => Number(request.query.page))
					.sort(),
			).toEqual([1, 2, 3]);
			expect(
				modelRequests().every(
					(request) => request.query.updatedAfter === '2024-05-12T07:49:59.999Z',
				),
			).toBe(true);
		});

		it('sends the brand and search filters on every request', async () => {
			const brandId = suite.fixtures.brandId;
			const brandModels = models().filter((model) => model.brandId === brandId);
			const { trigger } = await ActiveTrigger.activate(
				options(modelEvent({ brandId, search: 'ed' })),
			);
			advanceClock(MINUTE_MS);
			const [ofBrand] = brandModels;
			editModel(ofBrand, `${ofBrand.name} red`);
			editModel(models().find((model) => model.brandId !== brandId) as Model, 'Other brand red');

			const emitted = await trigger.poll();

			expect(ids(emitted)).toEqual([ofBrand.id]);
			for (const request of modelRequests())
				expect(request.query).toMatchObject({ brandId, search: 'ed' });
		});

		it('refuses a brand ID that is not a UUID before sending anything', async () => {
			await expect(
				ActiveTrigger.activate(options(modelEvent({ brandId: 'acme' }))),
			).rejects.toThrow("'Brand ID' must be a UUID such as 3f6c2a5e-8b1d-4c7a-9e2f-1a2b3c4d5e6f");
			expect(suite.sandbox.requests).toEqual([]);
		});

		it('fails the activation with the API explanation when the token is refused', async () => {
			const wrongToken = options(modelEvent(), {
				credentials: { baseUrl: suite.sandbox.url, accessToken: 'wrong' },
			});

			await expect(ActiveTrigger.activate(wrongToken)).rejects.toThrow(
				'Authorization failed (HTTP 401): the API did not accept the access token',
			);
		});

		describe('when the Base URL redirects', () => {
			const redirecting = useRedirectingServer();

			it('fails the activation with the redirect explained, never sending the token to the new address', async () => {
				const redirected = options(modelEvent(), {
					credentials: { baseUrl: redirecting.url, accessToken: TOKEN },
				});

				await expect(ActiveTrigger.activate(redirected)).rejects.toThrow(
					'The API answered with a redirect (HTTP 301) instead of data',
				);
				expect(redirecting.redirected).toHaveLength(1);
				expect(redirecting.target.seen).toHaveLength(0);
			});
		});

		it.each(['503', 'malformed', 'drop'])(
			'retries a poll whose request fails for a moment (%s)',
			async (fault) => {
				const { trigger } = await ActiveTrigger.activate(options(modelEvent()));
				advanceClock(MINUTE_MS);
				const model = editModel(models()[9]);
				let calls = 0;
				const removeHook = suite.sandbox.onRequest(() => {
					suite.sandbox.setOptions({ faults: calls++ === 0 ? { rate: 1, kinds: [fault] } : null });
				});

				const emitted = await trigger.poll();
				removeHook();

				expect(ids(emitted)).toEqual([model.id]);
				expect(calls).toBe(2);
			},
		);

		it('continues after a restart from the static data n8n saved, emitting nothing twice', async () => {
			const { trigger } = await ActiveTrigger.activate(options(modelEvent()));
			advanceClock(MINUTE_MS);
			const first = editModel(models()[1]);
			expect(ids(await trigger.poll())).toEqual([first.id]);
			advanceClock(MINUTE_MS);
			expect(await trigger.poll()).toBeNull();
			advanceClock(MINUTE_MS);
			const second = editModel(models()[2]);

			const { emitted } = await trigger.restart();

			expect(ids(emitted)).toEqual([second.id]);
		});

		it('returns the five most recently changed models in a manual run, leaving the static data alone', async () => {
			const newest = [...models()]
				.sort((left, right) => Date.parse(right.updatedAt) - Date.parse(left.updatedAt))
				.slice(0, 5)
				.map((model) => model.id);

			const { items, error, staticData } = await runTriggerManually(options(modelEvent()));

			expect(error).toBeUndefined();
			expect(ids(items)).toEqual(newest);
			expect(staticData).toEqual({});
			expect(suite.sandbox.requests.length).toBeLessThanOrEqual(4);
		});

		it('emits a change that carries the same updatedAt as models read before it across a page boundary', async () => {
			const { trigger } = await ActiveTrigger.activate(options(modelEvent()));
			advanceClock(MINUTE_MS);
			suite.sandbox.setOptions({ maxPageSize: 2 });
			// The fake clock stands still: all these edits carry the same updatedAt, over three pages.
			const sameMoment = models()
				.slice(20, 25)
				.map((model) => editModel(model).id);
			const firstPoll = await trigger.poll();
			const sameMomentLater = editModel(models()[30]);
			advanceClock(MINUTE_MS);

			const secondPoll = await trigger.poll();

			expect(ids(firstPoll).sort()).toEqual([...sameMoment].sort());
			expect(modelRequests().map((request) => request.query.page)).toContain('3');
			expect(sameMomentLater.updatedAt).toBe(models()[20].updatedAt);
			expect(ids(secondPoll)).toEqual([sameMomentLater.id]);
		});

		it('emits a model changed early in a read that lasts minutes, though a later page carries a much later updatedAt', async () => {
			const { trigger } = await ActiveTrigger.activate(options(modelEvent()));
			advanceClock(MINUTE_MS);
			suite.sandbox.setOptions({ maxPageSize: 2 });
			const [onPage1, , , onPage2] = models()
				.slice(40, 44)
				.map((model) => editModel(model))
				.sort((left, right) => (left.name < right.name ? -1 : 1));
			const removeHook = suite.sandbox.onRequest((request) => {
				if (request.path !== MODELS_PATH || request.query.page !== '2') return;
				// Page 1 is read: its first model changes, and two minutes later the last one of page 2.
				advanceClock(1000);
				editModel(onPage1, onPage1.name);
				advanceClock(2 * MINUTE_MS);
				editModel(onPage2, onPage2.name);
			});
			const longRead = await trigger.poll();
			removeHook();
			advanceClock(MINUTE_MS);

			const nextPoll = await trigger.poll();

			expect(longRead).toHaveLength(4);
			expect(nextPoll?.map((item) => [item.json.id, item.json.updatedAt])).toEqual([
				[onPage1.id, onPage1.updatedAt],
			]);
		});

		it('never asks from further back than the poll before, so that a slow read brings back no model already emitted', async () => {
			const { trigger } = await ActiveTrigger.activate(options(modelEvent()));
			advanceClock(MINUTE_MS);
			const earlier = editModel(models()[11]);
			advanceClock(2000);
			const newest = editModel(models()[12]);
			const first = await trigger.poll();
			advanceClock(1);
			const justAfter = editModel(models()[13]);
			const removeHook = suite.sandbox.onRequest(() => advanceClock(5000));
			const slowRead = await trigger.poll();
			removeHook();
			advanceClock(MINUTE_MS);

			const afterTheSlowRead = await trigger.poll();

			expect(ids(first).sort()).toEqual([earlier.id, newest.id].sort());
			expect(ids(slowRead)).toEqual([justAfter.id]);
			expect(afterTheSlowRead).toBeNull();
		});

		it("with updatedAt, follows the API's own clock once it has seen a change, even a clock further behind n8n's than the overlap", async () => {
			suite.sandbox.setOptions({ clockOffsetMs: -10 * MINUTE_MS });
			const { trigger } = await ActiveTrigger.activate(
				options({ ...modelEvent(), options: { overlapMinutes: 1 } }),
			);
			const changes: string[] = [];
			const emitted: string[] = [];
			for (let minute = 0; minute < 25; minute++) {
				changes.push(editModel(models()[minute]).id);
				advanceClock(MINUTE_MS);
				emitted.push(...ids(await trigger.poll()).map(String));
			}

			// Until then, the trigger cannot know the API's clock: it asks from the overlap before its
			// activation by n8n's clock, and the changes the API dated before that are not asked for.
			const firstSeen = changes.indexOf(emitted[0]);
			expect(firstSeen).toBeGreaterThan(0);
			expect(firstSeen).toBeLessThan(10);
			expect(emitted).toEqual(changes.slice(firstSeen));
		});

		describe("when the API's clock is not n8n's", () => {
			const hideUpdatedAt = (model: Model) =>
				Object.defineProperty(model, 'updatedAt', {
					value: model.updatedAt,
					enumerable: false,
					writable: true,
				});

			/**
			 * Twelve polls a minute apart, each after a change made just as the previous poll ended
			 * (inside the skew window), every third after a new model, every other one while a model
			 * changes during its read; then 25 minutes of polls without changes, past twice the overlap.
			 * Each model changes once, to a new name: the changes to emit, as "id name".
			 */
			async function pollThroughChanges(timestamps: boolean, restartBeforeEachPoll: boolean) {
				const expected: string[] = [];
				const emitted: string[] = [];
				const record = (model: Model) => {
					if (!timestamps) hideUpdatedAt(model);
					expected.push(`${model.id} ${model.name}`);
				};
				let unchanged = 0;
				const changeOne = () => {
					const model = models()[unchanged++];
					record(editModel(model, `${model.name} v2`));
				};
				if (!timestamps) models().forEach(hideUpdatedAt);

				let { trigger } = await ActiveTrigger.activate(options(modelEvent()));
				const pollOnce = async () => {
					if (!restartBeforeEachPoll) return await trigger.poll();
					const restarted = await trigger.restart();
					trigger = restarted.trigger;
					return restarted.emitted;
				};
				let changeWhileReading = false;
				const removeHook = suite.sandbox.onRequest((request) => {
					if (!changeWhileReading || request.path !== MODELS_PATH) return;
					changeWhileReading = false;
					changeOne();
				});
				try {
					for (let round = 0; round < 12; round++) {
						// In the very millisecond the previous poll ended: the edge of the skew window.
						changeOne();
						advanceClock(MINUTE_MS / 2);
						if (round % 3 === 0) record(addModel(`Aardvark Lift ${round}`));
						advanceClock(MINUTE_MS / 2);
						changeWhileReading = round % 2 === 1;
						const items = await pollOnce();
						emitted.push(...(items ?? []).map(({ json }) => `${json.id} ${json.name}`));
					}
					for (let minute = 0; minute < 25; minute++) {
						advanceClock(MINUTE_MS);
						const items = await pollOnce();
						emitted.push(...(items ?? []).map(({ json }) => `${json.id} ${json.name}`));
					}
				} finally {
					removeHook();
				}
				return { expected, emitted };
			}

			describe.each([
				['that carry updatedAt', true],
				['that carry no updatedAt', false],
			])('models %s', (_carrying, timestamps) => {
				it.each([
					[-10, 'polled by one running workflow', false],
					[0, 'polled by one running workflow', false],
					[10, 'polled by one running workflow', false],
					[-10, 'restarted from saved static data before each poll', true],
					[0, 'restarted from saved static data before each poll', true],
					[10, 'restarted from saved static data before each poll', true],
				])(
					"with the API's clock %i minutes off n8n's, %s: every change emitted once",
					async (skewMinutes, _how, restartBeforeEachPoll) => {
						suite.sandbox.setOptions({ clockOffsetMs: skewMinutes * MINUTE_MS });

						const { expected, emitted } = await pollThroughChanges(
							timestamps,
							restartBeforeEachPoll,
						);

						expect(expected).toHaveLength(22);
						expect(emitted.sort()).toEqual(expected.sort());
					},
				);
			});
		});

		it('asks with the overlap set under Options, and refuses one that is out of range', async () => {
			await ActiveTrigger.activate(options({ ...modelEvent(), options: { overlapMinutes: 30 } }));

			expect(modelRequests().map((request) => request.query.updatedAfter)).toEqual([
				'2024-05-12T07:29:59.999Z',
			]);
			await expect(
				ActiveTrigger.activate(options({ ...modelEvent(), options: { overlapMinutes: 0 } })),
			).rejects.toThrow("'Overlap (Minutes)' must be a number from 1 to 1440");
		});

		it(`keeps at most ${MAX_REMEMBERED_RECORDS} models in its static data: when more change in one millisecond, the next poll asks after it, emitting none twice`, async () => {
			const { trigger } = await ActiveTrigger.activate(options(modelEvent()));
			advanceClock(MINUTE_MS);
			const created = Array.from(
				{ length: MAX_REMEMBERED_RECORDS + 10 },
				(_, index) => addModel(`Aardvark Lift ${index}`).id,
			);
			const emitted = await trigger.poll();
			const state = trigger.savedStaticData[STATIC_DATA_KEY] as IDataObject;
			advanceClock(1);
			const aMillisecondLater = editModel(models()[3]);
			advanceClock(MINUTE_MS);

			const nextPoll = await trigger.poll();

			expect(ids(emitted).sort()).toEqual([...created].sort());
			const { remembered, updatedAfter } = state.equipmentModelUpdated as IDataObject;
			expect(Object.keys(remembered as IDataObject).length).toBeLessThanOrEqual(
				MAX_REMEMBERED_RECORDS,
			);
			expect(JSON.stringify(state).length).toBeLessThan(100_000);
			expect(updatedAfter).toBe('2024-05-12T08:01:00.000Z');
			expect(ids(nextPoll)).toEqual([aMillisecondLater.id]);
		});

		it('continues from the static data an earlier version of the trigger saved, emitting nothing twice', async () => {
			const seenDuringThePoll = editModel(models()[6]);
			const legacyStaticData = {
				[STATIC_DATA_KEY]: {
					equipmentModelUpdated: {
						previousPollStartedAt: '2024-05-12T07:59:59.000Z',
						seenSinceStart: { [seenDuringThePoll.id]: seenDuringThePoll.updatedAt },
					},
				},
			};
			advanceClock(MINUTE_MS);
			const changedSince = editModel(models()[7]);

			const { emitted } = await ActiveTrigger.activate(
				options(modelEvent(), { savedStaticData: legacyStaticData }),
			);

			expect(ids(emitted)).toEqual([changedSince.id]);
			expect(modelRequests()[0].query.updatedAfter).toBe('2024-05-12T07:59:59.000Z');
		});

		it('continues from the static data the trigger saved at c2ba73f, emitting nothing twice and saving it in the same form', async () => {
			// The fixture is what that code saved (test/harness/poll.ts's ActiveTrigger) after these
			// changes: one model edited 5 minutes before the activation at 08:00, three a minute after
			// it (one without updatedAt), emitted by the poll at 08:01, then a poll at 08:02 that
			// emitted nothing. They are made again here, at the same moments, before n8n restarts.
			const savedByC2ba73f = JSON.parse(
				readFileSync(join(__dirname, 'fixtures', 'model-event-static-data-c2ba73f.json'), 'utf8'),
			) as IDataObject;
			advanceClock(-5 * MINUTE_MS);
			editModel(models()[4]);
			advanceClock(6 * MINUTE_MS);
			[7, 8, 9].map((index) => editModel(models()[index]));
			Object.defineProperty(models()[9], 'updatedAt', {
				value: models()[9].updatedAt,
				enumerable: false,
				writable: true,
			});
			advanceClock(2 * MINUTE_MS);
			const changedSince = editModel(models()[10]);

			const { trigger, emitted } = await ActiveTrigger.activate(
				options(modelEvent(), { savedStaticData: savedByC2ba73f }),
			);

			expect(ids(emitted)).toEqual([changedSince.id]);
			expect(modelRequests()[0].query.updatedAfter).toBe('2024-05-12T07:54:59.999Z');
			const saved = (trigger.savedStaticData[STATIC_DATA_KEY] as IDataObject)
				.equipmentModelUpdated as IDataObject;
			expect(Object.keys(saved).sort()).toEqual(['remembered', 'updatedAfter']);
			expect((saved.remembered as IDataObject)[changedSince.id]).toEqual([
				changedSince.updatedAt,
				Date.parse(changedSince.updatedAt),
			]);
		});
	});

	// The same event as the distance report, on the reference's other daily analytics
	// (https://ram-api.syniotec.com/reference/equipment-usage, .../equipment-working-hours).
	describe.each([
		['dailyUsageReport', 'equipment-usage', 'equipmentUsage'],
		['dailyWorkingHoursReport', 'equipment-working-hours', 'workingHours'],
	])('event: %s', (event, pathName, storeKey) => {
		it("emits yesterday's records once from the set hour, each telling its day, then the next day's", async () => {
			const stored = (date: string) =>
				(
					(suite.sandbox.store as unknown as Record<string, Map<string, IDataObject[]>>)[
						storeKey
					].get(date) ?? []
				).map((record) => (record.equipment as IDataObject).id);
			setClock('2024-05-11T05:59:00Z');
			const { trigger, emitted: beforeTheHour } = await ActiveTrigger.activate(
				options({ event, hour: 6 }),
			);
			setClock('2024-05-11T06:00:00Z');
			const atTheHour = await trigger.poll();
			const laterThatDay = await trigger.poll();
			setClock('2024-05-12T06:05:00Z');
			const nextDay = await trigger.poll();

			const equipmentOf = (items: typeof atTheHour) =>
				(items ?? []).map((item) => (item.json.equipment as IDataObject).id);
			expect(beforeTheHour).toBeNull();
			expect(equipmentOf(atTheHour)).toEqual(stored('2024-05-10'));
			expect(equipmentOf(atTheHour).length).toBeGreaterThan(0);
			expect(laterThatDay).toBeNull();
			expect(equipmentOf(nextDay)).toEqual(stored('2024-05-11'));
			expect(
				(nextDay ?? []).every((item) =>
					[item.json.reportDate, item.json.date].includes('2024-05-11'),
				),
			).toBe(true);
			expect(suite.sandbox.requests.map((request) => request.path)).toEqual([
				`/analytics/v1/${pathName}/2024-05-10`,
				`/analytics/v1/${pathName}/2024-05-11`,
			]);
		});
	});

	describe('event: Daily Distance Report', () => {
		const reportEvent = (hour = 6) => ({ event: 'dailyDistanceReport', hour });
		const reportRequests = () =>
			suite.sandbox.requests.map((request) => request.path.split('/').pop());
		const recordIds = (date: string) => (distances().get(date) ?? []).map((record) => record.id);

		it("emits yesterday's records at the first poll from the set hour, then nothing until the next day", async () => {
			setClock('2024-05-11T05:59:00Z');
			const { trigger, emitted: beforeTheHour } = await ActiveTrigger.activate(
				options(reportEvent()),
			);
			setClock('2024-05-11T06:00:00Z');
			const atTheHour = await trigger.poll();
			setClock('2024-05-11T23:59:00Z');
			const laterThatDay = await trigger.poll();
			setClock('2024-05-12T06:05:00Z');
			const nextDay = await trigger.poll();

			expect(beforeTheHour).toBeNull();
			expect(ids(atTheHour)).toEqual(recordIds('2024-05-10'));
			expect(atTheHour).toHaveLength(20);
			expect(laterThatDay).toBeNull();
			expect(ids(nextDay)).toEqual(recordIds('2024-05-11'));
			expect(reportRequests()).toEqual(['2024-05-10', '2024-05-11']);
		});

		it('emits at activation when the hour has passed, and not again after a restart the same day', async () => {
			setClock('2024-05-11T09:00:00Z');
			const { trigger, emitted } = await ActiveTrigger.activate(options(reportEvent()));
			setClock('2024-05-11T12:00:00Z');
			const { emitted: afterRestart } = await trigger.restart();

			expect(ids(emitted)).toEqual(recordIds('2024-05-10'));
			expect(afterRestart).toBeNull();
		});

		it.each([
			// 17:30 UTC: 05:30 of May 11 in Auckland (before the hour), 10:30 of May 10 in Los Angeles.
			['2024-05-10T17:30:00Z', 'Pacific/Auckland', null],
			['2024-05-10T17:30:00Z', 'America/Los_Angeles', '2024-05-09'],
			// 20:00 UTC: 08:00 of May 11 in Auckland, 13:00 of May 10 in Los Angeles.
			['2024-05-10T20:00:00Z', 'Pacific/Auckland', '2024-05-10'],
			['2024-05-10T20:00:00Z', 'America/Los_Angeles', '2024-05-09'],
			// 07:30 UTC: 19:30 of May 11 in Auckland, 00:30 of May 11 in Los Angeles (before the hour).
			['2024-05-11T07:30:00Z', 'Pacific/Auckland', '2024-05-10'],
			['2024-05-11T07:30:00Z', 'America/Los_Angeles', null],
		])(
			"at %s in %s, reports the day before the workflow's day: %s",
			async (now, timezone, expectedDate) => {
				setClock(now);
				const { emitted } = await ActiveTrigger.activate(options(reportEvent(), { timezone }));

				expect(ids(emitted)).toEqual(expectedDate ? recordIds(expectedDate) : []);
				expect(reportRequests()).toEqual(expectedDate ? [expectedDate] : []);
			},
		);

		it('emits each day once when the workflow timezone moves it back a day', async () => {
			setClock('2024-05-10T20:00:00Z');
			const { trigger } = await ActiveTrigger.activate(
				options(reportEvent(), { timezone: 'Pacific/Auckland' }),
			);
			const { emitted } = await trigger.restart({ timezone: 'America/Los_Angeles' });

			expect(emitted).toBeNull();
			expect(reportRequests()).toEqual(['2024-05-10']);
		});

		it('asks again at later polls of the day while the report is still empty', async () => {
			setClock('2024-05-11T06:30:00Z');
			const records = distances().get('2024-05-10') as DistanceRecord[];
			distances().set('2024-05-10', []);
			const { trigger, emitted: whileEmpty } = await ActiveTrigger.activate(options(reportEvent()));
			distances().set('2024-05-10', records);
			setClock('2024-05-11T06:31:00Z');
			const onceFilled = await trigger.poll();

			expect(whileEmpty).toBeNull();
			expect(ids(onceFilled)).toEqual(recordIds('2024-05-10'));
		});

		it("returns yesterday's records in a manual run at any hour, leaving the static data alone", async () => {
			setClock('2024-05-11T01:00:00Z');

			const { items, error, staticData } = await runTriggerManually(options(reportEvent()));

			expect(error).toBeUndefined();
			expect(ids(items)).toEqual(recordIds('2024-05-10'));
			expect(staticData).toEqual({});
		});

		describe('catching up on missed days', () => {
			const recordsOf = (...dates: string[]) => dates.flatMap(recordIds);
			const daysOf = (items: INodeExecutionData[] | null) =>
				(items ?? []).map((item) => String(item.json.date ?? item.json.reportDate).slice(0, 10));
			const answeredDays = () =>
				suite.sandbox.requests
					.filter((request) => request.status === 200)
					.map((request) => request.path.split('/').pop());
			/** Answers the day's report with 503, also to the trigger's retries, until removed. */
			const failDay = (date: string) => {
				const removeHook = suite.sandbox.onRequest((request) => {
					const failing = request.path.endsWith(`/${date}`);
					suite.sandbox.setOptions({ faults: failing ? { rate: 1, kinds: ['503'] } : null });
				});
				return () => {
					removeHook();
					suite.sandbox.setOptions({ faults: null });
				};
			};
			let seededDistances: Map<string, DistanceRecord[]>;
			beforeEach(() => {
				seededDistances ??= structuredClone(distances());
			});
			afterEach(() => {
				for (const [date, records] of structuredClone(seededDistances))
					distances().set(date, records);
			});

			it('after n8n was down for three days, the first poll after the hour emits the three missed days once each, oldest first', async () => {
				setClock('2024-05-08T07:00:00Z');
				const { trigger, emitted: atActivation } = await ActiveTrigger.activate(
					options(reportEvent()),
				);
				setClock('2024-05-11T05:00:00Z');
				const { trigger: restarted, emitted: backBeforeTheHour } = await trigger.restart();
				setClock('2024-05-11T06:00:00Z');
				const afterTheHour = await restarted.poll();
				setClock('2024-05-11T09:00:00Z');
				const later = await restarted.poll();

				expect(ids(atActivation)).toEqual(recordIds('2024-05-07'));
				expect(backBeforeTheHour).toBeNull();
				expect(ids(afterTheHour)).toEqual(recordsOf('2024-05-08', '2024-05-09', '2024-05-10'));
				expect(daysOf(afterTheHour)).toEqual([
					...Array(20).fill('2024-05-08'),
					...Array(20).fill('2024-05-09'),
					...Array(20).fill('2024-05-10'),
				]);
				expect(later).toBeNull();
				expect(reportRequests()).toEqual(['2024-05-07', '2024-05-08', '2024-05-09', '2024-05-10']);
			});

			it('starts from yesterday at activation: activated before the hour, then down, it emits from that day on', async () => {
				setClock('2024-05-09T05:00:00Z');
				const { trigger, emitted: atActivation } = await ActiveTrigger.activate(
					options(reportEvent()),
				);
				setClock('2024-05-11T07:00:00Z');

				const { emitted } = await trigger.restart();

				expect(atActivation).toBeNull();
				expect(ids(emitted)).toEqual(recordsOf('2024-05-08', '2024-05-09', '2024-05-10'));
				expect(reportRequests()).toEqual(['2024-05-08', '2024-05-09', '2024-05-10']);
			});

			it.each([
				[
					'7 by default',
					{},
					['03', '04', '05', '06', '07', '08', '09', '10'].map((day) => `2024-05-${day}`),
				],
				['0', { catchUpDays: 0 }, ['2024-05-10']],
				['2', { catchUpDays: 2 }, ['2024-05-08', '2024-05-09', '2024-05-10']],
			])(
				'goes back at most Catch Up Days (%s) before yesterday',
				async (_catchUpDays, catchUp, expectedDays) => {
					setClock('2024-05-01T07:00:00Z');
					const { trigger } = await ActiveTrigger.activate(
						options({ ...reportEvent(), options: catchUp }),
					);
					setClock('2024-05-11T07:00:00Z');

					const { emitted } = await trigger.restart();

					expect(ids(emitted)).toEqual(recordsOf(...expectedDays));
					expect(reportRequests()).toEqual(['2024-04-30', ...expectedDays]);
				},
			);

			it('asks again for a day that fails in the middle of a catch-up, emitting the days before it once and the days after it only after it', async () => {
				setClock('2024-05-08T07:00:00Z');
				const { trigger } = await ActiveTrigger.activate(options(reportEvent()));
				const removeFault = failDay('2024-05-09');
				let restarted: ActiveTrigger;
				let whileFailing: INodeExecutionData[] | null;
				let failedPoll: unknown;
				try {
					setClock('2024-05-11T06:30:00Z');
					({ trigger: restarted, emitted: whileFailing } = await trigger.restart());
					setClock('2024-05-11T06:45:00Z');
					failedPoll = await restarted.poll().catch((error: unknown) => error);
				} finally {
					removeFault();
				}
				setClock('2024-05-11T07:00:00Z');
				const onceAnswered = await restarted.poll();
				setClock('2024-05-11T08:00:00Z');
				const later = await restarted.poll();

				expect(ids(whileFailing)).toEqual(recordIds('2024-05-08'));
				expect(failedPoll).toBeInstanceOf(Error);
				expect((failedPoll as Error).message).toMatch(/503|service unavailable/i);
				expect(ids(onceAnswered)).toEqual(recordsOf('2024-05-09', '2024-05-10'));
				expect(later).toBeNull();
				expect(answeredDays()).toEqual(['2024-05-07', '2024-05-08', '2024-05-09', '2024-05-10']);
				expect(reportRequests().filter((day) => day === '2024-05-10')).toHaveLength(1);
			});

			it('asks again for days still empty, and passes over an empty day once a later day has records', async () => {
				setClock('2024-05-08T07:00:00Z');
				const { trigger } = await ActiveTrigger.activate(options(reportEvent()));
				distances().set('2024-05-09', []);
				distances().set('2024-05-10', []);
				setClock('2024-05-11T07:00:00Z');
				const { trigger: restarted, emitted: first } = await trigger.restart();
				setClock('2024-05-11T07:30:00Z');
				const whileEmpty = await restarted.poll();
				distances().set('2024-05-10', seededDistances.get('2024-05-10')!);
				setClock('2024-05-11T08:00:00Z');
				const onceALaterDayIsFilled = await restarted.poll();
				suite.sandbox.resetStats();
				setClock('2024-05-11T09:00:00Z');
				const later = await restarted.poll();

				expect(ids(first)).toEqual(recordIds('2024-05-08'));
				expect(whileEmpty).toBeNull();
				expect(ids(onceALaterDayIsFilled)).toEqual(recordIds('2024-05-10'));
				expect(later).toBeNull();
				expect(reportRequests()).toEqual([]);
			});

			it('gives each record its day as reportDate where the API sends no date', async () => {
				setClock('2024-05-09T07:00:00Z');
				const { trigger } = await ActiveTrigger.activate(options(reportEvent()));
				for (const record of distances().get('2024-05-09')!)
					delete (record as Partial<DistanceRecord>).date;
				setClock('2024-05-11T07:00:00Z');

				const { emitted } = await trigger.restart();

				expect(emitted?.map((item) => [item.json.date, item.json.reportDate])).toEqual([
					...Array(20).fill([undefined, '2024-05-09']),
					...Array(20).fill(['2024-05-10T00:00:00.000Z', undefined]),
				]);
			});

			it('emits every day once, in order, when n8n restarts from its saved static data before each poll', async () => {
				setClock('2024-05-03T03:00:00Z');
				let { trigger } = await ActiveTrigger.activate(options(reportEvent()));
				const emitted: INodeExecutionData[] = [];
				for (let at = Date.parse('2024-05-03T08:00:00Z'); at < Date.parse('2024-05-12');) {
					setClock(new Date(at).toISOString());
					const restarted = await trigger.restart();
					trigger = restarted.trigger;
					emitted.push(...(restarted.emitted ?? []));
					at += 5 * 60 * MINUTE_MS;
				}

				expect(ids(emitted)).toEqual(
					recordsOf(
						'2024-05-02',
						'2024-05-03',
						'2024-05-04',
						'2024-05-05',
						'2024-05-06',
						'2024-05-07',
						'2024-05-08',
						'2024-05-09',
						'2024-05-10',
					),
				);
			});

			it('refuses Catch Up Days outside 0-90', async () => {
				await expect(
					ActiveTrigger.activate(options({ ...reportEvent(), options: { catchUpDays: -1 } })),
				).rejects.toThrow("'Catch Up Days' must be a number from 0 to 90");
			});
		});

		it('refuses an hour outside 0-23', async () => {
			await expect(ActiveTrigger.activate(options(reportEvent(24)))).rejects.toThrow(
				"'Hour' must be a number from 0 to 23",
			);
		});
	});
});
