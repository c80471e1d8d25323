import type { IDataObject, INodePropertyRouting } from 'n8n-workflow';

import type { ItemRequest, RequestParts } from '../engine/itemRequest';
import { runPerItem } from '../engine/itemRouting';
import {
	limitField,
	listOptionsField,
	pageSizeField,
	returnAllField,
} from '../../shared/listFields';
import { paceOfRun } from '../engine/paceOfRun';
import type { FetchPage } from '../../shared/pagination';
import { asPage, readList } from '../../shared/pagination';
import type { ItemParameters } from '../../shared/parameters';

/**
 * The routing of a list operation, run for each input item: "Return All" reads every page,
 * otherwise "Limit" records, with the item's path and filters sent on every page. `outputFor` reads
 * how the item wants its output, before anything is sent, and gives what turns the records read into
 * the item's output (by default one output item per record).
 */
export function pagedListPerItem<Parts extends Pick<RequestParts, 'path' | 'qs'>>(
	list: ItemRequest<Parts>,
	outputFor: (item: ItemParameters) => (records: IDataObject[]) => IDataObject[] = () =>
		(records) =>
			records,
): INodePropertyRouting {
	return runPerItem(
		{
			...list,
			parts: (item) => ({
				...list.parts(item),
				wanted:
					item.raw(returnAllField.name) === true
						? Infinity
						: Math.floor(item.number(limitField, { min: 1 }) ?? (limitField.default as number)),
				pageSize: Math.floor(
					item.number(pageSizeField, { min: 1 }, listOptionsField) ??
						(pageSizeField.default as number),
				),
				outputOf: outputFor(item),
			}),
		},
		async function ({ path, qs, wanted, pageSize, outputOf }, _item, send) {
			// Every page's request takes its turn in the run's pace, which lets this many go at once.
			const parallel = paceOfRun(send.run, this).settings.parallelRequests;
			const fetchPage: FetchPage = async (page, limit) =>
				asPage(this, (await send({ path, qs: { ...qs, page, limit } }))[0]?.json);
			const records = await readList(this, fetchPage, wanted, pageSize, parallel);
			return outputOf(records).map((json) => ({ json }));
		},
	);
}
