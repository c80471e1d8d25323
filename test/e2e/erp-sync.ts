/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * The ERP sync example (examples/erp-sync.json) as the e2e suite checks it: the rows of its sample
 * export (examples/erp-export.csv), the records they stand for, and those records as the sandbox's
 * store holds them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { type Json, parseCsv } from './support';

export const ERP_SYNC_WORKFLOW = 'exErpSync';
export const ERP_EXPORT_FILE = path.join(__dirname, '..', '..', 'examples', 'erp-export.csv');

/** The example's write nodes, by the kind of record each writes. */
export const ERP_NODES = {
	clients: 'Create or update client',
	contactPersons: 'Create or update contact person',
	contracts: 'Create or update contract',
} as const;
export type ErpKind = keyof typeof ERP_NODES;

/** The rows of the sample export, each as an object keyed by the header row. */
export function erpRows(): Array<Record<string, string>> {
	const [header, ...rows] = parseCsv(fs.readFileSync(ERP_EXPORT_FILE, 'utf8').trim());
	return rows.map((row) => Object.fromEntries(header.map((column, index) => [column, row[index]])));
}

/** The external IDs of each kind of record in the export, each once, in the order of the rows. */
export function erpExternalIds(): Record<ErpKind, string[]> {
	const rows = erpRows();
	const once = (column: string) => [...new Set(rows.map((row) => row[column]))];
	return {
		clients: once('client_id'),
		contactPersons: once('contact_id'),
		contracts: once('contract_id'),
	};
}

export interface ErpStore {
	clients: Json[];
	contracts: Json[];
}

/** Every record of the store that has one of the export's external IDs, by kind. */
export function erpRecords(store: ErpStore): Record<ErpKind, Json[]> {
	const ids = erpExternalIds();
	const ofExport = (records: Json[], kind: ErpKind) =>
		records.filter((record) => ids[kind].includes(record.externalId));
	return {
		clients: ofExport(store.clients, 'clients'),
		contactPersons: ofExport(
			store.clients.flatMap((client) => client.contactPersons ?? []),
			'contactPersons',
		),
		contracts: ofExport(store.contracts, 'contracts'),
	};
}

/** How many records of each kind the store holds. */
export function storeCounts(store: ErpStore): Record<ErpKind, number> {
	return {
		clients: store.clients.length,
		contactPersons: store.clients.reduce(
			(sum, client) => sum + (client.contactPersons?.length ?? 0),
			0,
		),
		contracts: store.contracts.length,
	};
}
