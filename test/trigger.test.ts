import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { advanceClock, setClock, useFakeDateOverSeededModels } from './harness/clock';
import { ActiveTrigger, runTriggerManually, type TriggerOptions } from './harness/poll';
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

	/** Changes a model as the API would on an edit: new name, updatedAt now. */
	function editModel(model: Model, name = `${model.name} (edited)`) {
		model.name = name;
		model.updatedAt = new Date().toISOString();
		return model;
	}

	function addModel(name: string): Model {
		const [sibling] = models();
		const now = new Date().toISOString();
		const model = { ...sibling, id: crypto.randomUUID(), name, updatedAt: now, createdAt: now };
		models().push(model);
		return model;
	}

	useFakeDateOverSeededModels(suite, '2024-05-12T08:00:00.000Z');

	describe('event: Equipment Model Created or Updated', () => {
		const modelEvent = (filters: Record<string, string> = {}): INodeParameters => ({
			event: 'equipmentModelUpdated',
			filters,
		});

		it('records a baseline at activation and emits nothing, after checking access with one model', async () => {
			const { trigger, emitted } = await ActiveTrigger.activate(options(modelEvent()));

			expect(emitted).toBeNull();
			expect(suite.sandbox.requests.map((request) => request.query)).toEqual([
				{ page: '1', limit: '1' },
			]);
			expect(trigger.savedStaticData).toEqual({
				'node:Equipment Rental Trigger': {
					equipmentModelUpdated: {
						previousPollStartedAt: '2024-05-12T08:00:00.000Z',
						seenSinceStart: {},
					},
				},
			});
		});

		it('emits a new model and an edited model once, asking for changes since the previous poll started', async () => {
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
				'2024-05-12T08:00:00.000Z',
				'2024-05-12T08:01:00.000Z',
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
				'2024-05-12T08:01:00.000Z',
				'2024-05-12T08:02:00.000Z',
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
					(request) => request.query.updatedAfter === '2024-05-12T08:00:00.000Z',
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
				'Authorization failed: the API did not accept the access token',
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

		it('refuses an hour outside 0-23', async () => {
			await expect(ActiveTrigger.activate(options(reportEvent(24)))).rejects.toThrow(
				"'Hour' must be a number from 0 to 23",
			);
		});
	});
});
