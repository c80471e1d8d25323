import type { IDataObject } from 'n8n-workflow';

// A moment as the node sends it and as APIs answer it (with or without milliseconds, Z or offset).
const ISO_DATE_TIME_PATTERN =
	/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

function isEmpty(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		(typeof value === 'string' && value.trim() === '') ||
		(Array.isArray(value) && value.length === 0)
	);
}

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return value;
	if (typeof value === 'string' && value.trim() !== '') {
		const number = Number(value);
		return Number.isFinite(number) ? number : undefined;
	}
	return undefined;
}

/**
 * Whether the record's `stored` value already is the value a write would send, as the API stores
 * it: moments as the same instant whatever their form (the node sends them in UTC), numbers by
 * value, texts and options as given, lists entry by entry, objects by the keys sent (the API adds
 * its own, e.g. an entry's ID); an empty value matches a missing one.
 */
export function holdsValue(stored: unknown, sent: unknown): boolean {
	if (isEmpty(sent)) return isEmpty(stored);
	if (typeof sent === 'number') return asNumber(stored) === sent;
	if (typeof sent === 'boolean') return stored === sent;
	if (typeof sent === 'string') {
		if (stored === sent) return true;
		if (typeof stored === 'number') return asNumber(sent) === stored;
		return (
			typeof stored === 'string' &&
			ISO_DATE_TIME_PATTERN.test(sent) &&
			ISO_DATE_TIME_PATTERN.test(stored) &&
			Date.parse(sent) === Date.parse(stored)
		);
	}
	if (Array.isArray(sent))
		return (
			Array.isArray(stored) &&
			stored.length === sent.length &&
			sent.every((entry, index) => holdsValue(stored[index], entry))
		);
	if (isObject(sent))
		return (
			isObject(stored) &&
			Object.entries(sent).every(([name, value]) => holdsValue(stored[name], value))
		);
	return false;
}

/**
 * The values the record does not hold yet: what an update of it must send. The record holds each
 * under `readBackName(name)`, where the API reads a field back under another name than it takes.
 */
export function changedValues(
	record: IDataObject,
	values: IDataObject,
	readBackName: (name: string) => string = (name) => name,
): IDataObject {
	return Object.fromEntries(
		Object.entries(values).filter(
			([name, value]) => !holdsValue(record[readBackName(name)], value),
		),
	);
}
