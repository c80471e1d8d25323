import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ItemSender } from '../engine/itemRequest';
import type { WholeRead } from '../engine/runState';

/*
 * Include Records Not in Input, an option of Create or Update: after the rows, the records of the
 * collection that no row names, so that a sync that mirrors a sheet learns what the sheet no longer
 * has.
 */

export const includeNotInInput: INodeProperties = {
	displayName: 'Include Records Not in Input',
	name: 'includeRecordsNotInInput',
	type: 'boolean',
	default: false,
	description:
		'Whether to output, after the rows, every record of the collection that no row names, with upserted: "notInInput" (e.g. to delete, deactivate or report them). The run reads the whole collection for it, up to 50,000 records (more fails the run), and writes nothing for them.',
};

/** What the listing needs of a row of the run, as its checks read it. */
interface RowOfRun {
	parent?: unknown;
	body: { externalId: string };
	/** The row's item index. */
	row: number;
}

const parentOf = (row: RowOfRun) => JSON.stringify(row.parent);

/**
 * The run's rows under the same parent as `row` (all of them, for a kind without parents), in the
 * items' order.
 */
export function sameParent<Row extends RowOfRun>(send: ItemSender, row: Row): readonly Row[] {
	return send.run.checkedBy<Row>(parentOf).get(parentOf(row)) ?? [];
}

/**
 * After the last row of its parent, the records of the collection no row of the run names, where
 * the run lists them (`listsOthers`): read whole in the prepare phase, so they are the same
 * whichever row comes last.
 */
export function notInInput(
	row: RowOfRun & { listsOthers: boolean; wholeRead?: WholeRead },
	send: ItemSender,
	marks: IDataObject,
): INodeExecutionData[] {
	if (!row.listsOthers || !row.wholeRead) return [];
	const rows = sameParent(send, row);
	if (rows.at(-1)?.row !== row.row) return [];
	const named = new Set(rows.map((other) => other.body.externalId));
	return row.wholeRead
		.every()
		.filter((record) => typeof record.externalId !== 'string' || !named.has(record.externalId))
		.map((record) => ({ json: { ...record, upserted: 'notInInput', ...marks } }));
}
