/**
 * Daily reports readable in a sheet (issue 25, point 5): Options > Output "Readable (for Sheets)" of
 * Equipment Distance, Usage and Working Time > Get and of the trigger's three daily events gives
 * hours, the equipment's title and inventory number, the site's type and cost center, local times
 * and one equipment ID; "Raw (as the API Answers)", the default, leaves the records as they were.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { setClock, useFakeDateOverSeededData } from './harness/clock';
import { ActiveTrigger, runTriggerManually } from './harness/poll';
import { TOKEN, useSandbox } from './harness/sandbox';

const TODAY = '2024-05-12';
const DAY = '2024-05-11';
const EQUIPMENTS_PATH = '/master-data/v1/equipment-management/equipments';
const READABLE: INodeParameters = { output: 'readable' };

interface Unit {
	id: string;
	title: string;
	invNumber: string | null;
}
type Records = Map<string, IDataObject[]>;

describe('Readable daily reports', () => {
	const suite = useSandbox({ models: 20, equipment: 30, today: TODAY });
	const store = () =>
		suite.sandbox.store as unknown as {
			equipment: Unit[];
			distances: Records;
			equipmentUsage: Records;
			workingHours: Records;
		};
	const unit = (id: unknown) => store().equipment.find((candidate) => candidate.id === id)!;
	const paths = () => suite.sandbox.requests.map((request) => request.path);
	const equipmentPages = () =>
		suite.sandbox.requests
			.filter((request) => request.path === EQUIPMENTS_PATH)
			.map((request) => request.query.page);

	/** Runs `changes` on a copy of the seeded data; the seeded data is back after the test. */
	let restore: Array<() => void> = [];
	afterEach(() => {
		restore.forEach((undo) => undo());
		restore = [];
	});
	function changeRecords(records: Records, day: string, change: (copy: IDataObject[]) => void) {
		const seeded = records.get(day)!;
		const copy = structuredClone(seeded);
		change(copy);
		records.set(day, copy);
		restore.push(() => records.set(day, seeded));
	}
	function withoutUnit(id: string) {
		const seeded = [...store().equipment];
		store().equipment.splice(
			store().equipment.findIndex((candidate) => candidate.id === id),
			1,
		);
		restore.push(() => store().equipment.splice(0, store().equipment.length, ...seeded));
	}

	/** Answers the equipment list with 403 until the returned function is called. */
	function failEquipmentList(): () => void {
		const removeHook = suite.sandbox.onRequest((request) => {
			suite.sandbox.setOptions({
				faults: request.path === EQUIPMENTS_PATH ? { rate: 1, kinds: ['403'] } : null,
			});
		});
		return () => {
			removeHook();
			suite.sandbox.setOptions({ faults: null });
		};
	}

	const run = async (resource: string, options: INodeParameters = READABLE, timezone = 'UTC') => {
		const { items, error } = await suite.run(
			{ resource, operation: 'get', date: DAY, options },
			{ timezone },
		);
		expect(error).toBeUndefined();
		return items.map((item) => item.json);
	};

	describe('the node', () => {
		it('Usage: one row per equipment and site, in hours, with the title, inventory number, site type and cost center', async () => {
			changeRecords(store().equipmentUsage, DAY, (records) => {
				// The reference's example duration, and an hour and a half.
				records[0].duration = 12_345_000;
				records[1].duration = 5_400_000;
			});
			const records = store().equipmentUsage.get(DAY)!;

			const rows = await run('equipmentUsage');

			expect(rows).toEqual(
				records.map((record) => {
					const equipment = record.equipment as IDataObject;
					const site = record.site as IDataObject;
					return {
						date: DAY,
						equipmentTitle: unit(equipment.id).title,
						inventoryNumber: equipment.invNumber,
						siteType: site.type,
						siteCostCenter: site.costCenter,
						usageHours: Number(((record.duration as number) / 3_600_000).toFixed(2)),
						siteId: site.id,
						equipmentId: equipment.id,
					};
				}),
			);
			expect(rows.slice(0, 2).map((row) => row.usageHours)).toEqual([3.43, 1.5]);
			expect(rows.some((row) => row.inventoryNumber === null)).toBe(true);
			expect(paths()).toEqual([`/analytics/v1/equipment-usage/${DAY}`, EQUIPMENTS_PATH]);
		});

		it("Working Time: start and end as local text in the workflow's timezone, hours, no record ID", async () => {
			changeRecords(store().workingHours, DAY, (records) => {
				Object.assign(records[0], {
					start: `${DAY}T06:00:00.000Z`,
					end: `${TODAY}T00:00:00.000Z`,
					duration: 18 * 3_600_000,
				});
			});
			const [record] = store().workingHours.get(DAY)!;
			const equipment = record.equipment as IDataObject;

			const rows = await run('equipmentWorkingHours', READABLE, 'Europe/Berlin');

			expect(rows[0]).toEqual({
				date: DAY,
				equipmentTitle: unit(equipment.id).title,
				inventoryNumber: equipment.invNumber,
				start: '2024-05-11 08:00',
				end: '2024-05-12 02:00',
				workingHours: 18,
				equipmentId: equipment.id,
			});
			expect(rows).toHaveLength(store().workingHours.get(DAY)!.length);
			for (const row of rows) {
				expect(row.start).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
				expect(row.end).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
			}
		});

		it('Distance: the day, the title, the inventory number and kilometers, no distance kept empty', async () => {
			const records = store().distances.get(DAY)!;

			const rows = await run('equipmentDistance');

			expect(rows).toEqual(
				records.map((record) => ({
					date: DAY,
					equipmentTitle: unit(record.equipmentId).title,
					inventoryNumber: (record.equipment as IDataObject).invNumber,
					distanceKm: record.distance,
					equipmentId: record.equipmentId,
				})),
			);
			expect(rows.some((row) => row.distanceKm === null)).toBe(true);
		});

		it('reads the equipment list whole, every page once, for all the records of the day', async () => {
			suite.sandbox.setOptions({ maxPageSize: 8 });
			try {
				const rows = await run('equipmentUsage');

				expect(rows.every((row) => typeof row.equipmentTitle === 'string')).toBe(true);
				expect(equipmentPages()).toEqual(['1', '2', '3', '4']);
			} finally {
				suite.sandbox.setOptions({ maxPageSize: undefined });
			}
		});

		it('keeps the row of a piece of equipment no longer in the equipment list, without a title', async () => {
			const [record] = store().workingHours.get(DAY)!;
			const equipment = record.equipment as IDataObject;
			withoutUnit(equipment.id as string);

			const [row] = await run('equipmentWorkingHours');

			expect(row).toMatchObject({
				equipmentTitle: null,
				inventoryNumber: equipment.invNumber,
				equipmentId: equipment.id,
			});
		});

		it('fails the item, saying so, when the equipment list cannot be read, and outputs no part of the report', async () => {
			const removeFault = failEquipmentList();
			try {
				const { items, error } = await suite.run({
					resource: 'equipmentUsage',
					operation: 'get',
					date: DAY,
					options: READABLE,
				});

				expect(items).toEqual([]);
				expect(error?.message).toMatch(
					/^Could not read the equipment list for the readable output: .*HTTP 403/,
				);
				expect(error?.description).toMatch(
					/Set Options > Output to 'Raw \(as the API Answers\)' to get the report without it/,
				);
			} finally {
				removeFault();
			}
		});

		it('reads no equipment list for a day without records', async () => {
			const { items, error } = await suite.run({
				resource: 'equipmentUsage',
				operation: 'get',
				date: '2001-01-01',
				options: READABLE,
			});

			expect(error).toBeUndefined();
			expect(items).toEqual([]);
			expect(paths()).toEqual(['/analytics/v1/equipment-usage/2001-01-01']);
		});

		it.each(['equipmentDistance', 'equipmentUsage', 'equipmentWorkingHours'])(
			'%s: without Options > Output, and with Raw, outputs the records as the API answers them, as saved workflows did',
			async (resource) => {
				const records = {
					equipmentDistance: store().distances,
					equipmentUsage: store().equipmentUsage,
					equipmentWorkingHours: store().workingHours,
				}[resource]!.get(DAY);

				expect(await run(resource, {})).toEqual(records);
				expect(await run(resource, { output: 'raw' })).toEqual(records);
				expect(paths().some((path) => path === EQUIPMENTS_PATH)).toBe(false);
			},
		);

		it('refuses an Output it does not know before sending anything', async () => {
			const { error } = await suite.run({
				resource: 'equipmentUsage',
				operation: 'get',
				date: DAY,
				options: { output: 'pretty' },
			});

			expect(error?.message).toMatch(/'Output' must be one of raw, readable/);
			expect(suite.sandbox.requests).toHaveLength(0);
		});
	});

	describe('the trigger', () => {
		useFakeDateOverSeededData(suite, `${TODAY}T08:00:00.000Z`);
		const triggerOptions = (event: string, options: INodeParameters = READABLE) => ({
			parameters: { event, hour: 6, options } as INodeParameters,
			credentials: { baseUrl: suite.sandbox.url, accessToken: TOKEN },
			timezone: 'Europe/Berlin',
		});

		it('Daily Usage Report: the rows of every day caught up, each with its day, after one read of the equipment list', async () => {
			setClock('2024-05-09T07:00:00Z');
			const { trigger } = await ActiveTrigger.activate(triggerOptions('dailyUsageReport'));
			suite.sandbox.resetStats();
			setClock('2024-05-12T07:00:00Z');

			const emitted = (await trigger.poll())!.map((item) => item.json);

			const days = ['2024-05-09', '2024-05-10', '2024-05-11'];
			expect(emitted.map((row) => row.date)).toEqual(
				days.flatMap((day) =>
					store()
						.equipmentUsage.get(day)!
						.map(() => day),
				),
			);
			expect(emitted.map((row) => row.usageHours)).toEqual(
				days.flatMap((day) =>
					store()
						.equipmentUsage.get(day)!
						.map((record) => Number(((record.duration as number) / 3_600_000).toFixed(2))),
				),
			);
			expect(emitted.every((row) => row.equipmentTitle === unit(row.equipmentId).title)).toBe(true);
			expect(paths()).toEqual([
				...days.map((day) => `/analytics/v1/equipment-usage/${day}`),
				EQUIPMENTS_PATH,
			]);
		});

		it('Daily Working Hours Report: a poll whose equipment list fails emits nothing and takes no day as done; the next poll emits it', async () => {
			setClock('2024-05-11T07:00:00Z');
			const { trigger } = await ActiveTrigger.activate(triggerOptions('dailyWorkingHoursReport'));
			setClock('2024-05-12T07:00:00Z');
			const removeFault = failEquipmentList();
			const failed = await trigger.poll().catch((error: Error) => error);
			removeFault();

			const next = await trigger.poll();

			expect(failed).toBeInstanceOf(Error);
			expect((failed as Error).message).toMatch(/equipment list for the readable output/);
			expect(next?.map((item) => [item.json.date, item.json.equipmentId])).toEqual(
				store()
					.workingHours.get(DAY)!
					.map((record) => [DAY, record.equipmentId]),
			);
			expect(next?.[0].json.start).toMatch(/^2024-05-1[12] \d{2}:\d{2}$/);
		});

		it('Daily Distance Report: Fetch Test Event gives yesterday readable', async () => {
			const { items, error } = await runTriggerManually(triggerOptions('dailyDistanceReport'));

			expect(error).toBeUndefined();
			expect(items.map((item) => item.json)).toEqual(
				store()
					.distances.get(DAY)!
					.map((record) => ({
						date: DAY,
						equipmentTitle: unit(record.equipmentId).title,
						inventoryNumber: (record.equipment as IDataObject).invNumber,
						distanceKm: record.distance,
						equipmentId: record.equipmentId,
					})),
			);
		});

		it.each(['dailyDistanceReport', 'dailyUsageReport', 'dailyWorkingHoursReport'])(
			'%s: without Options > Output, emits the records as the API answers them, as saved workflows did',
			async (event) => {
				const { items } = await runTriggerManually(triggerOptions(event, { catchUpDays: 7 }));

				expect(items.length).toBeGreaterThan(0);
				expect(items.every((item) => item.json.equipment !== undefined)).toBe(true);
				expect(paths().some((path) => path === EQUIPMENTS_PATH)).toBe(false);
			},
		);
	});
});
