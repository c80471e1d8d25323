import type { INode } from 'n8n-workflow';

/**
 * What the error helpers need of a node's context: the node, and the item when there is one (a
 * trigger has none).
 */
export interface ErrorContext {
	getNode(): INode;
	getItemIndex?(): number;
}

/** The " [item N]" that ends a message about one item's failure; empty where there are no items. */
export function itemSuffix(context: ErrorContext): string {
	const itemIndex = context.getItemIndex?.();
	return itemIndex === undefined ? '' : ` [item ${itemIndex}]`;
}

/** `message` ending with the item it is about (see itemSuffix), once. */
export function aboutItem(context: ErrorContext, message: string): string {
	const suffix = itemSuffix(context);
	return message.endsWith(suffix) ? message : `${message}${suffix}`;
}

/**
 * The form's label of each field an operation sends, by the name the API knows it under (a path
 * parameter, query parameter or body field): the API names the field at fault by that name.
 */
export type FieldLabels = Readonly<Record<string, { displayName: string }>>;

/** `text` ending with a full stop, unless it already ends a sentence. */
export function asSentence(text: string): string {
	const trimmed = text.trim();
	return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
