/**
 * Daily reports readable in a sheet (issue 25, point 5): Options > Output "Readable (for Sheets)" of
 * Equipment Distance, Usage and Working Time > Get and of the trigger's three daily events gives
 * hours, the equipment's title and inventory number, the site's type and cost center, local times
 * and one equipment ID; "Raw (as the API Answers)", the default, leaves the records as they were.
 *
 * Daily reports in the workflow's days (issue 35, point 2): the API reports UTC days. Readable
 * working time is the workflow's day, cut from the UTC days that overlap it, so that a row's date
 * and its local times agree; usage and distance, figures per UTC day without times, say so in
 * `dateUtc`.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { setClock, useFakeDateOverSeededData } from '../harness/clock';
import { ActiveTrigger, runTriggerManually } from '../harness/poll';
import { TOKEN, useSandbox } from '../harness/sandbox';

const TODAY = '2024-05-12';
const DAY = '2024-05-11';
const DAY_BEFORE = '2024-05-10';
const WORKING_HOURS_PATH = '/analytics/v1/equipment-working-hours';
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

	/**
	 * Sets the records of the piece of equipment at `unitIndex` on the API's `day` (UTC) to `shifts`,
	 * each [start, end] in UTC (none: no record that day); its ID.
	 */
	function setShifts(day: string, unitIndex: number, shifts: Array<[string, string]>) {
		let equipmentId: unknown;
		changeRecords(store().workingHours, day, (records) => {
			const [record] = records.splice(unitIndex, 1);
			equipmentId = record.equipmentId;
			records.splice(
				unitIndex,
				0,
				...shifts.map(([start, end], index) => ({
					...record,
					id: `${record.id as string}-${index}`,
					start,
					end,
					duration: Date.parse(end) - Date.parse(start),
				})),
			);
		});
		return equipmentId;
	}
	const rowsOf = (rows: IDataObject[], equipmentId: unknown) =>
		rows
			.filter((row) => row.equipmentId === equipmentId)
			.map(({ date, start, end, workingHours }) => ({ date, start, end, workingHours }));

	/** Answers `path` with 403 until the returned function is called. */
	function failPath(path: string): () => void {
		const removeHook = suite.sandbox.onRequest((request) => {
			suite.sandbox.setOptions({
				faults: request.path === path ? { rate: 1, kinds: ['403'] } : null,
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
		it('Usage: one row per equipment and site, in hours, with the title, inventory number, site type and cost center, and the UTC day it totals in dateUtc', async () => {
			changeRecords(store().equipmentUsage, DAY, (records) => {
				// The reference's example duration, and an hour and a half.
				records[0].duration = 12_345_000;
				records[1].duration = 5_400_000;
			});
			const records = store().equipmentUsage.get(DAY)!;

			const rows = await run('equipmentUsage', READABLE, 'Asia/Tokyo');

			expect(rows).toEqual(
				records.map((record) => {
					const equipment = record.equipment as IDataObject;
					const site = record.site as IDataObject;
					return {
						dateUtc: DAY,
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

		it("Working Time: a row is the day, the equipment's title and inventory number, local start and end, hours and the equipment's ID, without the record's ID", async () => {
			setShifts(DAY_BEFORE, 0, []);
			const equipmentId = setShifts(DAY, 0, [['2024-05-11T06:00:00Z', '2024-05-11T14:30:00Z']]);
			const [record] = store().workingHours.get(DAY)!;

			const rows = await run('equipmentWorkingHours', READABLE, 'Europe/Berlin');

			expect(rows.filter((row) => row.equipmentId === equipmentId)).toEqual([
				{
					date: DAY,
					equipmentTitle: unit(equipmentId).title,
					inventoryNumber: (record.equipment as IDataObject).invNumber,
					start: '2024-05-11 08:00',
					end: '2024-05-11 16:30',
					workingHours: 8.5,
					equipmentId,
				},
			]);
		});

		it('Working Time under Europe/Berlin: the day in Berlin, cut at local midnight, and a shift the API split at 00:00 UTC joined again', async () => {
			// A shift from 22:00 to 04:00 Berlin time (UTC+2 in May), which the API splits at 00:00 UTC
			// (02:00 Berlin), and one from 21:00 that runs past Berlin's midnight.
			const equipmentId = setShifts(DAY_BEFORE, 0, [
				['2024-05-10T20:00:00Z', '2024-05-11T00:00:00Z'],
			]);
			setShifts(DAY, 0, [
				['2024-05-11T00:00:00Z', '2024-05-11T02:00:00Z'],
				['2024-05-11T19:00:00Z', '2024-05-12T00:00:00Z'],
			]);

			const rows = await run('equipmentWorkingHours', READABLE, 'Europe/Berlin');

			expect(paths()).toEqual([
				`${WORKING_HOURS_PATH}/${DAY_BEFORE}`,
				`${WORKING_HOURS_PATH}/${DAY}`,
				EQUIPMENTS_PATH,
			]);
			expect(rowsOf(rows, equipmentId)).toEqual([
				{ date: DAY, start: '2024-05-11 00:00', end: '2024-05-11 04:00', workingHours: 4 },
				{ date: DAY, start: '2024-05-11 21:00', end: '2024-05-12 00:00', workingHours: 3 },
			]);
		});

		it('Working Time under Asia/Tokyo: the day in Tokyo, from the two UTC days that overlap it, cut at local midnight', async () => {
			// Tokyo is UTC+9: its 2024-05-11 runs from 2024-05-10T15:00Z to 2024-05-11T15:00Z.
			const equipmentId = setShifts(DAY_BEFORE, 3, [
				['2024-05-10T13:00:00Z', '2024-05-10T18:00:00Z'],
			]);
			setShifts(DAY, 3, [['2024-05-11T14:00:00Z', '2024-05-11T16:30:00Z']]);

			const rows = await run('equipmentWorkingHours', READABLE, 'Asia/Tokyo');

			expect(paths()).toEqual([
				`${WORKING_HOURS_PATH}/${DAY_BEFORE}`,
				`${WORKING_HOURS_PATH}/${DAY}`,
				EQUIPMENTS_PATH,
			]);
			expect(rowsOf(rows, equipmentId)).toEqual([
				{ date: DAY, start: '2024-05-11 00:00', end: '2024-05-11 03:00', workingHours: 3 },
				{ date: DAY, start: '2024-05-11 23:00', end: '2024-05-12 00:00', workingHours: 1 },
			]);
		});

		it.each([
			['Europe/Berlin', [DAY_BEFORE, DAY], 2],
			['Asia/Tokyo', [DAY_BEFORE, DAY], 9],
			['America/New_York', [DAY, TODAY], -4],
			['UTC', [DAY], 0],
		])(
			'Working Time under %s: every row starts on its date and ends by the next 00:00, and the hours are those the API reports within that day',
			async (timezone, apiDays, offsetHours) => {
				const from = Date.parse(`${DAY}T00:00:00Z`) - offsetHours * 3_600_000;
				const until = from + 24 * 3_600_000;
				const overlap = (record: IDataObject) =>
					Math.max(
						0,
						Math.min(Date.parse(record.end as string), until) -
							Math.max(Date.parse(record.start as string), from),
					);
				const reported = apiDays.flatMap((day) => store().workingHours.get(day) ?? []);

				const rows = await run('equipmentWorkingHours', READABLE, timezone);

				expect(paths()).toEqual([
					...apiDays.map((day) => `${WORKING_HOURS_PATH}/${day}`),
					EQUIPMENTS_PATH,
				]);
				const nextMidnight = `${TODAY} 00:00`;
				for (const row of rows) {
					expect([row.date, (row.start as string).slice(0, 10)]).toEqual([DAY, DAY]);
					expect((row.end as string) > (row.start as string)).toBe(true);
					expect((row.end as string) <= nextMidnight).toBe(true);
				}
				const hours = rows.reduce((sum, row) => sum + (row.workingHours as number), 0);
				const reportedHours =
					reported.reduce((sum, record) => sum + overlap(record), 0) / 3_600_000;
				expect(Math.abs(hours - reportedHours)).toBeLessThanOrEqual(rows.length * 0.005);
				expect(rows.length).toBeGreaterThan(0);
			},
		);

		it('Working Time: a day read in two requests fails whole when one of them fails, and outputs no row', async () => {
			const removeFault = failPath(`${WORKING_HOURS_PATH}/${DAY}`);
			try {
				const { items, error } = await suite.run(
					{ resource: 'equipmentWorkingHours', operation: 'get', date: DAY, options: READABLE },
					{ timezone: 'Europe/Berlin' },
				);

				expect(items).toEqual([]);
				expect(error?.message).toMatch(/HTTP 403/);
				expect(paths()).toEqual([
					`${WORKING_HOURS_PATH}/${DAY_BEFORE}`,
					`${WORKING_HOURS_PATH}/${DAY}`,
				]);
			} finally {
				removeFault();
			}
		});

		it('Distance: the UTC day in dateUtc, the title, the inventory number and kilometers, no distance kept empty', async () => {
			const records = store().distances.get(DAY)!;

			const rows = await run('equipmentDistance', READABLE, 'Europe/Berlin');

			expect(paths()).toEqual([`/analytics/v1/equipment-distance/${DAY}`, EQUIPMENTS_PATH]);
			expect(rows).toEqual(
				records.map((record) => ({
					dateUtc: DAY,
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
			const removeFault = failPath(EQUIPMENTS_PATH);
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
		const triggerOptions = (
			event: string,
			options: INodeParameters = READABLE,
			timezone = 'Europe/Berlin',
		) => ({
			parameters: { event, hour: 6, options } as INodeParameters,
			credentials: { baseUrl: suite.sandbox.url, accessToken: TOKEN },
			timezone,
		});

		it("Daily Working Hours Report under Asia/Tokyo: emits yesterday in Tokyo, read from the two UTC days that overlap it, each row's times on its date", async () => {
			const equipmentId = setShifts(DAY_BEFORE, 3, [
				['2024-05-10T13:00:00Z', '2024-05-10T18:00:00Z'],
			]);
			// 07:00 on 2024-05-12 in Tokyo: yesterday there is 2024-05-11.
			setClock('2024-05-11T22:00:00Z');

			const { emitted } = await ActiveTrigger.activate(
				triggerOptions('dailyWorkingHoursReport', READABLE, 'Asia/Tokyo'),
			);

			expect(paths()).toEqual([
				`${WORKING_HOURS_PATH}/${DAY_BEFORE}`,
				`${WORKING_HOURS_PATH}/${DAY}`,
				EQUIPMENTS_PATH,
			]);
			const rows = (emitted ?? []).map((item) => item.json);
			expect(rowsOf(rows, equipmentId)[0]).toEqual({
				date: DAY,
				start: '2024-05-11 00:00',
				end: '2024-05-11 03:00',
				workingHours: 3,
			});
			for (const row of rows) {
				expect([row.date, (row.start as string).slice(0, 10)]).toEqual([DAY, DAY]);
				expect((row.end as string) <= `${TODAY} 00:00`).toBe(true);
			}
		});

		it('Daily Working Hours Report: a day one of whose two requests fails is not emitted; the next poll emits it whole', async () => {
			// 22:00 to 02:00 Berlin time, split by the API at 00:00 UTC (02:00 Berlin, UTC+2 in May).
			const equipmentId = setShifts(DAY_BEFORE, 0, [
				['2024-05-10T20:00:00Z', '2024-05-11T00:00:00Z'],
			]);
			setShifts(DAY, 0, [['2024-05-11T06:00:00Z', '2024-05-11T10:00:00Z']]);
			setClock('2024-05-11T07:00:00Z');
			const { trigger } = await ActiveTrigger.activate(triggerOptions('dailyWorkingHoursReport'));
			setClock('2024-05-12T07:00:00Z');
			suite.sandbox.resetStats();
			const removeFault = failPath(`${WORKING_HOURS_PATH}/${DAY}`);
			const failed = await trigger.poll().catch((error: Error) => error);
			removeFault();

			const next = await trigger.poll();

			expect(failed).toBeInstanceOf(Error);
			expect((failed as Error).message).toMatch(/HTTP 403/);
			const rows = (next ?? []).map((item) => item.json);
			expect(rowsOf(rows, equipmentId)).toEqual([
				{ date: DAY, start: '2024-05-11 00:00', end: '2024-05-11 02:00', workingHours: 2 },
				{ date: DAY, start: '2024-05-11 08:00', end: '2024-05-11 12:00', workingHours: 4 },
			]);
			expect(rows.every((row) => row.date === DAY)).toBe(true);
			expect(paths()).toEqual([
				`${WORKING_HOURS_PATH}/${DAY_BEFORE}`,
				`${WORKING_HOURS_PATH}/${DAY}`,
				`${WORKING_HOURS_PATH}/${DAY_BEFORE}`,
				`${WORKING_HOURS_PATH}/${DAY}`,
				EQUIPMENTS_PATH,
			]);
		});

		it('Daily Usage Report: the rows of every day caught up, each with its day, after one read of the equipment list', async () => {
			setClock('2024-05-09T07:00:00Z');
			const { trigger } = await ActiveTrigger.activate(triggerOptions('dailyUsageReport'));
			suite.sandbox.resetStats();
			setClock('2024-05-12T07:00:00Z');

			const emitted = (await trigger.poll())!.map((item) => item.json);

			const days = ['2024-05-09', '2024-05-10', '2024-05-11'];
			expect(emitted.map((row) => row.dateUtc)).toEqual(
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
			const removeFault = failPath(EQUIPMENTS_PATH);
			const failed = await trigger.poll().catch((error: Error) => error);
			removeFault();

			const next = await trigger.poll();

			expect(failed).toBeInstanceOf(Error);
			expect((failed as Error).message).toMatch(/equipment list for the readable output/);
			expect(next?.length).toBeGreaterThan(0);
			expect(next?.every((item) => item.json.date === DAY)).toBe(true);
		});

		it('Daily Distance Report: Fetch Test Event gives yesterday readable', async () => {
			const { items, error } = await runTriggerManually(triggerOptions('dailyDistanceReport'));

			expect(error).toBeUndefined();
			expect(items.map((item) => item.json)).toEqual(
				store()
					.distances.get(DAY)!
					.map((record) => ({
						dateUtc: DAY,
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
