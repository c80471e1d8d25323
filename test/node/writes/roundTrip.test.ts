/**
 * Every field the node writes reads back as written, under the name the API reads it back by, and
 * a second Create or Update of the same rows writes nothing, whichever way the run finds the
 * records: by the collection read whole, or by looking each row up. Its output is then the same
 * record both ways, as the API holds it. Each kind of record the node writes gets every field of
 * its form with a value (test/harness/everyField.ts). Through n8n's engine against the sandbox in
 * strict mode.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { holdsValue } from '../../../nodes/EquipmentRental/writes/storedValues';
import { readBackName, updatable } from '../../../nodes/EquipmentRental/writes/recordKind';
import { fieldsOf, upsertWithEveryField, valueFor, writtenKinds } from '../../harness/everyField';
import { useSandbox } from '../../harness/sandbox';
import { byId, json, newExternalId, requestsSeen, writesSeen } from '../../harness/writes';

describe('Every written field, read back and written again', () => {
	const suite = useSandbox({ strict: true });

	const cases = writtenKinds(suite);

	describe.each(cases.map((each) => [each.kind.resource, each] as const))('%s', (_name, each) => {
		const { kind } = each;
		const readName = readBackName(kind);
		const fieldNames = fieldsOf(kind).map((field) => field.property.name);
		// What only an update takes (a booking's billing status): written by Update.
		const updateOnly = updatable(kind).filter((field) => !kind.fields.includes(field));

		const upsertOf = (rows: string[]) => upsertWithEveryField(suite, each, rows);

		it('every field of the forms is given a value by this test', () => {
			const { items } = upsertOf(['ROW']);
			expect(
				[...Object.keys(items[0]), ...updateOnly.map((field) => field.property.name)].sort(),
			).toEqual([...fieldNames].sort());
		});

		it('reads back every field it wrote under the name the API reads it back by, through Get and Get Many; run again, whole read or looked up, it writes nothing and outputs the same record', async () => {
			const prefix = newExternalId(`RT-${kind.resource}`);
			const rows = [`${prefix}-A`, `${prefix}-B`];
			const { parameters, items } = upsertOf(rows);

			const first = await suite.run(parameters, { items, timezone: 'Europe/Berlin' });
			expect(first.error).toBeUndefined();
			expect(json(first.items).map((item) => item.upserted)).toEqual(['created', 'created']);
			const sent = requestsSeen(suite)
				.filter((request) => request.method === 'POST')
				.map((request) => request.body as IDataObject);
			expect(sent).toHaveLength(2);
			// Texts are sent without the spaces around them, but for free text, kept as given.
			const keptAsGiven = fieldsOf(kind)
				.filter((field) => field.property.description?.includes('kept as given'))
				.map((field) => field.property.name);
			for (const [index, body] of sent.entries())
				for (const [name, value] of Object.entries(body))
					if (typeof value === 'string')
						expect([name, value]).toEqual([
							name,
							keptAsGiven.includes(name) ? items[index][name] : value.trim(),
						]);

			const created = json(first.items);
			if (updateOnly.length > 0) {
				suite.sandbox.resetStats();
				for (const [index, record] of created.entries()) {
					const update = await suite.run({
						resource: kind.resource,
						operation: 'update',
						...each.parent?.(),
						[kind.recordPicker.name]: byId(String(record.id)),
						updateFields: Object.fromEntries(
							updateOnly.map((field) => [field.property.name, valueFor(suite, field, rows[index])]),
						) as INodeParameters,
					});
					expect(update.error).toBeUndefined();
				}
				sent.forEach((body, index) =>
					Object.assign(body, writesSeen(suite)[index].body as IDataObject),
				);
			}
			const readThrough = async (parameters: INodeParameters) => {
				const run = await suite.run(parameters);
				expect(run.error).toBeUndefined();
				return json(run.items);
			};
			const found = await Promise.all(
				created.map(async (record) => (await readThrough(each.get(String(record.id))))[0]),
			);
			const listed = each.getMany
				? (await readThrough(each.getMany())).filter((record) =>
						created.some((made) => made.id === record.id),
					)
				: [];
			for (const [index, body] of sent.entries()) {
				for (const [name, value] of Object.entries(body)) {
					const readBack = readName(name);
					const holds = (record: IDataObject) => ({
						field: name,
						readBack,
						holds: holdsValue(record[readBack], value),
					});
					const expected = { field: name, readBack, holds: true };
					expect(holds(found[index])).toEqual(expected);
					if (each.getMany)
						expect(holds(listed.find((record) => record.id === created[index].id)!)).toEqual(
							expected,
						);
				}
			}

			suite.sandbox.resetStats();
			const wholeRead = await suite.run(parameters, { items, timezone: 'Europe/Berlin' });
			expect(wholeRead.error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([]);
			if (each.getMany)
				expect(
					requestsSeen(suite).filter((request) => request.path.includes('external-id')),
				).toEqual([]);

			suite.sandbox.resetStats();
			const lookedUp = await suite.run(parameters, {
				items: [items[0]],
				timezone: 'Europe/Berlin',
			});
			expect(lookedUp.error).toBeUndefined();
			expect(writesSeen(suite)).toEqual([]);

			expect(json(wholeRead.items)).toEqual(
				found.map((record) => ({ ...record, upserted: 'unchanged' })),
			);
			expect(json(lookedUp.items)).toEqual([{ ...found[0], upserted: 'unchanged' }]);
		});
	});
});
