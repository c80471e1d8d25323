import type { IDataObject, IExecutePaginationFunctions, INodePropertyOptions } from 'n8n-workflow';

import { resourceField } from '../../shared/descriptions';
import type { Field } from '../../shared/parameters';
import { FILTERS_COLLECTION_NAME } from '../../shared/parameters';

/** "a", "a and b", "a, b and c". */
function listed(words: string[]): string {
	return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words.join('');
}

function asText(value: unknown): string {
	return Array.isArray(value) ? value.map(String).join(', ') : String(value);
}

/**
 * What an operation run as an AI agent's tool answers where it found nothing, e.g.
 * `{ "result": "No client was found for Search 'Nothere Ltd'." }`: the kind of record asked for
 * (the Resource's name) and what the item asked with, each field by its label in the form and the
 * value as sent: the request's path (the client whose contact persons, the day of a report) and the
 * Filters the item added (not the paging and sorting options).
 *
 * Why: n8n hands a model the tool's output items as JSON, and no items as an empty answer: `""`
 * from AI Agent 3 on (n8n 1.123 to 2.41, nodes-langchain buildSteps), `[]` from the Tools Agent
 * (n8n-core getInputConnectionData). Neither tells a model that the search ran and matched nothing
 * rather than failed. A node used as a workflow's step keeps outputting no items, as n8n users
 * expect of an empty list.
 */
export function nothingFoundAnswer(
	context: Pick<IExecutePaginationFunctions, 'getNodeParameter'>,
	/** The path parameters and query of the operation's own request. */
	request: { path?: Record<string, string>; qs?: IDataObject },
	fieldsByApiName: Record<string, Field>,
): IDataObject {
	const resource = context.getNodeParameter(resourceField.name, '') as string;
	const record = (resourceField.options as INodePropertyOptions[])
		.find((option) => option.value === resource)
		?.name.toLowerCase();
	const filtersGiven = Object.keys(context.getNodeParameter(FILTERS_COLLECTION_NAME, {}) as object);
	const askedWith = [
		...Object.entries(request.path ?? {}),
		...Object.entries(request.qs ?? {}).filter(([name]) => filtersGiven.includes(name)),
	].map(([name, value]) => `${fieldsByApiName[name]?.displayName ?? name} '${asText(value)}'`);
	const criteria = askedWith.length > 0 ? ` for ${listed(askedWith)}` : '';
	return { result: `No ${record ?? 'record'} was found${criteria}.` };
}
