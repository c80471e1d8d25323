/**
 * Chat messages as users write them to the chat example (examples/chat-quote-creation.json), and
 * what follows from each. The e2e suite sends them through the example in a real n8n; the unit
 * test chatExample.test.ts runs the example's Code node on them directly.
 */

export type ChatOutcome = 'created' | 'asked' | 'refused';

export interface ChatMessage {
	/** The message, with placeholders for the sandbox's fixtures (see fillIn). */
	text: string;
	/** The amount the Code node reads (null: not read). */
	amount: number | null;
	/** A quote created, a reply that asks again (nothing sent), or the API's refusal. */
	outcome: ChatOutcome;
	/** What the reply of an 'asked' message must say (placeholders filled in too). */
	says?: string[];
}

const message = (
	text: string,
	amount: number | null,
	outcome: ChatOutcome,
	...says: string[]
): ChatMessage => ({ text, amount, outcome, ...(says.length > 0 && { says }) });

export const CHAT_MESSAGES: ChatMessage[] = [
	message('Please quote client {client}, contract {contract}, amount 1,250', 1250, 'created'),
	message('client {client} contract {contract} amount 1.250,50 EUR', 1250.5, 'created'),
	message(
		'Quote for client: {client} / contract: {contract} / amount: €12,500.75',
		12500.75,
		'created',
	),
	message('client {client} contract {contract} amount 980', 980, 'created'),
	message("client {client} contract {contract} amount 2'400.5 CHF, thanks!", 2400.5, 'created'),
	message('client {client} contract {contract} amount 3 100,25', 3100.25, 'created'),
	// An amount that could mean another number, or none: the reply says how to write it.
	message(
		'client {client} contract {contract} amount 1,2500',
		null,
		'asked',
		'The amount "1,2500" cannot be read as one number without doubt: write the amount as one number',
	),
	message(
		'client {client} contract {contract} amount 1,250 or 1,300',
		null,
		'asked',
		'The amount "1,250 or 1,300" holds more than one number',
	),
	message(
		'client {client} contract {contract} amount 1.2k',
		null,
		'asked',
		'The amount "1.2k" cannot be read as one number without doubt',
	),
	message(
		'client {client} contract {contract} amount -50',
		null,
		'asked',
		'The amount "-50" is below 0',
	),
	message(
		'client {client} contract {contract} amount 15%',
		null,
		'asked',
		'The amount "15%" cannot be read as one number without doubt',
	),
	message(
		'client {client} contract {contract} amount 1,250 for 3 days',
		null,
		'asked',
		'The amount "1,250 for 3 days" holds more than one number',
	),
	message(
		'client {client} contract {contract} amount 1250, amount 1300',
		null,
		'asked',
		'The message names 2 amounts ("1250", "1300"): give one.',
	),
	// A part missing, doubled, or not an ID: the reply names it, and nothing about amount formats.
	message(
		'client {client} contract {contract}, the usual price',
		null,
		'asked',
		'The message names no amount: write amount and one number',
	),
	message(
		'contract {contract} amount 1250',
		1250,
		'asked',
		'The message names no client: write client and its ID',
	),
	message(
		'client {client} amount 1250',
		1250,
		'asked',
		'The message names no contract: write contract and its ID',
	),
	message(
		'amount 500 please',
		500,
		'asked',
		'The message names no client',
		'The message names no contract',
	),
	message(
		'client {client} and client {otherClient}, contract {contract}, amount 900',
		900,
		'asked',
		'The message names 2 clients ({client}, {otherClient}): name one.',
	),
	message(
		'client {client} contract {contract} or {otherContract} amount 900',
		900,
		'asked',
		'The message names 2 contracts ({contract}, {otherContract}): name one.',
	),
	message(
		'client Acme Construction contract {contract} amount 900',
		900,
		'asked',
		'The client "Acme Construction" is not an ID: a client ID is a UUID',
	),
	message(
		'client 10002 contract {contract} amount 900',
		900,
		'asked',
		'The client "10002" is not an ID',
	),
	// Read, sent, and refused by the node or the API: the reply gives the reason.
	message('client {client} contract {contract} amount 250,000,000', 250000000, 'refused'),
	message(
		'client 00000000-0000-4000-8000-000000000000 contract {contract} amount 700',
		700,
		'refused',
	),
];

/** A text of the table with the sandbox's IDs in place of its placeholders. */
export function fillIn(text: string, fixtures: Record<string, string>): string {
	return text
		.replaceAll('{client}', fixtures.clientId)
		.replaceAll('{contract}', fixtures.contractId)
		.replaceAll('{otherClient}', fixtures.acmeClientId)
		.replaceAll('{otherContract}', fixtures.acmeBerlinContractId);
}
