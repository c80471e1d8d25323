import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { DATE_TIME_FORMS } from '../../shared/descriptions';
import type { Field, ItemParameters, RecordReference } from '../../shared/parameters';
import { EXAMPLE_UUID, withoutUnset } from '../../shared/parameters';
import { idPicker } from './pickers';
import type { PickerSearch } from './pickers';
import type { ReferencedKind } from '../../shared/paths';

/**
 * A field of a record's body as the form shows it (named as the API names it) and how one item's
 * value is read and checked: the writes' factories (writes/) lay these out as required
 * fields, Additional Fields or Update Fields.
 */
export interface BodyField {
	property: INodeProperties;
	/** The item's value, `undefined` when not given; `field` is the property or a renamed copy. */
	read(item: ItemParameters, field: Field, collection?: Field): unknown;
	/** The kind of record an ID field refers to, which it can also find by external ID. */
	refersTo?: ReferencedKind;
	/** The fields of each entry of a list (entryLists.ts), and how the form names an entry. */
	entries?: { fields: BodyField[]; label: (index: number) => string };
	/** The name the API reads the field back under where it takes it under another (contracts). */
	readBackAs?: string;
	/**
	 * The properties the form shows for the field where it is more than `property` (given as it is
	 * laid out: required or not), e.g. a list's input mode and its JSON beside its fixed collection.
	 */
	inputs?: (property: INodeProperties) => INodeProperties[];
}

/** The properties the form shows for `field`, where it is laid out (see BodyField.inputs). */
export function formOf(field: BodyField): INodeProperties[] {
	return field.inputs?.(field.property) ?? [field.property];
}

interface Described {
	displayName: string;
	name: string;
	description: string;
	placeholder?: string;
	required?: boolean;
}

function property(
	described: Described,
	type: INodeProperties['type'],
	extra = {},
): INodeProperties {
	const { required, ...rest } = described;
	return { ...rest, type, default: '', ...(required ? { required } : {}), ...extra };
}

export function textField(described: Described): BodyField {
	return {
		property: property(
			{ ...described, description: `${described.description} (spaces around it are removed)` },
			'string',
		),
		read: (item, field, collection) => item.text(field, collection),
	};
}

/** A record's Additional Information: free text, whose spaces and line breaks are the user's. */
export function additionalInformationField(recordName: string): BodyField {
	return {
		property: property(
			{
				name: 'additionalInformation',
				displayName: 'Additional Information',
				description: `Free text about the ${recordName}, kept as given, spaces included`,
			},
			'string',
			{ typeOptions: { rows: 2 } },
		),
		read: (item, field, collection) => item.freeText(field, collection),
	};
}

/** A text field, as most of a record's fields are. */
export const text = (
	name: string,
	displayName: string,
	description: string,
	placeholder?: string,
) => textField({ name, displayName, description, placeholder });

/** An e-mail address, checked before it is sent (ItemParameters.email). */
export function emailField(described: Omit<Described, 'placeholder'>): BodyField {
	return {
		property: property({ ...described, placeholder: 'e.g. name@example.com' }, 'string'),
		read: (item, field, collection) => item.email(field, collection),
	};
}

/** A JSON object, given as an object or as JSON text. */
export function jsonField(described: Omit<Described, 'placeholder'>): BodyField {
	return {
		property: property(described, 'json', { default: '{}' }),
		read: (item, field, collection) => item.jsonObject(field, collection),
	};
}

/** A list of texts (IDs), as an array or as comma-separated text. */
export function textListField(described: Described): BodyField {
	return {
		property: property(described, 'string'),
		read: (item, field, collection) => item.identifierList(field, collection),
	};
}

/** An ID of a record the reference types as a UUID and lists nowhere, e.g. a structure's. */
export function uuidField(described: Omit<Described, 'placeholder'>): BodyField {
	return {
		property: property({ ...described, placeholder: `e.g. ${EXAMPLE_UUID}` }, 'string'),
		read: (item, field, collection) => item.uuid(field, collection),
	};
}

export function numberField(
	described: Described,
	bounds: { min?: number; max?: number } = {},
): BodyField {
	// Empty until given (no minValue either): n8n saves no value equal to a default, so a default
	// of 0 would be sent as a value the user never gave, and the editor clamps typed values silently.
	return {
		property: property(described, 'number', { default: null }),
		read: (item, field, collection) => item.number(field, bounds, collection),
	};
}

export function booleanField(described: Omit<Described, 'placeholder'>): BodyField {
	return {
		property: property(described, 'boolean', { default: false }),
		read: (item, field, collection) => item.boolean(field, collection),
	};
}

/** A moment, sent as ISO 8601 in UTC (ItemParameters.dateTime). */
export function dateTimeField(described: Omit<Described, 'placeholder'>): BodyField {
	return {
		property: property(
			{ ...described, description: `${described.description}. ${DATE_TIME_FORMS}.` },
			'dateTime',
		),
		read: (item, field, collection) => item.dateTime(field, collection),
	};
}

/**
 * A value of a list the reference gives. Where it shows only examples (`open`), a value given by
 * expression is sent as it is for the API to judge; otherwise it must be one of `options`.
 */
export function optionsField(
	described: Omit<Described, 'placeholder'>,
	options: INodePropertyOptions[],
	{ open = false } = {},
): BodyField {
	const values = options.map((option) => String(option.value));
	return {
		property: property(described, 'options', { options, default: values[0] }),
		read: (item, field, collection) =>
			open ? item.text(field, collection) : item.oneOf(field, values, collection),
	};
}

/** `field` with a hint shown under it in the editor. */
export function withHint(field: BodyField, hint: string): BodyField {
	return { ...field, property: { ...field.property, hint } };
}

/** `field`, required or not: read (an empty required field fails) and shown so. */
export function withRequired(field: BodyField, required: boolean): BodyField {
	return { ...field, property: { ...field.property, required } };
}

/**
 * An ID of another record, from a picker (`property`, see pickers.ts's referencePicker) that also
 * takes the record's external ID; the write looks that up before sending (writes/recordReferences.ts).
 */
export function referenceField(
	property: INodeProperties,
	refersTo: ReferencedKind,
	{ idIsUuid = false } = {},
): BodyField {
	return {
		property,
		refersTo,
		read: (item, field, collection): RecordReference | undefined =>
			item.reference(field, collection, { idIsUuid }),
	};
}

export type NestedDescribed = Omit<Described, 'placeholder'> & {
	entryName: string;
	entryDisplayName: string;
};

/**
 * The fields of an entry of a fixed collection at `path`, each checked as the form's fields are and
 * named by the entry ("Contact Person 2: Name"), the required ones included.
 */
export function readEntry(
	item: ItemParameters,
	path: string,
	entryFields: BodyField[],
	entryLabel: string,
): IDataObject {
	const entry: Field = { name: path, displayName: '' };
	const named = (field: INodeProperties): Field => ({
		name: field.name,
		displayName: `${entryLabel}: ${field.displayName}`,
	});
	const values = withoutUnset(
		Object.fromEntries(
			entryFields.map((entryField) => [
				entryField.property.name,
				entryField.read(item, named(entryField.property), entry),
			]),
		) as IDataObject,
	);
	for (const entryField of entryFields) {
		if (entryField.property.required && values[entryField.property.name] === undefined)
			throw item.invalid(named(entryField.property), 'set: this field is required');
	}
	return values;
}

export function nestedProperty(
	{ entryName, entryDisplayName, ...described }: NestedDescribed,
	entryFields: BodyField[],
	multipleValues: boolean,
): INodeProperties {
	return property({ ...described, required: false }, 'fixedCollection', {
		default: {},
		placeholder: `Add ${entryDisplayName}`,
		typeOptions: { multipleValues },
		options: [
			{
				displayName: entryDisplayName,
				name: entryName,
				values: entryFields.map((entryField) => entryField.property),
			},
		],
	});
}

export function nestedPath(described: NestedDescribed, collection?: Field): string {
	return `${collection ? `${collection.name}.` : ''}${described.name}.${described.entryName}`;
}

/**
 * The field of another record's ID (a contract's client): picked from the list `search` shows, or
 * given by its ID or its external ID, with a description of what it refers to.
 */
export function referenceTo(
	kind: ReferencedKind,
	picker: { displayName: string; name: string; search: PickerSearch; listedBy: string },
): (description: string) => BodyField {
	return (description) =>
		referenceField(
			idPicker({
				...picker,
				description: `${description}: picked by ${picker.listedBy} from the list, or given by its ID or by the external ID another system gave it`,
				recordName: kind.recordName,
				byExternalId: true,
			}),
			kind,
			{ idIsUuid: true },
		);
}

/** One object of `entryFields`, as n8n's fixed collection with one value, e.g. a location. */
export function objectField(described: NestedDescribed, entryFields: BodyField[]): BodyField {
	return {
		property: nestedProperty(described, entryFields, false),
		read(item, _field, collection) {
			const path = nestedPath(described, collection);
			if (item.raw(path) === undefined) return undefined;
			return readEntry(item, path, entryFields, described.displayName);
		},
	};
}
