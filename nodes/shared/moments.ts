import { DateTime } from 'luxon';

// A calendar date, optionally with a time after a T (ISO 8601) or a space (as CSV and Excel exports
// write it). Luxon also reads ISO week, ordinal and year-only forms; users mean a calendar date.
const DATE_AND_TIME_PATTERN = /^(\d{4}-\d{2}-\d{2})(?:[T ](.+))?$/;

/** ISO 8601 writes the years 0000 to 9999 without a sign; the API's date formats know no others. */
export function hasFourDigitYear(moment: DateTime): boolean {
	return moment.year >= 0 && moment.year <= 9999;
}

/** A JS Date of any realm: an expression may run in an isolate of its own, with its own Date. */
function isDate(value: unknown): value is Date {
	return Object.prototype.toString.call(value) === '[object Date]';
}

/**
 * The moment a value stands for: a luxon DateTime (what n8n's `$now` and `$today` give) or a JS Date
 * as it is; text as a calendar date with an optional time, read in `zone` unless it has an offset.
 * Undefined for anything else.
 */
export function momentOf(value: unknown, zone: string): DateTime | undefined {
	let moment: DateTime | undefined;
	if (DateTime.isDateTime(value)) moment = value;
	else if (isDate(value)) moment = DateTime.fromJSDate(value);
	else if (typeof value === 'string') {
		const [, date, time] = DATE_AND_TIME_PATTERN.exec(value.trim()) ?? [];
		if (date === undefined) return undefined;
		moment = DateTime.fromISO(time === undefined ? date : `${date}T${time}`, {
			zone,
			setZone: true,
		});
	}
	return moment?.isValid ? moment : undefined;
}
