import { DateTime } from 'luxon';
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ErrorContext } from './errors';
import { itemSuffix } from './errors';

/**
 * A node parameter as the user sees it: its saved name and its display name (used in error
 * messages).
 */
export type Field = Pick<INodeProperties, 'name' | 'displayName' | 'required' | 'modes'>;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// A calendar date, optionally with a time after a T (ISO 8601) or a space (as CSV and Excel exports
// write it). Luxon also reads ISO week, ordinal and year-only forms; users mean a calendar date.
const DATE_AND_TIME_PATTERN = /^(\d{4}-\d{2}-\d{2})(?:[T ](.+))?$/;
const NUMBER_TEXT_PATTERN = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
// Not RFC 5322, whose quoted and commented forms no one types: one @, a local part without spaces
// or invisible characters, and a domain of dotted labels. Letters of any script, as addresses and
// domains may hold them (RFC 6531, IDN). The sandbox checks the same rule (sandbox/contract.js):
// the vendor's reference shows none.
const EMAIL_PATTERN = /^[^\s@\p{Cc}\p{Cf}\p{Cs}]+@[\p{L}\p{M}\p{N}-]+(?:\.[\p{L}\p{M}\p{N}-]+)+$/u;
// Half of a UTF-16 surrogate pair, without its other half.
const LONE_SURROGATE_PATTERN =
	/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const EXAMPLE_UUID = '3f6c2a5e-8b1d-4c7a-9e2f-1a2b3c4d5e6f';
/**
 * The name of every list's Filters collection. A filter dropped for being empty would read the
 * whole list instead of the part meant (a blank cell once repriced every product), so a filter the
 * user added must have a value.
 */
export const FILTERS_COLLECTION_NAME = 'filters';

function describeReceived(value: unknown): string {
	if (value === undefined || value === null || value === '') return 'nothing';
	if (typeof value === 'string')
		return `the text "${value.length > 60 ? `${value.slice(0, 57)}...` : value}"`;
	if (typeof value === 'number') return `the number ${Number.isNaN(value) ? 'NaN' : String(value)}`;
	if (Array.isArray(value)) return 'a list';
	return `a value of type ${typeof value}`;
}

/** ISO 8601 writes the years 0000 to 9999 without a sign; the API's date formats know no others. */
function hasFourDigitYear(moment: DateTime): boolean {
	return moment.year >= 0 && moment.year <= 9999;
}

/**
 * An object of key-value pairs from any realm (expressions run in their own), not an instance such
 * as a date.
 */
function isPlainObject(value: unknown): value is IDataObject {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value);
	return prototype === null || Object.getPrototypeOf(prototype) === null;
}

/** A JS Date, told by its tag: `instanceof Date` fails for one made in another realm. */
function isDate(value: unknown): value is Date {
	return Object.prototype.toString.call(value) === '[object Date]';
}

function isUnset(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/** The mode of a picker that names a record by the external ID another system gave it. */
export const EXTERNAL_ID_MODE = 'externalId';

/** A record a field refers to: by its ID, or by the external ID another system gave it. */
export type RecordReference = { id: string } | { externalId: string };

/**
 * What reading parameters needs of a node's context: an item's function context, or a trigger's (no
 * item).
 */
export interface ParameterContext extends ErrorContext {
	getNodeParameter(
		parameterName: string,
		fallbackValue?: unknown,
		options?: { extractValue?: boolean; rawExpressions?: boolean },
	): unknown;
	getTimezone(): string;
}

/**
 * Reads one item's parameters and checks each against the Integration API's rules before anything
 * is sent. Every error names the field's display name, what was expected and the item, so one bad
 * item fails alone.
 */
export class ItemParameters {
	private readonly itemIndex: number | undefined;
	private readonly savedCollections = new Map<string, unknown>();

	constructor(private readonly context: ParameterContext) {
		this.itemIndex = context.getItemIndex?.();
	}

	invalid(field: Field, expected: string, value?: unknown, hint?: string): NodeOperationError {
		const received = arguments.length > 2 ? ` Received ${describeReceived(value)}.` : '';
		return new NodeOperationError(
			this.context.getNode(),
			`'${field.displayName}' must be ${expected}${itemSuffix(this.context)}`,
			{
				itemIndex: this.itemIndex,
				description: `${received.trim()}${hint ? ` ${hint}` : ''}`.trim(),
			},
		);
	}

	/**
	 * The raw value, `undefined` when an optional field is left empty; a required empty field is an
	 * error.
	 */
	private read(field: Field, collection?: Field): unknown {
		// Asking n8n for an option the user did not add costs as much as for one they did (it finds
		// the option in the description and checks it), and an operation asks for dozens per item.
		if (collection && !this.mayBeAdded(field, collection)) return undefined;
		const { value } = this.located(field, collection);
		if (!isUnset(value)) return value;
		if (field.required && !collection) throw this.invalid(field, 'set: this field is required');
		if (collection?.name === FILTERS_COLLECTION_NAME && this.isAdded(field, collection)) {
			throw this.invalid(
				field,
				'a value: the filter was added but is empty',
				value,
				'Nothing was read: without this filter the list would hold every record. Give it a value for this item (check the expression and the data it reads), or remove the filter.',
			);
		}
		return undefined;
	}

	/**
	 * The value given for `field`, a picker's (resource locator's) with the mode it was given in,
	 * which must be one of the field's: a mode the field lacks (an imported or generated workflow)
	 * would otherwise send its value as an ID. A plain value, such as an ID that version 0.2.0 saved
	 * in what is a picker now, is taken as it is.
	 */
	private located(field: Field, collection?: Field): { value: unknown; mode?: unknown } {
		const path = collection ? `${collection.name}.${field.name}` : field.name;
		// n8n throws for a missing parameter when the fallback is undefined; an unset collection field
		// is missing.
		const value = this.context.getNodeParameter(path, null) as unknown;
		if (!isPlainObject(value) || !('mode' in value) || !('value' in value)) return { value };
		const modes = field.modes ?? [];
		if (modes.length > 0 && !modes.some((mode) => mode.name === value.mode)) {
			const names = modes.map((mode) => mode.displayName);
			throw this.invalid(
				field,
				`given in one of its modes, ${names.slice(0, -1).join(', ')} or ${names.at(-1)}`,
				undefined,
				`It was saved in the mode "${String(value.mode)}", which this field does not have (e.g. in a workflow that was imported or generated). Choose one of its modes in the field.`,
			);
		}
		return { value: value.value, mode: value.mode };
	}

	/** Whether the user added `field` to `collection`, whatever its value came out as. */
	private isAdded(field: Field, collection: Field): boolean {
		const values = this.context.getNodeParameter(collection.name, {}) as unknown;
		return isPlainObject(values) && Object.hasOwn(values, field.name);
	}

	/**
	 * Whether `field` may be in `collection`, from the collection as saved (its expressions not
	 * evaluated): not when the saved collection lacks it; maybe when the whole collection is an
	 * expression.
	 */
	private mayBeAdded(field: Field, collection: Field): boolean {
		const saved = this.savedCollection(collection);
		return !isPlainObject(saved) || Object.hasOwn(saved, field.name);
	}

	/**
	 * Whether the user added `field` to `collection` (whatever its value comes out as); not when the
	 * whole collection is an expression, which names no field as added.
	 */
	wasAdded(field: Field, collection: Field): boolean {
		const saved = this.savedCollection(collection);
		return isPlainObject(saved) && Object.hasOwn(saved, field.name);
	}

	private savedCollection(collection: Field): unknown {
		let saved = this.savedCollections.get(collection.name);
		if (saved === undefined) {
			saved = this.context.getNodeParameter(collection.name, {}, { rawExpressions: true });
			this.savedCollections.set(collection.name, saved);
		}
		return saved;
	}

	/** The value at `path` as it is, `undefined` when not there (e.g. a fixed collection's entries). */
	raw(path: string): unknown {
		return this.context.getNodeParameter(path, null) ?? undefined;
	}

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

	text(field: Field, collection?: Field): string | undefined {
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

	number(
		field: Field,
		bounds: { min?: number; max?: number } = {},
		collection?: Field,
	): number | undefined {
		const value = this.read(field, collection);
		if (value === undefined) return undefined;
		const parsed =
			typeof value === 'number'
				? value
				: typeof value === 'string' && NUMBER_TEXT_PATTERN.test(value.trim())
					? Number(value.trim())
					: Number.NaN;
		const range =
			bounds.min !== undefined && bounds.max !== undefined
				? `a number from ${bounds.min} to ${bounds.max}`
				: bounds.min !== undefined
					? `a number of at least ${bounds.min}`
					: bounds.max !== undefined
						? `a number no greater than ${bounds.max}`
						: 'a number';
		if (!Number.isFinite(parsed)) throw this.invalid(field, range, value);
		if (
			(bounds.min !== undefined && parsed < bounds.min) ||
			(bounds.max !== undefined && parsed > bounds.max)
		) {
			throw this.invalid(field, range, value);
		}
		return parsed === 0 ? 0 : parsed;
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
		const day = this.toDateTime(value)?.setZone(zone);
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
		const moment = this.toDateTime(value)?.toUTC();
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

	/**
	 * The moment a value stands for: a luxon DateTime (what n8n's `$now` and `$today` give) or a JS
	 * Date as it is; text as a calendar date with an optional time, read in the workflow's timezone
	 * unless it has an offset.
	 */
	private toDateTime(value: unknown): DateTime | undefined {
		let moment: DateTime | undefined;
		if (DateTime.isDateTime(value)) moment = value;
		else if (isDate(value)) moment = DateTime.fromJSDate(value);
		else if (typeof value === 'string') {
			const [, date, time] = DATE_AND_TIME_PATTERN.exec(value.trim()) ?? [];
			if (date === undefined) return undefined;
			moment = DateTime.fromISO(time === undefined ? date : `${date}T${time}`, {
				zone: this.context.getTimezone(),
				setZone: true,
			});
		}
		return moment?.isValid ? moment : undefined;
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
