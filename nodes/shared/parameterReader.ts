import type { IDataObject, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ErrorContext } from './errors';
import { itemSuffix } from './errors';

/**
 * A node parameter as the user sees it: its saved name and its display name (used in error
 * messages).
 */
export type Field = Pick<INodeProperties, 'name' | 'displayName' | 'required' | 'modes'>;

/**
 * The name of every list's Filters collection. A filter dropped for being empty would read the
 * whole list instead of the part meant, so a filter the user added must have a value.
 */
export const FILTERS_COLLECTION_NAME = 'filters';

/** The mode of a picker that names a record by the external ID another system gave it. */
export const EXTERNAL_ID_MODE = 'externalId';

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
	/** The item an item's context reads (n8n's `$json` is its `json`); a trigger has none. */
	getInputData?(): INodeExecutionData | INodeExecutionData[];
}

function describeReceived(value: unknown): string {
	if (value === undefined || value === null || value === '') return 'nothing';
	if (typeof value === 'string')
		return `the text "${value.length > 60 ? `${value.slice(0, 57)}...` : value}"`;
	if (typeof value === 'number') return `the number ${Number.isNaN(value) ? 'NaN' : String(value)}`;
	if (Array.isArray(value)) return 'a list';
	return `a value of type ${typeof value}`;
}

/**
 * An object of key-value pairs from any realm (expressions run in their own), not an instance such
 * as a date.
 */
export function isPlainObject(value: unknown): value is IDataObject {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value);
	return prototype === null || Object.getPrototypeOf(prototype) === null;
}

export function isUnset(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/**
 * Reads one item's parameters as the user gave them: a field's value (from a collection, or a
 * picker's in one of its modes), whether it was added, and the error that names a field, what was
 * expected and the item. ItemParameters (parameters.ts) checks and converts what this reads.
 */
export class ParameterReader {
	/** The item's index in the node's input; undefined for a trigger's parameters. */
	readonly itemIndex: number | undefined;
	private readonly savedCollections = new Map<string, unknown>();

	constructor(protected readonly context: ParameterContext) {
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
	protected read(field: Field, collection?: Field): unknown {
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
	protected located(field: Field, collection?: Field): { value: unknown; mode?: unknown } {
		const path = collection ? `${collection.name}.${field.name}` : field.name;
		// n8n throws for a missing parameter when the fallback is undefined; an unset collection field
		// is missing.
		const value =
			this.mappedFromItem(path) ?? (this.context.getNodeParameter(path, null) as unknown);
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

	/**
	 * The value of a field mapped straight from one of the item's fields (`{{ $json.city }}`,
	 * `{{ $json["Unit price"] }}`, as the editor writes a dragged-in column; also as a picker's
	 * value), taken from the item: what n8n's evaluation gives, without its cost. Setting up an
	 * expression is most of n8n's CPU per row of a large sync, and n8n's routing has evaluated each of
	 * the item's expressions once already. Undefined for anything else (another expression, a field
	 * the item lacks, a value other than text, a number or true/false), which n8n evaluates. n8n
	 * would also convert a field with a `validateType`; the node declares none (a test keeps it so).
	 */
	private mappedFromItem(path: string): unknown {
		const input = this.context.getInputData?.();
		if (input === undefined || Array.isArray(input)) return undefined;
		// As saved, not evaluated (n8n's getNode() would copy the whole node for every read).
		const saved = this.context.getNodeParameter(path, null, { rawExpressions: true });
		if (typeof saved === 'string') return itemFieldValue(saved, input.json);
		if (!isPlainObject(saved) || typeof saved.value !== 'string') return undefined;
		const others = Object.entries(saved).filter(([key]) => key !== 'value');
		if (others.some(([, other]) => typeof other !== 'string' && typeof other !== 'boolean'))
			return undefined;
		if (others.some(([, other]) => typeof other === 'string' && other.startsWith('=')))
			return undefined;
		const value = itemFieldValue(saved.value, input.json);
		return value === undefined ? undefined : { ...saved, value };
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

	/**
	 * A reader of the same item that finds the parameters under `root` in `value` instead, e.g. a
	 * list the item gives as JSON read as if the form's fixed collection held it: its entries are
	 * checked by the very reads the form's fields go through. Every other parameter (an option that
	 * says how numbers are written) is read where this reader reads it.
	 */
	within(root: string, value: unknown): this {
		const { context } = this;
		const inner: ParameterContext = {
			getNode: () => context.getNode(),
			getItemIndex: context.getItemIndex?.bind(context),
			getTimezone: () => context.getTimezone(),
			getNodeParameter(name, fallbackValue, options) {
				const rest = name.startsWith(root) ? name.slice(root.length) : undefined;
				if (rest === undefined || !/^(\[|\.|$)/.test(rest))
					return context.getNodeParameter(name, fallbackValue, options);
				return valueAt(value, rest) ?? fallbackValue;
			},
		};
		return new (this.constructor as new (context: ParameterContext) => this)(inner);
	}
}

// `={{ $json.name }}` or `={{ $json["Unit price"] }}` (either quote), nothing else in the expression.
const ITEM_FIELD_EXPRESSION =
	/^=\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\])\s*\}\}$/;

function itemFieldValue(saved: string, json: IDataObject): string | number | boolean | undefined {
	const key = ITEM_FIELD_EXPRESSION.exec(saved)
		?.slice(1)
		.find((name) => name !== undefined);
	if (key === undefined || !Object.hasOwn(json, key)) return undefined;
	const value = json[key];
	const plain = typeof value === 'string' || typeof value === 'boolean';
	return plain || (typeof value === 'number' && Number.isFinite(value)) ? value : undefined;
}

/** The value at `path` (`[2].from`) inside `value`, `undefined` when there is none. */
function valueAt(value: unknown, path: string): unknown {
	let at = value;
	for (const [, index, key] of path.matchAll(/\[(\d+)\]|\.([^.[]+)/g)) {
		const name = index ?? key;
		if (typeof at !== 'object' || at === null || !Object.hasOwn(at, name)) return undefined;
		at = (at as Record<string, unknown>)[name];
	}
	return at;
}
