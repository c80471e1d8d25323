/**
 * What the tests of a sheet synced by Create or Update share (test/node/nightlySync.test.ts,
 * test/node/sharedReads.test.ts): the node's parameters, clients made as a sheet's rows, and another
 * writer's request slipped in before a request of the node.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { SandboxRequest, SandboxSuite } from './sandbox';
import { CLIENTS, directApi, newExternalId } from './writes';

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
