/**
 * Ends `npm run test:faults` with one plain summary line, from the counts each test file saved (see
 * results.ts).
 */
const { existsSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const percent = ({ runs, complete }) =>
	runs === 0 ? 'not measured' : `${((100 * complete) / runs).toFixed(1)}% (${complete}/${runs})`;

module.exports = async function printSummary() {
	const folder = process.env.FAULT_SUITE_RESULTS;
	if (!folder || !existsSync(folder)) return;
	const parts = readdirSync(folder).map((file) =>
		JSON.parse(readFileSync(join(folder, file), 'utf8')),
	);
	const results = Object.assign({}, ...parts);
	// Each trigger event's file brings its own tally.
	const triggerTallies = Object.assign({}, ...parts.map((part) => part.trigger ?? {}));
	rmSync(folder, { recursive: true, force: true });

	const lines = [];
	if (results.lists) {
		const { runs, complete, failedLoudly, partial, duplicates } = results.lists;
		lines.push(
			`Return All runs under faults: ${runs} runs, ${complete} complete, ${failedLoudly} failed loudly, ${partial} partial, ${duplicates} with duplicates`,
		);
	}
	if (results.completionUnder5xx) {
		const { nodeRetries, withRetryOnFail } = results.completionUnder5xx;
		lines.push(
			`100-page lists complete under 10% injected 5xx: ${percent(nodeRetries)} with the node's retries, ${percent(withRetryOnFail)} with Retry On Fail on top`,
		);
	}
	if (results.writes) {
		const {
			sent,
			succeeded,
			failedLoudly,
			falseSuccesses,
			retriedWrites,
			resentAfterRefusal,
			lostAnswers,
			doneUnanswered,
		} = results.writes;
		lines.push(
			`Writes under faults: ${sent} sent, ${succeeded} succeeded, ${failedLoudly} failed loudly (${doneUnanswered} of them done by the server, the answer lost), ${falseSuccesses} reported success the server did not complete, ${retriedWrites} sent twice (${resentAfterRefusal} sent again after a 429, which the API did not act on); ${lostAnswers} answers lost`,
		);
	}
	if (results.stoppedWrites) {
		const w = results.stoppedWrites;
		lines.push(
			`Writes under faults with Continue On Fail off: ${w.runs} runs, ${w.stopped} stopped by a failure; ${w.reportedDone} items written before the stop, each in the run's error; ${w.notSent} items not sent; ${w.lost} writes done but missing from the error, ${w.falseReports} reported written but not done, ${w.notSentButSent} reported not sent but sent, ${w.sentTwice} sent twice`,
		);
	}
	if (results.upserts) {
		const u = results.upserts;
		lines.push(
			`Create or Update under faults, failed items run again, then a clean run: ${u.externalIds} external IDs of ${u.kinds} record kinds, ${u.runs} runs of ${u.items} items, ${u.created} created, ${u.updated} updated, ${u.failed} failed loudly; ${u.lostAnswers} answers lost, ${u.lostCreates} of them of creates, ${u.foundAfterLostCreate} found by the lookup after and reported created; ${u.taken} creates refused 409 (another writer first), ${u.updatedAfterTaken} of them updated its record; ${u.missing} external IDs without a record, ${u.duplicates} with duplicates, ${u.sentTwice} writes sent twice, ${u.falseSuccesses} reported a record the store does not hold`,
		);
	}
	if (results.findRetries) {
		const f = results.findRetries;
		lines.push(
			`Create or Update with faults on the GETs only: ${f.items} items, ${f.created} created, ${f.updated} updated, ${f.failed} failed loudly after 5 tries of the find; ${f.retriedFinds} finds retried by the node, ${f.duplicates} duplicates`,
		);
	}
	if (results.retryOnFail) {
		const r = results.retryOnFail;
		lines.push(
			`Create or Update under faults with n8n's Retry On Fail, Continue On Fail off: ${r.executions} executions of ${r.rows} rows, ${r.succeeded} succeeded, ${r.stopped} stopped after their last try; by what each execution said: ${r.created} created, ${r.updated} updated, ${r.misreported} misreported (not what its tries did), ${r.duplicates} duplicates`,
		);
	}
	for (const [event, tally] of Object.entries(triggerTallies)) {
		const { polls, complete, failedLoudly, partial, duplicates, changes, lost, carriedOver } =
			tally;
		const skews = [...new Set(tally.clockOffsetsMinutes)]
			.map((minutes) =>
				minutes === 0 ? 'on time' : `${Math.abs(minutes)} min ${minutes < 0 ? 'behind' : 'ahead'}`,
			)
			.join(', ');
		lines.push(
			`Trigger ${event} polls under faults: ${polls} polls, ${complete} complete, ${failedLoudly} failed loudly, ${partial} partial, ${duplicates} with duplicates; ${changes} changes, ${lost} lost, ${carriedOver} emitted by the poll after a failed one; ${tally.restarts} n8n restarts, the API's clock ${skews}`,
		);
	}
	process.stdout.write(`\nFault suite summary\n${lines.map((line) => `  ${line}`).join('\n')}\n`);
	const clean =
		results.lists?.partial === 0 &&
		results.lists?.duplicates === 0 &&
		results.writes?.falseSuccesses === 0 &&
		results.writes?.retriedWrites === 0 &&
		results.stoppedWrites?.lost === 0 &&
		results.stoppedWrites?.falseReports === 0 &&
		results.stoppedWrites?.notSentButSent === 0 &&
		results.stoppedWrites?.sentTwice === 0 &&
		results.upserts?.missing === 0 &&
		results.upserts?.duplicates === 0 &&
		results.upserts?.sentTwice === 0 &&
		results.upserts?.falseSuccesses === 0 &&
		results.findRetries?.duplicates === 0 &&
		results.retryOnFail?.misreported === 0 &&
		results.retryOnFail?.duplicates === 0 &&
		Object.keys(triggerTallies).length > 0 &&
		Object.values(triggerTallies).every(
			({ partial, duplicates, lost }) => partial === 0 && duplicates === 0 && lost === 0,
		);
	process.stdout.write(`FAULT SUITE: ${clean ? 'PASS' : 'FAIL'}: ${lines.join('; ')}\n`);
};
