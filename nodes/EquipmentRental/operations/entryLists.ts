import type { INodeProperties } from 'n8n-workflow';

import type { Field, ItemParameters } from '../../shared/parameters';
import { isPlainObject, isUnset } from '../../shared/parameterReader';
import type { BodyField, NestedDescribed } from './bodyFields';
import { nestedPath, nestedProperty, readEntry } from './bodyFields';

const FIELDS_INPUT = 'fields';
const JSON_INPUT = 'json';

/** A list's field as the form shows it, with an example of its entries as JSON. */
type ListDescribed = NestedDescribed & { example: string };

/** What a list's entries are, as its errors and descriptions name them. */
interface EntryShape {
	entryDisplayName: string;
	keys: string[];
	example: string;
	label: (index: number) => string;
}

/** A list's input mode and its JSON field, named after the list (`field`, as laid out). */
function inputsOf(field: Field) {
	return {
		mode: { name: `${field.name}Input`, displayName: `${field.displayName} Input` },
		json: {
			name: `${field.name}Json`,
			displayName: `${field.displayName} (JSON)`,
			required: field.required,
		},
	};
}

/**
 * The form of a list: its input mode, its fixed collection and its JSON field, each shown by the
 * mode. The fixed collection is shown unless the mode says JSON, so that a list saved before the mode
 * existed (or in a collection where the mode was not added: a collection's missing option has no
 * default) keeps being read from the fields.
 */
function listForm(shape: EntryShape) {
	return (list: INodeProperties): INodeProperties[] => {
		const { mode, json } = inputsOf(list);
		return [
			{
				...mode,
				type: 'options',
				noDataExpression: true,
				default: FIELDS_INPUT,
				options: [
					{
						name: 'Fields',
						value: FIELDS_INPUT,
						description: `Each ${shape.entryDisplayName} in its own fields`,
					},
					{
						name: 'JSON',
						value: JSON_INPUT,
						description:
							'The whole list as JSON, e.g. from an expression that reads it from the item',
					},
				],
				description: `How to give the ${list.displayName.toLowerCase()}: in fields, or as JSON`,
			},
			{ ...list, displayOptions: { show: { [mode.name]: [{ _cnd: { not: JSON_INPUT } }] } } },
			{
				...json,
				type: 'json',
				default: '',
				description: `A list of ${shape.entryDisplayName}s as JSON, each an object of the keys ${shape.keys.join(', ')}, e.g. ${shape.example}. Each is checked as the fields are.`,
				displayOptions: { show: { [mode.name]: [JSON_INPUT] } },
			},
		];
	};
}

/**
 * The keys the API gives each entry of a record it reads back, which no write takes: an entry
 * copied from a record read (another tenant's price list) is taken without them.
 */
const READ_BACK_KEYS = ['id', 'createdAt', 'updatedAt'];

/**
 * The entries of a list given as JSON (an array, or JSON text of one), each an object of the keys
 * an entry takes (or the API reads back): a key it does not take would otherwise be dropped, or
 * sent, unseen.
 */
function jsonEntries(item: ItemParameters, json: Field, path: string, shape: EntryShape) {
	const value = item.raw(path);
	if (isUnset(value)) return [];
	const expected = `a list of ${shape.entryDisplayName}s as JSON, e.g. ${shape.example}`;
	let entries = value;
	if (typeof value === 'string') {
		try {
			entries = JSON.parse(value);
		} catch (error) {
			throw item.invalid(
				json,
				expected,
				value,
				`The text is not valid JSON: ${(error as Error).message}.`,
			);
		}
	}
	if (!Array.isArray(entries)) throw item.invalid(json, expected, value);
	const takes = `the keys a ${shape.entryDisplayName} takes (${shape.keys.join(', ')})`;
	entries.forEach((entry: unknown, index) => {
		const named = { name: `${path}[${index}]`, displayName: shape.label(index) };
		if (!isPlainObject(entry)) throw item.invalid(named, `an object of ${takes}`, entry);
		const unknown = Object.keys(entry).find(
			(key) => !shape.keys.includes(key) && !READ_BACK_KEYS.includes(key),
		);
		if (unknown !== undefined) throw item.invalid(named, `given only ${takes}, not "${unknown}"`);
	});
	return entries as unknown[];
}

/**
 * A list of entries of `entryFields`, e.g. a client's contact persons: given in n8n's fixed
 * collection with multiple values, or as JSON (a whole list from the item by one expression). Either
 * way each entry is read by the same checks, named by the entry ("Price Item 2: Price"), so the two
 * send the same body for the same entries.
 */
export function entriesField(
	{ example, ...described }: ListDescribed,
	entryFields: BodyField[],
): BodyField {
	const shape: EntryShape = {
		entryDisplayName: described.entryDisplayName,
		keys: entryFields.map((entryField) => entryField.property.name),
		example,
		label: (index) => `${described.entryDisplayName} ${index + 1}`,
	};
	// The entries as the item gives them (in the fields, or as JSON), where each is read from, and
	// the field that gave them, which an empty required list names.
	const givenEntries = (item: ItemParameters, field: Field, collection?: Field) => {
		const { mode, json } = inputsOf(field);
		if (item.oneOf(mode, [FIELDS_INPUT, JSON_INPUT], collection) !== JSON_INPUT) {
			const path = nestedPath(described, collection);
			const entries = item.raw(path);
			return { given: field, path, entries: Array.isArray(entries) ? entries : [], reader: item };
		}
		const path = `${collection ? `${collection.name}.` : ''}${json.name}`;
		const entries = jsonEntries(item, json, path, shape);
		return { given: json, path, entries, reader: item.within(path, entries) };
	};
	return {
		entries: { fields: entryFields, label: shape.label },
		property: nestedProperty(described, entryFields, true),
		inputs: listForm(shape),
		read(item, field, collection) {
			const { given, path, entries, reader } = givenEntries(item, field, collection);
			if (entries.length === 0) {
				if (given.required)
					throw item.invalid(given, `given at least one ${shape.entryDisplayName}`);
				return undefined;
			}
			return entries.map((_entry, index) =>
				readEntry(reader, `${path}[${index}]`, entryFields, shape.label(index)),
			);
		},
	};
}
