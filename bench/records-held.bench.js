'use strict';

/**
 * What Create or Update's whole read of a collection costs in memory (issue 36, "Bounded memory"):
 * the run reads the clients whole where their pages are fewer than its rows, up to
 * MOST_RECORDS_READ_WHOLE of them, and keeps each whole, as the API answers it, so that the node's later
 * runs in the execution (a loop's batches) can use the read (writes/wholeReads.ts). This reads
 * N clients through wholeReadOf itself, as Client > Create or Update calls it, the pages
 * of 1,000 answered in this process as the API sends them, each parsed anew from its JSON text as
 * n8n's HTTP helper does: every field of the client's create page filled (a full record, about
 * 0.8 KB of JSON), and `--contact-persons` contact persons each (the list embeds them). Measured
 * with the garbage collector forced before and after: the heap the records held keep for the rest
 * of the run (retained; the held records referenced, the pages not), per record, and the peak, the
 * largest heap growth seen while the read went on (after each page arrived, and when the held
 * records were made from the pages read: that is when the most is alive at once). Beside them, the
 * heap the same records keep parsed at once, without the read's map by external ID.
 *
 * Run with `node --expose-gc bench/records-held.bench.js [--records 5000,50000]
 * [--contact-persons 0,2] [--smoke]` (each combination is measured; a few seconds; USAGE below).
 */

const { commandLine, commonUsage, usageError } = require('./command-line');

const USAGE = [
	'Usage: node --expose-gc bench/records-held.bench.js [options]',
	"What Create or Update's whole read of the clients keeps in memory (writes/wholeReads.ts):",
	'retained and peak heap, per record, against the records parsed whole. Starts no process.',
	'  --records N,N           clients read, one measure each (default 5000,50000)',
	'  --contact-persons N,N   contact persons of each client, one measure each (default 0,2)',
	...commonUsage(
		'a small run (2,000 clients, 0 and 1 contact persons; a second): every figure checked',
		26,
	),
].join('\n');
const { values: flags } = commandLine(USAGE, {
	records: { type: 'string' },
	'contact-persons': { type: 'string' },
});
const SMOKE = flags.smoke === true;

require('../test/harness/environment');
require('./register-typescript');

const os = require('node:os');

const { clientRecord } = require('../nodes/EquipmentRental/resources/client/record');
const { RunState } = require('../nodes/EquipmentRental/engine/runState');
const {
	MOST_RECORDS_READ_WHOLE,
	wholeReadOf,
} = require('../nodes/EquipmentRental/writes/wholeReads');
const { collectGarbage, heapUsed, loadAverage, table } = require('./measuring');

const numbers = (text) => text.split(',').map(Number);
const SIZES = numbers(flags.records ?? (SMOKE ? '2000' : `5000,${MOST_RECORDS_READ_WHOLE}`));
const CONTACT_PERSONS = numbers(flags['contact-persons'] ?? (SMOKE ? '0,1' : '0,2'));
if (![...SIZES, ...CONTACT_PERSONS].every((value) => Number.isInteger(value) && value >= 0))
	usageError(USAGE, '--records and --contact-persons take whole numbers');

/** A value of a client field as an ERP fills it: ten to twenty characters of text, or a number. */
function valueOf(property, index) {
	if (property.type === 'number') return 1000 + (index % 9000);
	if (property.type === 'boolean') return index % 2 === 0;
	if (property.type === 'options') return property.options[0].value;
	return `${property.name} ${index}`;
}

const STAMP = '2026-11-28T02:00:00.000Z';

/** Client `index` as the API lists it: every field of the create page, and `contactPersons` of its own. */
function client(index, contactPersons) {
	const id = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
	const fields = Object.fromEntries(
		clientRecord.fields
			.filter((field) => field.property.name !== 'contactPersons')
			.map((field) => [field.property.name, valueOf(field.property, index)]),
	);
	return {
		id,
		...fields,
		externalId: `ERP-C-${index}`,
		organization: '11111111-2222-4333-8444-555555555555',
		createdAt: STAMP,
		updatedAt: STAMP,
		contactPersons: Array.from({ length: contactPersons }, (_, person) => ({
			id: `00000000-0000-4000-9000-${String(index * 10 + person).padStart(12, '0')}`,
			clientId: id,
			externalId: `ERP-P-${index}-${person}`,
			name: `Contact person ${person} of client ${index}`,
			email: `person${person}@client${index}.example`,
			phone: `+49 30 ${1000000 + index}`,
			isMain: person === 0,
			createdAt: STAMP,
			updatedAt: STAMP,
		})),
	};
}

const PAGE_SIZE = 1000;
// What the node's errors name when a page is malformed; never read here.
const CONTEXT = {
	getNode: () => ({ name: 'Create or Update', type: 'bench', typeVersion: 1, parameters: {} }),
	getItemIndex: () => 0,
};

/**
 * One whole read of `count` clients with `contactPersons` each: the heap retained by the records
 * held, and the peak growth during the read, over the heap after a forced collection; the size of
 * the pages' JSON.
 */
async function measure(count, contactPersons) {
	// The pages as the API sends them, made before the measure: only what the read parses counts.
	const pages = [];
	for (let start = 0; start < count || pages.length === 0; start += PAGE_SIZE) {
		const content = Array.from({ length: Math.min(PAGE_SIZE, count - start) }, (_, offset) =>
			client(start + offset, contactPersons),
		);
		pages.push(JSON.stringify({ content, total: count }));
	}
	await collectGarbage();
	const before = heapUsed();
	let peak = before;
	const sample = () => {
		peak = Math.max(peak, heapUsed());
	};
	const send = Object.assign(
		async ({ qs }) => {
			sample();
			const answer = [
				{ json: JSON.parse(pages[qs.page - 1] ?? JSON.stringify({ content: [], total: count })) },
			];
			sample();
			return answer;
		},
		{ run: { state: new RunState({}) } },
	);
	const wholeRead = await wholeReadOf(
		clientRecord,
		{},
		// More rows than the list has pages, naming none of the records held.
		{ named: () => new Set([...Array(count + 1).keys()].map((row) => `NEW-${row}`)) },
		send,
		CONTEXT,
	);
	sample();
	if (!wholeRead) throw new Error(`${count} clients were not read whole`);
	if (count > 0 && !wholeRead.find(`ERP-C-${count - 1}`))
		throw new Error('the last client is not held');
	await collectGarbage();
	const retained = heapUsed() - before;
	// `wholeRead` stays referenced until here: what it keeps is in the heap just measured.
	wholeRead.find('ERP-C-0');
	return {
		records: count,
		contactPersons,
		jsonBytes: pages.reduce((sum, page) => sum + Buffer.byteLength(page), 0),
		retained,
		peak: peak - before,
		whole: await wholeRecordsRetained(pages),
	};
}

/**
 * The heap the pages' records would keep if a run held them as the API sends them (parsed, every
 * field), read in one piece: the floor of what a whole read can keep.
 */
async function wholeRecordsRetained(pages) {
	await collectGarbage();
	const before = heapUsed();
	const records = pages.flatMap((page) => JSON.parse(page).content);
	await collectGarbage();
	const retained = heapUsed() - before;
	// `records` stays referenced until here.
	return records.length > 0 ? retained : 0;
}

const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const kilobytes = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;

async function main() {
	const loadBefore = loadAverage();
	const results = [];
	// A first read, not counted, so that the code it runs is compiled before the measures.
	await measure(PAGE_SIZE, 0);
	for (const contactPersons of CONTACT_PERSONS)
		for (const count of SIZES) results.push(await measure(count, contactPersons));
	console.log(
		[
			`Whole read of the clients by Create or Update (writes/wholeReads.ts), pages of ${PAGE_SIZE} parsed from JSON, every field of the create page filled, held whole. Node ${process.version}, load average ${loadBefore}.`,
			...table(
				[
					['contact persons each', (r) => String(r.contactPersons)],
					['pages JSON', (r) => megabytes(r.jsonBytes)],
					['retained', (r) => megabytes(r.retained)],
					['retained per record', (r) => kilobytes(r.retained / r.records)],
					['peak during the read', (r) => megabytes(r.peak)],
					['whole records, parsed', (r) => megabytes(r.whole)],
				],
				results.map((result) => [`${result.records.toLocaleString('en')} clients`, result]),
			),
			`Machine: ${os.availableParallelism()} cores; load average at the end ${loadAverage()}.`,
		].join('\n'),
	);
	// Every combination measured: a read of records keeps some heap, and the records parsed whole too.
	const unmeasured = results.filter(
		({ records, retained, peak, whole }) =>
			records > 0 && ![retained, peak, whole].every((bytes) => Number.isFinite(bytes) && bytes > 0),
	);
	if (results.length !== SIZES.length * CONTACT_PERSONS.length || unmeasured.length > 0) {
		console.error(`NOT MEASURED: ${JSON.stringify(unmeasured)}`);
		process.exitCode = 1;
	}
}

main().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
