import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ErrorContext } from './errors';
import { itemSuffix, malformedResponseError } from './errors';

/**
 * A list answer (spec 4.2, 4.8): one page of records and the number of records matching the
 * filters.
 */
export interface Page {
	content: IDataObject[];
	total: number;
}

export type FetchPage = (page: number, limit: number) => Promise<Page>;

// Data that changes while it is being paged makes offsets shift; the list is read again this many
// times at most.
const MAX_LIST_ATTEMPTS = 3;

/**
 * Runs `task` for indexes 0..count-1 with at most `concurrency` running at once; stops scheduling
 * on failure.
 */
async function forEachInParallel(
	count: number,
	concurrency: number,
	task: (index: number) => Promise<void>,
) {
	let next = 0;
	let failed = false;
	const worker = async () => {
		while (!failed && next < count) {
			const index = next++;
			let succeeded = false;
			try {
				await task(index);
				succeeded = true;
			} finally {
				failed ||= !succeeded;
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/**
 * The records of a list's pages in page order, each id once (data shifting between pages repeats
 * records), up to `expected` records. Pages arrive in any order; each is joined as soon as the
 * pages before it are in, so that little work is left when the last page arrives.
 */
class PageJoin {
	readonly records: IDataObject[] = [];
	totalsAgree = true;
	private readonly waitingPages = new Map<number, Page>();
	private readonly seenIds = new Set<unknown>();
	private nextPageIndex = 0;

	constructor(
		private readonly total: number,
		private readonly expected: number,
	) {}

	add(pageIndex: number, page: Page) {
		this.totalsAgree &&= page.total === this.total;
		this.waitingPages.set(pageIndex, page);
		for (
			let next = this.waitingPages.get(this.nextPageIndex);
			next;
			next = this.waitingPages.get(this.nextPageIndex)
		) {
			this.waitingPages.delete(this.nextPageIndex++);
			for (const record of next.content) this.keep(record);
		}
	}

	private keep(record: IDataObject) {
		if (this.records.length === this.expected) return;
		if (record.id !== undefined && record.id !== null) {
			if (this.seenIds.has(record.id)) return;
			this.seenIds.add(record.id);
		}
		this.records.push(record);
	}
}

/**
 * Reads `wanted` records (Infinity for all) in one pass: page 1 tells the total and the real page
 * size, then the remaining pages are fetched `parallel` at a time and joined in page order. The
 * spec names no maximum page size, so a page 1 shorter than asked while more records exist reveals
 * a silent cap, and the other pages are asked at that size so that page offsets line up.
 */
async function readOnce(fetchPage: FetchPage, wanted: number, pageSize: number, parallel: number) {
	const firstLimit = Math.min(pageSize, wanted);
	const first = await fetchPage(1, firstLimit);
	const expected = Math.min(wanted, first.total);
	const size =
		first.content.length < firstLimit && first.content.length < first.total
			? first.content.length
			: firstLimit;
	if (size === 0) return { records: [], consistent: expected === 0, expected, total: first.total };

	const join = new PageJoin(first.total, expected);
	join.add(0, first);
	const pageCount = Math.ceil(expected / size);
	await forEachInParallel(pageCount - 1, parallel, async (index) => {
		join.add(index + 1, await fetchPage(index + 2, size));
	});
	const consistent = join.records.length === expected && join.totalsAgree;
	return { records: join.records, consistent, expected, total: first.total };
}

/**
 * Reads `wanted` records (Infinity for all) with `fetchPage`, reading the whole list again when it
 * changed while it was being paged; fails rather than return an incomplete list.
 */
export async function readList(
	context: ErrorContext,
	fetchPage: FetchPage,
	wanted: number,
	pageSize: number,
	parallel: number,
) {
	let attempt = await readOnce(fetchPage, wanted, pageSize, parallel);
	for (let reads = 1; !attempt.consistent; reads++) {
		if (reads === MAX_LIST_ATTEMPTS) {
			throw new NodeOperationError(
				context.getNode(),
				`The list changed while it was being read, ${MAX_LIST_ATTEMPTS} times in a row${itemSuffix(context)}`,
				{
					itemIndex: context.getItemIndex?.(),
					description: `The API reported ${attempt.total} records but the pages held ${attempt.records.length} distinct ones. Nothing was output rather than an incomplete list; run the node again, or narrow it with Filters.`,
				},
			);
		}
		attempt = await readOnce(fetchPage, wanted, pageSize, parallel);
	}
	return attempt.records;
}

/** A list answer's body as a page; anything else is a malformed answer. */
export function asPage(context: ErrorContext, body: unknown): Page {
	const page = body as Partial<Page> | undefined;
	if (!Array.isArray(page?.content) || typeof page?.total !== 'number') {
		throw malformedResponseError(
			context,
			'a page of the form {"content": [...], "total": <number>}',
		);
	}
	return page as Page;
}
