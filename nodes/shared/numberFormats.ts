import type { INodeProperties } from 'n8n-workflow';

import { limitField, pageSizeField } from './listFields';
import { maxRateLimitWaitField, parallelRequestsField } from './requestOptionFields';

/**
 * How a number given as text is written: which separator marks the decimals and which the
 * thousands. A sheet's numbers come as text (a CSV has no other kind), written as its author's
 * locale writes them, and "12.000" is twelve thousand in Germany but twelve in the US.
 */
export interface NumberFormat {
	/** The form itself, as saved in the node and named in errors. */
	value: string;
	name: string;
	decimal: string;
	thousands: string;
}

export const NUMBER_FORMATS: readonly NumberFormat[] = [
	{
		value: '1,234.56',
		name: '1,234.56 (Point as Decimal Separator)',
		decimal: '.',
		thousands: ',',
	},
	{
		value: '1.234,56',
		name: '1.234,56 (Comma as Decimal Separator)',
		decimal: ',',
		thousands: '.',
	},
];

export const DEFAULT_NUMBER_FORMAT = NUMBER_FORMATS[0];
export const NUMBER_FORMAT_VALUES = NUMBER_FORMATS.map((format) => format.value);

/**
 * The form an item's numbers are read in, and whether the user could choose it: n8n gives no value
 * for a parameter the operation does not show, nor to the trigger, which reads the default form.
 */
export interface ChosenNumberFormat {
	format: NumberFormat;
	canChoose: boolean;
}

/** The form of the Number Format `value` (the default form when there is none). */
export function numberFormatOf(value: string | undefined): ChosenNumberFormat {
	return {
		format: NUMBER_FORMATS.find((format) => format.value === value) ?? DEFAULT_NUMBER_FORMAT,
		canChoose: value !== undefined,
	};
}

export const numberFormatField: INodeProperties = {
	displayName: 'Number Format',
	name: 'numberFormat',
	type: 'options',
	options: NUMBER_FORMATS.map(({ name, value }) => ({ name, value })),
	// DEFAULT_NUMBER_FORMAT's, written out for n8n's lint, which reads the default as a literal.
	default: '1,234.56',
	description:
		'How numbers given as text (e.g. from a CSV or a sheet) are written: the decimal separator, and the thousands separator between groups of three digits. JSON numbers are taken as they are. A text the other format reads as another number, such as 12.000, stops its item.',
};

/** What a text says as a number written in one form. */
export type NumberReading =
	| { value: number }
	/** Readable in both forms, as different numbers: a thousands group or three decimals. */
	| { ambiguous: { here: number; there: number; other: NumberFormat } }
	/** Not a number in this form; `there` is what it is in the other form, if it is one there. */
	| { unreadable: { there?: number; other: NumberFormat } };

const escaped = (separator: string) => `\\${separator}`;

/** The value `text` (trimmed) means written as `format`, `undefined` when it is not so written. */
function valueIn(text: string, format: NumberFormat): number | undefined {
	const decimal = escaped(format.decimal);
	const thousands = escaped(format.thousands);
	// The forms JavaScript reads, with the form's decimal separator: 12, -12.5, .5, 12., 1e3.
	const plain = new RegExp(`^[+-]?(\\d+${decimal}?\\d*|${decimal}\\d+)([eE][+-]?\\d+)?$`);
	// Thousands in strict groups of three: 12,000 and 1,234,567.89, never 12,00 nor 1,2345.
	const grouped = new RegExp(`^[+-]?\\d{1,3}(${thousands}\\d{3})+(${decimal}\\d*)?$`);
	if (!plain.test(text) && !grouped.test(text)) return undefined;
	return Number(text.split(format.thousands).join('').replace(format.decimal, '.'));
}

/**
 * Whether `text` could be the other form's thousands: its one separator is `format`'s decimal
 * separator, after 1 to 3 digits not starting with 0 and before exactly three digits (12.000).
 */
function couldBeThousands(text: string, format: NumberFormat): boolean {
	return new RegExp(`^[+-]?[1-9]\\d{0,2}${escaped(format.decimal)}\\d{3}$`).test(text);
}

/** `text` (trimmed) read as a number written as `format`. */
export function readNumberText(text: string, format: NumberFormat): NumberReading {
	const other = NUMBER_FORMATS.find((candidate) => candidate !== format)!;
	const here = valueIn(text, format);
	const there = valueIn(text, other);
	if (here === undefined) return { unreadable: { there, other } };
	if (there !== undefined && couldBeThousands(text, format))
		return { ambiguous: { here, there, other } };
	return { value: here };
}

/** `value` written as `format` without thousands separators, e.g. 1250.5 as "1250,5". */
export function writtenAs(value: number, format: NumberFormat): string {
	return String(value).replace('.', format.decimal);
}

/** The bounds of a number, as the end of "a number written as 1,234.56...". */
function describeBounds({ min, max }: { min?: number; max?: number }): string {
	if (min !== undefined && max !== undefined) return `, from ${min} to ${max}`;
	if (min !== undefined) return `, of at least ${min}`;
	if (max !== undefined) return `, no greater than ${max}`;
	return '';
}

/**
 * What an error about a text that is no number of `format` says: in its message (`detail`, what the
 * text could be), and in its description, how to write it or which Number Format to choose, when
 * the operation shows Number Format (`canChoose`).
 */
function numberTextProblem(
	text: string,
	reading: Exclude<NumberReading, { value: number }>,
	format: NumberFormat,
	canChoose: boolean,
): { detail: string; hint?: string } {
	if ('ambiguous' in reading) {
		const { here, there, other } = reading.ambiguous;
		// Each meaning written as the form that reads it: 1,25 is no 1.25 to a reader of 1.234,56.
		const meant = writtenAs(here, format);
		const meantThere = writtenAs(there, other);
		const instead = writtenAs(there, format);
		const choose = canChoose
			? `choose ${other.name} in Number Format (every text number of the node is then read so), or write ${instead}`
			: `write ${instead}`;
		// 52.525 has no shorter form: a fourth decimal tells it from a thousands group.
		const decimalsOnly = meant === text ? `${text}0` : meant;
		return {
			detail: `: "${text}" could be ${meant} (as ${format.value}) or ${meantThere} (as ${other.value})`,
			hint: `The node does not guess which. If it means ${meantThere}, ${choose}; if it means ${meant}, write ${decimalsOnly}.`,
		};
	}
	const { there, other } = reading.unreadable;
	if (there === undefined) return { detail: '' };
	const fix = canChoose
		? `if the numbers are written so, choose ${other.name} in Number Format`
		: `write it as ${writtenAs(there, format)}`;
	return {
		detail: '',
		hint: `Written as ${other.value} it is ${writtenAs(there, other)}: ${fix}.`,
	};
}

/**
 * `value` as a number in `bounds`: a JSON number as it is, a text as written in the chosen form; or
 * what its error says was expected (the form first, the bounds second) and how to fix it.
 */
export function numberOf(
	value: unknown,
	{ format, canChoose }: ChosenNumberFormat,
	bounds: { min?: number; max?: number },
): { value: number } | { expected: string; hint?: string } {
	const expected = `a number written as ${format.value}${describeBounds(bounds)}`;
	let parsed = typeof value === 'number' ? value : Number.NaN;
	if (typeof value === 'string') {
		const text = value.trim();
		const reading = readNumberText(text, format);
		if (!('value' in reading)) {
			const { detail, hint } = numberTextProblem(text, reading, format, canChoose);
			return { expected: `${expected}${detail}`, hint };
		}
		parsed = reading.value;
	}
	if (
		!Number.isFinite(parsed) ||
		(bounds.min !== undefined && parsed < bounds.min) ||
		(bounds.max !== undefined && parsed > bounds.max)
	)
		return { expected };
	return { value: parsed === 0 ? 0 : parsed };
}

/** Numbers that set how the node reads or sends, not a record's values: no reason to show the form. */
const SETTINGS = new Set(
	[limitField, pageSizeField, parallelRequestsField, maxRateLimitWaitField].map(
		(field) => field.name,
	),
);

/** Whether `property`, or a field of its collection or entries, is a number of a record. */
function holdsNumber(property: INodeProperties): boolean {
	if (property.type === 'number') return !SETTINGS.has(property.name);
	return (property.options ?? []).some((option) =>
		'values' in option
			? option.values.some(holdsNumber)
			: 'type' in option && holdsNumber(option as INodeProperties),
	);
}

/**
 * Number Format, shown for every operation among `properties` whose fields hold a number: one
 * property per resource, which the node merges where it can (engine/sameNamedProperties.ts).
 */
export function numberFormatFields(properties: INodeProperties[]): INodeProperties[] {
	const operations = new Map<string, Set<string>>();
	for (const property of properties) {
		const show = property.displayOptions?.show;
		if (!holdsNumber(property) || !show?.resource || !show.operation) continue;
		for (const resource of show.resource as string[]) {
			const names = operations.get(resource) ?? new Set();
			for (const operation of show.operation as string[]) names.add(operation);
			operations.set(resource, names);
		}
	}
	return [...operations].map(([resource, names]) => ({
		...numberFormatField,
		displayOptions: { show: { resource: [resource], operation: [...names] } },
	}));
}
