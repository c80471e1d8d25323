import type { IDataObject } from 'n8n-workflow';

import { hasFourDigitYear, momentOf } from './moments';
import type { ChosenNumberFormat } from './numberFormats';
import { NUMBER_FORMAT_VALUES, numberFormatField, numberFormatOf, numberOf } from './numberFormats';
import type { Field } from './parameterReader';
import { EXTERNAL_ID_MODE, ParameterReader, isPlainObject, isUnset } from './parameterReader';

export type { Field, ParameterContext } from './parameterReader';
export { EXTERNAL_ID_MODE, FILTERS_COLLECTION_NAME } from './parameterReader';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Not RFC 5322, whose quoted and commented forms no one types: one @, a local part without spaces
// or invisible characters, and a domain of dotted labels. Letters of any script, as addresses and
// domains may hold them (RFC 6531, IDN). The sandbox checks the same rule (sandbox/contract.js):
// the vendor's reference shows none.
const EMAIL_PATTERN = /^[^\s@\p{Cc}\p{Cf}\p{Cs}]+@[\p{L}\p{M}\p{N}-]+(?:\.[\p{L}\p{M}\p{N}-]+)+$/u;
// Half of a UTF-16 surrogate pair, without its other half.
const LONE_SURROGATE_PATTERN =
	/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const EXAMPLE_UUID = '3f6c2a5e-8b1d-4c7a-9e2f-1a2b3c4d5e6f';

/** A record a field refers to: by its ID, or by the external ID another system gave it. */
export type RecordReference = { id: string } | { externalId: string };

/**
 * Reads one item's parameters and checks each against the Integration API's rules before anything
 * is sent. Every error names the field's display name, what was expected and the item, so one bad
 * item fails alone.
 */
export class ItemParameters extends ParameterReader {
	/** The node's Number Format, read at the item's first number. */
	private numberFormat?: ChosenNumberFormat;

	boolean(field: Field, collection?: Field): boolean | undefined {
		const value = this.read(field, collection);
		if (value === undefined || typeof value === 'boolean') return value;
		const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
		if (text === 'true' || text === 'false') return text === 'true';
		throw this.invalid(field, 'true or false', value);
	}

	/**
	 * A picker's record: by ID (From List, By ID, or a plain ID saved in the field), or by external
	 * ID where the picker's mode says so.
	 */
	reference(
		field: Field,
		collection?: Field,
		{ idIsUuid = false } = {},
	): RecordReference | undefined {
		if (this.located(field, collection).mode !== EXTERNAL_ID_MODE) {
			const id = idIsUuid ? this.uuid(field, collection) : this.identifier(field, collection);
			return id === undefined ? undefined : { id };
		}
		const externalId = this.identifier(field, collection);
		return externalId === undefined ? undefined : { externalId };
	}

	uuid(field: Field, collection?: Field): string | undefined {
		const value = this.read(field, collection);
		if (value === undefined) return undefined;
		return this.checkUuid(field, value);
	}

	/** A list of UUIDs given as an array or as comma-separated text. */
	uuidList(field: Field, collection?: Field): string[] | undefined {
		return this.list(field, collection, 'UUIDs', (entry) =>
			this.checkUuid(field, entry, `a list of UUIDs such as ${EXAMPLE_UUID}, separated by commas`),
		);
	}

	/** A list of identifiers of unshown format given as an array or as comma-separated text. */
	identifierList(field: Field, collection?: Field): string[] | undefined {
		return this.list(field, collection, 'identifiers', (entry) =>
			this.checkIdentifier(field, entry, 'a list of identifiers, separated by commas'),
		);
	}

	private list(
		field: Field,
		collection: Field | undefined,
		entriesAre: string,
		check: (entry: unknown) => string,
	): string[] | undefined {
		const value = this.read(field, collection);
		if (value === undefined) return undefined;
		const entries = typeof value === 'string' ? value.split(',') : value;
		if (!Array.isArray(entries)) {
			throw this.invalid(
				field,
				`a list of ${entriesAre}, as an array or comma-separated text`,
				value,
			);
		}
		const values = entries.filter((entry) => !isUnset(entry)).map(check);
		return values.length ? values : undefined;
	}

	private checkUuid(
		field: Field,
		value: unknown,
		expected = `a UUID such as ${EXAMPLE_UUID}`,
	): string {
		const text = typeof value === 'string' ? value.trim() : undefined;
		if (text === undefined || !UUID_PATTERN.test(text)) throw this.invalid(field, expected, value);
		return text;
	}

	/** An identifier of unshown format: any text except the path segments "." and "..". */
	identifier(field: Field, collection?: Field): string | undefined {
		const value = this.read(field, collection);
		if (value === undefined) return undefined;
		return this.checkIdentifier(field, value);
	}

	private checkIdentifier(
		field: Field,
		value: unknown,
		expected = 'a non-empty identifier (text, not "." or "..")',
	): string {
		const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
		if (typeof text !== 'string' || text.trim() === '.' || text.trim() === '..') {
			throw this.invalid(field, expected, value);
		}
		return this.wholeCharacters(field, text.trim(), value);
	}

	/**
	 * Text without the spaces around it, as e-mails and external IDs are: a cell's stray spaces
	 * (" Schröder & Co. KG ") are no part of a name, and stored with them they would differ from
	 * every later run's value.
	 */
	text(field: Field, collection?: Field): string | undefined {
		return this.freeText(field, collection)?.trim();
	}

	/** Text as given, spaces included (free text, whose layout is the user's). */
	freeText(field: Field, collection?: Field): string | undefined {
		const value = this.read(field, collection);
		if (value === undefined) return undefined;
		if (typeof value !== 'string' && typeof value !== 'number')
			throw this.invalid(field, 'text', value);
		return this.wholeCharacters(field, String(value), value);
	}

	/**
	 * An e-mail address, trimmed. The reference does not say that the API checks one, so a typo such
	 * as "info(at)example.com" could be stored as a success.
	 */
	email(field: Field, collection?: Field): string | undefined {
		const value = this.read(field, collection);
		if (value === undefined) return undefined;
		const address = typeof value === 'string' ? value.trim() : undefined;
		if (address === undefined || !EMAIL_PATTERN.test(address))
			throw this.invalid(field, 'an e-mail address', value);
		return address;
	}

	/**
	 * Half of a UTF-16 surrogate pair is no character and has no UTF-8 form, so it cannot be put in a
	 * URL.
	 */
	private wholeCharacters(field: Field, text: string, value: unknown): string {
		if (LONE_SURROGATE_PATTERN.test(text)) {
			throw this.invalid(
				field,
				'text of whole Unicode characters',
				value,
				'It holds half of a surrogate pair.',
			);
		}
		return text;
	}

	/**
	 * A number: a JSON number as it is, a text as written in the node's Number Format (the default
	 * one where the operation has none). A text the other form reads as another number fails rather
	 * than be read as one of the two.
	 */
	number(
		field: Field,
		bounds: { min?: number; max?: number } = {},
		collection?: Field,
	): number | undefined {
		const value = this.read(field, collection);
		if (value === undefined) return undefined;
		this.numberFormat ??= numberFormatOf(this.oneOf(numberFormatField, NUMBER_FORMAT_VALUES));
		const read = numberOf(value, this.numberFormat, bounds);
		if ('value' in read) return read.value;
		throw this.invalid(field, read.expected, value, read.hint);
	}

	/** Some of `allowed` (a multiple choice), `undefined` when none is chosen. */
	someOf<T extends string>(field: Field, allowed: readonly T[]): T[] | undefined {
		const value = this.read(field);
		if (value === undefined) return undefined;
		const chosen = typeof value === 'string' ? value.split(',') : value;
		if (!Array.isArray(chosen)) throw this.invalid(field, `a list of ${allowed.join(', ')}`, value);
		const names = chosen.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
		const unknown = names.find((name) => !allowed.includes(name as T));
		if (unknown !== undefined)
			throw this.invalid(field, `a list of ${allowed.join(', ')}`, unknown);
		return names.length > 0 ? (names as T[]) : undefined;
	}

	oneOf<T extends string>(field: Field, allowed: readonly T[], collection?: Field): T | undefined {
		const value = this.read(field, collection);
		if (value === undefined) return undefined;
		if (typeof value !== 'string' || !allowed.includes(value.trim() as T)) {
			throw this.invalid(field, `one of ${allowed.join(', ')}`, value);
		}
		return value.trim() as T;
	}

	/**
	 * A calendar date sent as YYYY-MM-DD; a date and time counts as its day in the workflow's
	 * timezone.
	 */
	calendarDate(field: Field, collection?: Field): string | undefined {
		const value = this.read(field, collection);
		if (value === undefined) return undefined;
		const zone = this.context.getTimezone();
		const day = momentOf(value, this.context.getTimezone())?.setZone(zone);
		if (!day || !hasFourDigitYear(day)) {
			throw this.invalid(
				field,
				'a real calendar date: YYYY-MM-DD such as 2024-05-31, or a date and time',
				value,
				`A date and time (YYYY-MM-DD HH:mm or HH:mm:ss, with a space or a T, ISO 8601 with an offset, or a date from an expression such as {{ $today }}) counts as its day in the workflow's timezone (${zone}).`,
			);
		}
		return day.toISODate() as string;
	}

	/**
	 * A moment sent as ISO 8601 in UTC. One written without an offset is read in the workflow's
	 * timezone, and a date alone as the start of that day there (00:00, what a user means by a day
	 * given for a moment, e.g. Updated After 2024-05-31).
	 */
	dateTime(field: Field, collection?: Field): string | undefined {
		const value = this.read(field, collection);
		if (value === undefined) return undefined;
		const moment = momentOf(value, this.context.getTimezone())?.toUTC();
		if (!moment || !hasFourDigitYear(moment)) {
			throw this.invalid(
				field,
				'a real date and time: YYYY-MM-DD HH:mm or HH:mm:ss (with a space or a T), YYYY-MM-DD, or ISO 8601 with an offset such as 2024-05-31T14:30:00Z',
				value,
				`Without an offset it is read in the workflow's timezone (${this.context.getTimezone()}), a date alone as 00:00 that day. A date from an expression such as {{ $now }} works too.`,
			);
		}
		return moment.toISO() as string;
	}

	/** A JSON object, given as an object or as JSON text. */
	jsonObject(field: Field, collection?: Field): IDataObject | undefined {
		const value = this.read(field, collection);
		if (value === undefined) return undefined;
		let parsed = value;
		if (typeof value === 'string') {
			try {
				parsed = JSON.parse(value);
			} catch {
				throw this.invalid(
					field,
					'a JSON object such as {"channel": "chat"}',
					value,
					'The text is not valid JSON.',
				);
			}
		}
		if (!isPlainObject(parsed))
			throw this.invalid(field, 'a JSON object such as {"channel": "chat"}', value);
		return parsed;
	}
}

/** Drops the fields that were not set, so that only what the user gave is sent. */
export function withoutUnset<Values extends IDataObject>(
	values: Values,
): { [name in keyof Values]?: Exclude<Values[name], undefined> } {
	return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as {
		[name in keyof Values]?: Exclude<Values[name], undefined>;
	};
}
