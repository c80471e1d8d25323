/**
 * What the tests of a sheet synced by Create or Update share (test/node/nightlySync.test.ts,
 * test/node/sharedReads.test.ts, the e2e and queue suites): the node's parameters, clients made as a
 * sheet's rows, the nightly sync's sheet and what the API held before it, and another writer's
 * request slipped in before a request of the node.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { Sandbox, SandboxRequest, SandboxSuite } from './sandbox';
import { CLIENTS, directApi, newExternalId } from './writes';

// The sandbox's own handlers (plain JavaScript): a record made as the API stores it, with no request.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { writeHandlers } = require('../../sandbox/writes');

/** A row of the synced sheet, as the client holds it. */
export type SheetRow = { externalId: string; name: string; city: string };

/** Client > Create or Update, its external ID, name and city from the item. */
export const CLIENT_SYNC: INodeParameters = {
	resource: 'client',
	operation: 'upsert',
	externalId: '={{ $json.externalId }}',
	name: '={{ $json.name }}',
	additionalFields: { city: '={{ $json.city }}' },
};

/** `count` clients made through the API, named `label` and a number: the sheet's rows. */
export async function clientsMade(
	suite: SandboxSuite,
	label: string,
	count: number,
): Promise<SheetRow[]> {
	const prefix = newExternalId(label.split(' ')[0].toUpperCase());
	const rows = [...Array(count).keys()].map((index) => ({
		externalId: `${prefix}-${index}`,
		name: `${label} ${index}`,
		city: 'Leipzig',
	}));
	for (const row of rows) {
		const answer = await directApi(suite)('POST', CLIENTS, { body: row });
		if (answer.status !== 201) throw new Error(JSON.stringify(answer.body));
	}
	return rows;
}

/** The nightly sync's sheet (issues 36 and 43): 1,000 clients, their external IDs `<prefix>-<index>`. */
export function nightlyRows(prefix: string): SheetRow[] {
	return [...Array(1_000).keys()].map((index) => ({
		name: `Nightly client ${index}`,
		externalId: `${prefix}-${index}`,
		city: `City ${index % 50}`,
	}));
}

/**
 * Makes the clients of `rows` in the sandbox's `store` as the API held them after the last sync,
 * made `clockOffsetMs` from now: 1% of the rows (every 100th) differ, held under another name, or,
 * with `someNew`, every other one of those not held at all (added to the sheet since). Returns the
 * rows that differ: those to update and those to create.
 */
export function clientsOfLastNight(
	store: Sandbox['store'],
	rows: SheetRow[],
	{ clockOffsetMs = 0, someNew = false }: { clockOffsetMs?: number; someNew?: boolean } = {},
): { changed: SheetRow[]; added: SheetRow[] } {
	const differing = rows.filter((_, index) => index % 100 === 0);
	const added = someNew ? differing.filter((_, index) => index % 2 === 1) : [];
	const changed = differing.filter((row) => !added.includes(row));
	for (const row of rows) {
		if (added.includes(row)) continue;
		const held = changed.includes(row) ? { ...row, name: `${row.name} (old)` } : row;
		writeHandlers.createClient(store, { body: held }, { clockOffsetMs });
	}
	return { changed, added };
}

/**
 * Runs `hook` once, for the first request `matches` finds, before the sandbox handles it; returns
 * what removes it.
 */
export function once(
	suite: SandboxSuite,
	matches: (request: SandboxRequest) => boolean,
	hook: (request: SandboxRequest) => Promise<void>,
): () => void {
	let done = false;
	return suite.sandbox.onRequest(async (request) => {
		if (done || !matches(request)) return;
		done = true;
		await hook(request);
	});
}
