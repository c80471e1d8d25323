/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals,
	@n8n/community-nodes/no-dangerous-functions
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * The chat example's Code node (examples/chat-quote-creation.json, "Read client, contract and
 * amount") on the e2e suite's chat messages, run directly: what it reads, and what the reply to a
 * message it cannot act on says is missing or unclear. The e2e suite runs the same messages through
 * the whole workflow in a real n8n.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { createStore } from '../../sandbox/seed';
import { CHAT_MESSAGES, fillIn } from '../e2e/chat-messages';

interface Node {
	name: string;
	parameters: Record<string, unknown>;
}
interface Read {
	clientId: string;
	contractId: string;
	amount: number | null;
	problems: string[];
}

const example = JSON.parse(
	readFileSync(join(__dirname, '..', '..', 'examples', 'chat-quote-creation.json'), 'utf8'),
) as { nodes: Node[] };
const node = (name: string) => example.nodes.find((candidate) => candidate.name === name)!;
const jsCode = node('Read client, contract and amount').parameters.jsCode as string;
// The Code node runs once for each item, with the item's JSON as $json.
const readMessage = new Function('$json', jsCode) as (json: object) => { json: Read };
const fixtures = createStore({ models: 1, equipment: 1, days: 1 }).fixtures as Record<
	string,
	string
>;

/** The "Reply: how to ask" text for what the Code node read (its expression, evaluated here). */
function askReply(read: Read): string {
	const template = (
		node('Reply: how to ask').parameters.assignments as { assignments: Array<{ value: string }> }
	).assignments[0].value;
	expect(template).toContain("{{ $json.problems.join(' ') }}");
	return template.slice(1).replace("{{ $json.problems.join(' ') }}", read.problems.join(' '));
}

describe.each(CHAT_MESSAGES)('$text', ({ text, amount, outcome, says }) => {
	const { json: read } = readMessage({ chatInput: fillIn(text, fixtures), sessionId: 'test' });

	it(`reads the amount ${amount}`, () => {
		expect(read.amount).toBe(amount);
	});

	if (outcome === 'asked') {
		it('creates no quote, and the reply says what is missing or unclear', () => {
			expect(read.problems.length).toBeGreaterThan(0);
			const reply = askReply(read);
			expect(reply).toMatch(/^No quote was created\. /);
			for (const part of says ?? []) expect(reply).toContain(fillIn(part, fixtures));
			// Advice on writing amounts only where the amount is what is unclear.
			if (!/\bamount\b.*\d/i.test(text) || amount !== null)
				expect(read.problems.join(' ')).not.toContain('write the amount as one number');
		});
	} else {
		it('reads the client and the contract, with nothing missing', () => {
			expect(read.problems).toEqual([]);
			expect(read.clientId).toMatch(/^[0-9a-f-]{36}$/);
			expect(read.contractId).toBe(fixtures.contractId);
		});
	}
});
