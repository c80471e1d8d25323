/**
 * A field mapped straight from one of the item's fields (`{{ $json.city }}`, what the editor writes
 * for a dragged-in column) is read from the item by the node's checks rather than evaluated again
 * by n8n (shared/parameterReader.ts, mappedFromItem). Through n8n's engine against the sandbox:
 * the node reads every such value as n8n's evaluation would, errors included, and n8n evaluates
 * each mapped field once per item fewer.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { Expression } from 'n8n-workflow';

import { EquipmentRental } from '../../nodes/EquipmentRental/EquipmentRental.node';
import { useSandbox } from '../harness/sandbox';
import { json, writesSeen } from '../harness/writes';

/** Every value a spreadsheet, a form or a Code node may put in a column. */
const COLUMN_VALUES: unknown[] = [
	'  Acme Construction ',
	'12.000',
	'1,5',
	12000,
	12.5,
	0,
	true,
	false,
	'',
	null,
	{ nested: 'x' },
	['x'],
];

/** `{{ $json.v }}` as the editor writes it, or an expression n8n evaluates to the same value. */
const mapping = (key: string, straight: boolean) => {
	const reference = /^\w+$/.test(key) ? `$json.${key}` : `$json["${key}"]`;
	return straight ? `={{ ${reference} }}` : `={{ (${reference}) }}`;
};

/** What an output item says: its record's fields but the ones the API makes anew, or its error. */
const said = (item: IDataObject) =>
	item.error === undefined
		? { ...item, id: undefined, number: undefined, createdAt: undefined, updatedAt: undefined }
		: { error: item.error };

describe('Fields mapped from the item', () => {
	const suite = useSandbox({ strict: true });

	const createClients = (straight: boolean): INodeParameters => ({
		resource: 'client',
		operation: 'create',
		name: mapping('name', straight),
		additionalFields: {
			creditLimit: mapping('limit', straight),
			frameContract: mapping('frame', straight),
			city: mapping('Client city', straight),
		},
	});
	const validRow = { name: 'Acme', limit: 5000, frame: true, 'Client city': 'Berlin' };
	// Each value in each column, the other columns valid.
	const rows = Object.keys(validRow).flatMap((column) =>
		COLUMN_VALUES.map((value) => ({ ...validRow, [column]: value })),
	);

	async function runBoth(parameters: (straight: boolean) => INodeParameters, items: IDataObject[]) {
		const outcomes = [];
		for (const straight of [true, false]) {
			suite.sandbox.resetStats();
			const { items: output } = await suite.run(parameters(straight), {
				items,
				onError: 'continueRegularOutput',
			});
			outcomes.push({ said: json(output).map(said), writes: writesSeen(suite) });
		}
		return outcomes;
	}

	it('are read as n8n evaluates them: the same writes, records and errors for every kind of value', async () => {
		const [straight, evaluated] = await runBoth(createClients, [...rows, { other: 'column' }]);

		expect(straight).toEqual(evaluated);
		// Neither all refused nor all taken: values of every kind reach the API or an error.
		const refused = straight.said.filter((item) => item.error !== undefined).length;
		expect(straight.writes.length).toBeGreaterThan(COLUMN_VALUES.length);
		expect(refused).toBeGreaterThan(COLUMN_VALUES.length);
	});

	it("are read as n8n evaluates them in a picker's value", async () => {
		const known = (suite.sandbox.store.clients as Array<{ id: string }>)[0].id;
		const getClient = (straight: boolean): INodeParameters => ({
			resource: 'client',
			operation: 'get',
			clientId: { __rl: true, mode: 'id', value: mapping('clientId', straight) },
		});
		const items = [known, ` ${known} `, 42, '', null].map((clientId) => ({ clientId }));

		const [straight, evaluated] = await runBoth(getClient, items);

		expect(straight).toEqual(evaluated);
		expect(straight.said[0]).toEqual(expect.objectContaining({ name: expect.any(String) }));
	});

	it('cost n8n one evaluation fewer per mapped field and item', async () => {
		const evaluations = jest.spyOn(Expression.prototype, 'resolveSimpleParameterValue');
		const items = [validRow, { ...validRow, name: 'Other' }];
		const counted = async (straight: boolean) => {
			evaluations.mockClear();
			await suite.run(createClients(straight), { items, onError: 'continueRegularOutput' });
			return evaluations.mock.calls.filter(([value]) => String(value).startsWith('=')).length;
		};
		try {
			const [straight, evaluated] = [await counted(true), await counted(false)];
			const mappedFields = 4;
			expect(evaluated - straight).toBe(mappedFields * items.length);
		} finally {
			evaluations.mockRestore();
		}
	});

	it('are read from the item only while no field of the node has a type n8n converts after evaluating it', () => {
		const described = JSON.stringify(new EquipmentRental().description.properties);

		expect(described).not.toContain('"validateType"');
	});
});
