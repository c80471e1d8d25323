/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * A German sheet as the e2e suite reads it (issue 40): a CSV with semicolons, amounts written as
 * 1.234,56 (`1.250,50`, `12.000`) and dates as `YYYY-MM-DD HH:mm`, read from disk by n8n's own
 * Read/Write Files from Disk and Extract From File into Quote > Create and Product > Update Price
 * Item. Once with Number Format 1.234,56, once with the default, which `12.000` must stop.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { type Json, operationWorkflow, rt } from './support';

export const GERMAN_CSV = {
	withCommaFormat: 'opGermanCsv',
	withDefaultFormat: 'opGermanCsvDefaultFormat',
	/** The workflows' timezone, in which the sheet's dates are meant. */
	timezone: 'Europe/Berlin',
	fixture: path.join(__dirname, 'fixtures', 'german-quotes.csv'),
	// In the folder n8n may read (N8N_RESTRICT_FILE_ACCESS_TO), named per process: suites of
	// several worktrees share it.
	file: path.join(rt.EXAMPLE_FILES_DIR, `e2e-german-quotes-${process.pid}.csv`),
	quoteNode: 'Create quotes',
	priceNode: 'Update price items',
} as const;

/** Puts the sheet where the workflows read it. */
export function placeGermanCsv(): void {
	fs.mkdirSync(path.dirname(GERMAN_CSV.file), { recursive: true });
	fs.copyFileSync(GERMAN_CSV.fixture, GERMAN_CSV.file);
}

/**
 * The workflow: Start > Read the file > Extract From File (CSV, `;`) > the quotes and the price
 * items, each row's tier named by its row (`tierIds`, in the order of the rows).
 */
export function germanCsvWorkflow(
	id: string,
	fixtures: { clientId: string; contractId: string; productId: string; tierIds: string[] },
	numberFormat?: string,
): Json {
	const formChosen = numberFormat ? { numberFormat } : {};
	const workflow = operationWorkflow(id, `e2e: ${id}`, [
		{
			name: GERMAN_CSV.quoteNode,
			parameters: {
				resource: 'quote',
				operation: 'create',
				clientId: fixtures.clientId,
				contractId: fixtures.contractId,
				amount: '={{ $json.betrag }}',
				...formChosen,
				additionalFields: {
					quoteId: '={{ $json.angebot }}',
					startDate: '={{ $json.beginn }}',
					endDate: '={{ $json.ende }}',
				},
			},
		},
		{
			name: GERMAN_CSV.priceNode,
			parameters: {
				resource: 'product',
				operation: 'updatePriceItem',
				productId: fixtures.productId,
				priceId: `={{ ${JSON.stringify(fixtures.tierIds)}[$itemIndex] }}`,
				from: '={{ $json.ab_menge }}',
				price: '={{ $json.preis }}',
				...formChosen,
			},
		},
	]);
	const [trigger, ...rentalNodes] = workflow.nodes as Json[];
	/** One of n8n's own nodes, before the Equipment Rental nodes. */
	const n8nNode = (name: string, type: string, x: number, parameters: Json) => ({
		id: `${id}-${type}`,
		name,
		type: `n8n-nodes-base.${type}`,
		typeVersion: 1,
		position: [x, 0],
		parameters,
	});
	const read = n8nNode('Read sheet', 'readWriteFile', 150, {
		operation: 'read',
		fileSelector: GERMAN_CSV.file,
		options: {},
	});
	const extract = n8nNode('Extract rows', 'extractFromFile', 300, {
		operation: 'csv',
		binaryPropertyName: 'data',
		options: { delimiter: ';', headerRow: true },
	});
	const to = (name: string) => ({ node: name, type: 'main', index: 0 });
	return {
		...workflow,
		nodes: [trigger, read, extract, ...rentalNodes],
		connections: {
			[trigger.name]: { main: [[to(read.name)]] },
			[read.name]: { main: [[to(extract.name)]] },
			[extract.name]: { main: [rentalNodes.map((node) => to(node.name))] },
		},
		settings: { ...workflow.settings, timezone: GERMAN_CSV.timezone },
	};
}
