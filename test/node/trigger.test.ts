/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { MAX_REMEMBERED_RECORDS } from '../../nodes/EquipmentRentalTrigger/events/pollState';

import { advanceClock, setClock, useFakeDateOverSeededData } from '../harness/clock';
import {
	ActiveTrigger,
	runTriggerManually,
	TRIGGER_NODE_NAME,
	type TriggerOptions,
} from '../harness/poll';
import {
	editRecord,
	hideUpdatedAt,
	insertRecord,
	MASTER_DATA_KINDS,
	MODEL_KIND,
	type RecordKind,
	renameRecord,
	type StoredRecord,
	storedRecords,
} from '../harness/records';
import { useRedirectingServer } from '../harness/recordingServer';
import { TOKEN, useSandbox } from '../harness/sandbox';

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

	useFakeDateOverSeededData(suite, '2024-05-12T08:00:00.000Z');

	/**
	 * Twelve polls of `kind`'s event a minute apart, each after a change made just as the previous
	 * poll ended (inside the skew window), every third after a new record, every other one while a
	 * record changes during its read; then 25 minutes of polls without changes, past twice the
	 * overlap. Each record changes once, to a new name: the changes to emit, as "id name", with
	 * "created" or "updated" where the event tells which.
	 */
	async function pollThroughChanges(
		kind: RecordKind,
		timestamps: boolean,
		restartBeforeEachPoll: boolean,
	) {
		const stored = () => storedRecords(suite.sandbox, kind);
		const expected: string[] = [];
		const emitted: string[] = [];
		const describeChange = (record: Record<string, unknown>, changeType: unknown) =>
			[
				record.id,
				record[kind.nameField],
				...(kind.tellsCreatedFromUpdated ? [changeType] : []),
			].join(' ');
		const record = (changed: StoredRecord, changeType: string) => {
			if (!timestamps) hideUpdatedAt(changed);
			expected.push(describeChange(changed, changeType));
		};
		let unchanged = 0;
		const changeOne = () => {
			const changed = stored()[unchanged++];
			record(
				renameRecord(suite.sandbox, kind, changed, `${String(changed[kind.nameField])} v2`),
				'updated',
			);
		};
		if (!timestamps) stored().forEach(hideUpdatedAt);
		const template = stored()[0];

		let { trigger } = await ActiveTrigger.activate(options({ event: kind.event, filters: {} }));
		const pollOnce = async () => {
			if (!restartBeforeEachPoll) return await trigger.poll();
			const restarted = await trigger.restart();
			trigger = restarted.trigger;
			return restarted.emitted;
		};
		let changeWhileReading = false;
		const removeHook = suite.sandbox.onRequest((request) => {
			if (!changeWhileReading || request.path !== kind.path) return;
			changeWhileReading = false;
			changeOne();
		});
		const collect = (items: INodeExecutionData[] | null) =>
			emitted.push(...(items ?? []).map(({ json }) => describeChange(json, json.changeType)));
		try {
			for (let round = 0; round < 12; round++) {
				// In the very millisecond the previous poll ended: the edge of the skew window.
				changeOne();
				advanceClock(MINUTE_MS / 2);
				if (round % 3 === 0)
					record(insertRecord(suite.sandbox, kind, template, `Aardvark ${round}`), 'created');
				advanceClock(MINUTE_MS / 2);
				changeWhileReading = round % 2 === 1;
				collect(await pollOnce());
			}
			for (let minute = 0; minute < 25; minute++) {
				advanceClock(MINUTE_MS);
				collect(await pollOnce());
			}
		} finally {
			removeHook();
		}
		return { expected, emitted };
	}

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
							MODEL_KIND,
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
			).rejects.toThrow("'Overlap (Minutes)' must be a number written as 1,234.56, from 1 to 1440");
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
				readFileSync(
					join(__dirname, '..', 'fixtures', 'model-event-static-data-c2ba73f.json'),
					'utf8',
				),
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

	describe.each(MASTER_DATA_KINDS)('event: $name', (kind) => {
		const stored = () => storedRecords(suite.sandbox, kind);
		const event = (filters: Record<string, string> = {}): INodeParameters => ({
			event: kind.event,
			filters,
		});
		const listRequests = () =>
			suite.sandbox.requests.filter((request) => request.path === kind.path);
		const rename = (record: StoredRecord) => renameRecord(suite.sandbox, kind, record);
		const insert = (name: string) => insertRecord(suite.sandbox, kind, stored()[0], name);
		const changes = (items: INodeExecutionData[] | null) =>
			(items ?? []).map(({ json }) => `${json.id} ${json.changeType}`).sort();
		/** The records of the list as the API answers them (not logged as the trigger's requests). */
		const answered = async (query = '') => {
			const response = await fetch(`${suite.sandbox.url}${kind.path}?limit=1000${query}`, {
				headers: { authorization: `Bearer ${TOKEN}` },
			});
			const page = (await response.json()) as { content: IDataObject[] };
			suite.sandbox.requests.pop();
			return page.content;
		};

		it('records a baseline at activation and emits nothing, then emits each record created or updated since once, telling which, as the list answers it', async () => {
			advanceClock(-5 * MINUTE_MS);
			const changedBefore = rename(stored()[4]);
			advanceClock(5 * MINUTE_MS);
			const { trigger, emitted: atActivation } = await ActiveTrigger.activate(options(event()));
			advanceClock(MINUTE_MS);
			const created = insert('Aardvark 100');
			const updated = rename(stored()[7]);

			const emitted = await trigger.poll();
			advanceClock(MINUTE_MS);
			const nextPoll = await trigger.poll();

			expect(atActivation).toBeNull();
			expect(changes(emitted)).toEqual([`${created.id} created`, `${updated.id} updated`].sort());
			expect(ids(emitted)).not.toContain(changedBefore.id);
			expect(nextPoll).toBeNull();
			expect(listRequests().map((request) => request.query.updatedAfter)).toEqual([
				'2024-05-12T07:49:59.999Z',
				'2024-05-12T07:54:59.999Z',
				'2024-05-12T08:00:59.999Z',
			]);
			const answers = new Map((await answered()).map((record) => [record.id, record]));
			expect(emitted?.map(({ json }) => json)).toEqual(
				emitted?.map(({ json }) => ({ ...answers.get(json.id), changeType: json.changeType })),
			);
		});

		it('emits a record created and changed again before the poll once, as created; its next change as updated', async () => {
			const { trigger } = await ActiveTrigger.activate(options(event()));
			advanceClock(MINUTE_MS);
			const created = insert('Aardvark 100');
			advanceClock(1000);
			rename(created);
			const first = await trigger.poll();
			advanceClock(MINUTE_MS);
			rename(created);
			const second = await trigger.poll();

			expect(changes(first)).toEqual([`${created.id} created`]);
			expect(first?.[0].json[kind.nameField]).toBe('Aardvark 100 (edited)');
			expect(changes(second)).toEqual([`${created.id} updated`]);
		});

		it('tells a record it emitted as created that changes again as updated, also when a slow read makes the next poll ask from before its creation', async () => {
			const { trigger } = await ActiveTrigger.activate(options(event()));
			advanceClock(MINUTE_MS);
			const created = insert('Aardvark 100');
			const removeHook = suite.sandbox.onRequest(() => advanceClock(5000));
			const slowRead = await trigger.poll();
			removeHook();
			advanceClock(MINUTE_MS);
			rename(created);

			const nextPoll = await trigger.poll();

			expect(changes(slowRead)).toEqual([`${created.id} created`]);
			expect(Date.parse(String(listRequests().at(-1)!.query.updatedAfter))).toBeLessThan(
				Date.parse(created.createdAt),
			);
			expect(changes(nextPoll)).toEqual([`${created.id} updated`]);
		});

		it('emits records changed in the same millisecond across a page boundary and across polls, each once', async () => {
			const { trigger } = await ActiveTrigger.activate(options(event()));
			advanceClock(MINUTE_MS);
			suite.sandbox.setOptions({ maxPageSize: 2 });
			// The fake clock stands still: all these changes carry the same updatedAt, over three pages.
			const sameMoment = stored()
				.slice(10, 15)
				.map((record) => rename(record).id);
			const firstPoll = await trigger.poll();
			const sameMomentLater = rename(stored()[20]);
			advanceClock(MINUTE_MS);

			const secondPoll = await trigger.poll();

			expect(ids(firstPoll).sort()).toEqual([...sameMoment].sort());
			expect(listRequests().map((request) => request.query.page)).toContain('3');
			expect(sameMomentLater.updatedAt).toBe(stored()[10].updatedAt);
			expect(ids(secondPoll)).toEqual([sameMomentLater.id]);
		});

		it.each([
			[-10, 'polled by one running workflow', false],
			[10, 'polled by one running workflow', false],
			[-10, 'restarted from saved static data before each poll', true],
			[0, 'restarted from saved static data before each poll', true],
			[10, 'restarted from saved static data before each poll', true],
		])(
			"with the API's clock %i minutes off n8n's, %s: every change emitted once, created or updated",
			async (skewMinutes, _how, restartBeforeEachPoll) => {
				suite.sandbox.setOptions({ clockOffsetMs: skewMinutes * MINUTE_MS });

				const { expected, emitted } = await pollThroughChanges(kind, true, restartBeforeEachPoll);

				expect(expected).toHaveLength(22);
				expect(expected.filter((change) => change.endsWith(' created'))).toHaveLength(4);
				expect(emitted.sort()).toEqual(expected.sort());
			},
		);

		it('sends its filters on every request, and emits only the records they match', async () => {
			const query = Object.entries(kind.filters)
				.map(([name, value]) => `&${name}=${value}`)
				.join('');
			const matching = new Set((await answered(query)).map((record) => record.id));
			const { trigger } = await ActiveTrigger.activate(options(event(kind.filters)));
			advanceClock(MINUTE_MS);
			const touched = [
				stored().find((record) => matching.has(record.id))!,
				stored().find((record) => !matching.has(record.id))!,
			].map((record) => editRecord(suite.sandbox, record));

			const emitted = await trigger.poll();

			expect(ids(emitted)).toEqual([touched[0].id]);
			expect(listRequests()).toHaveLength(2);
			for (const request of listRequests()) expect(request.query).toMatchObject(kind.filters);
		});

		it('returns the five most recently changed records in a manual run, newest first, each telling created or updated, leaving the static data alone', async () => {
			const created = insert('Aardvark 100');
			advanceClock(1);
			const updated = rename(stored()[2]);
			const newest = [...stored()]
				.sort((left, right) => Date.parse(right.updatedAt) - Date.parse(left.updatedAt))
				.slice(0, 5)
				.map((record) => record.id);

			const { items, error, staticData } = await runTriggerManually(options(event()));

			expect(error).toBeUndefined();
			expect(ids(items)).toEqual(newest);
			expect(changes(items.slice(0, 2))).toEqual(
				[`${created.id} created`, `${updated.id} updated`].sort(),
			);
			expect(
				items.every((item) => ['created', 'updated'].includes(String(item.json.changeType))),
			).toBe(true);
			expect(staticData).toEqual({});
			expect(listRequests().length).toBeLessThanOrEqual(4);
		});
	});

	describe('changeType on records the API shows it for', () => {
		const clientKind = MASTER_DATA_KINDS[0];
		const clients = () => storedRecords(suite.sandbox, clientKind);

		it("leaves a record's own changeType field as the API sent it, and adds none where the record shows no createdAt", async () => {
			const { trigger } = await ActiveTrigger.activate(
				options({ event: clientKind.event, filters: {} }),
			);
			advanceClock(MINUTE_MS);
			const [withOwnField, withoutCreatedAt, plain] = clients().slice(3, 6);
			editRecord(suite.sandbox, withOwnField, { changeType: 'MERGED' });
			editRecord(suite.sandbox, withoutCreatedAt);
			Object.defineProperty(withoutCreatedAt, 'createdAt', {
				value: withoutCreatedAt.createdAt,
				enumerable: false,
			});
			editRecord(suite.sandbox, plain);

			const emitted = await trigger.poll();

			const changeTypes = new Map(emitted?.map(({ json }) => [json.id, json.changeType]));
			expect([...changeTypes.entries()].sort()).toEqual(
				[
					[withOwnField.id, 'MERGED'],
					[withoutCreatedAt.id, undefined],
					[plain.id, 'updated'],
				].sort(),
			);
		});

		it("refuses a contract's Client ID that is not a UUID before sending anything", async () => {
			await expect(
				ActiveTrigger.activate(
					options({ event: 'contractUpdated', filters: { clientId: 'acme' } }),
				),
			).rejects.toThrow("'Client ID' must be a UUID such as 3f6c2a5e-8b1d-4c7a-9e2f-1a2b3c4d5e6f");
			expect(suite.sandbox.requests).toEqual([]);
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
				).rejects.toThrow("'Catch Up Days' must be a number written as 1,234.56, from 0 to 90");
			});
		});

		it('refuses an hour outside 0-23', async () => {
			await expect(ActiveTrigger.activate(options(reportEvent(24)))).rejects.toThrow(
				"'Hour' must be a number written as 1,234.56, from 0 to 23",
			);
		});
	});
});
