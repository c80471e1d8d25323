import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { RequestParts } from '../engine/itemRequest';
import { requestPerItem, runPerItem } from '../engine/itemRouting';
import { lookupOf } from '../engine/declaredRequest';
import type { Field, ItemParameters, RecordReference } from '../../shared/parameters';
import type { ReferencedKind } from '../../shared/paths';
import { asGiven, readRecord } from './references';

/** An operation's entry in its resource's list, and the fields it shows. */
export interface Operation {
	option: INodePropertyOptions;
	fields: INodeProperties[];
}

/**
 * An operation that reads one record by the ID or external ID in its path, e.g. Client > Get
 * (`{id}`) or Client > Get by External ID (`{externalId}`): one output item, the record as the API
 * answers it. The placeholder is named as the API names the parameter, so that an error naming it
 * names the form's field. Where the field is a picker of records of `kind`, it also takes the
 * record's external ID, whose lookup answers the record.
 */
export function getRecordOperation({
	resource,
	value,
	name,
	action,
	description,
	url,
	idField,
	kind,
}: {
	resource: string;
	value: string;
	name: string;
	action: string;
	description: string;
	url: `${string}{${string}}${string}`;
	idField: INodeProperties & Field;
	kind?: ReferencedKind;
}): Operation {
	const placeholder = /\{(\w+)\}/.exec(url)![1];
	const request = {
		method: 'GET' as const,
		url,
		fieldsByApiName: { [placeholder]: idField },
		...(kind ? { lookups: [lookupOf(idField, kind)] } : {}),
		identifies: (item: ItemParameters) => asGiven(item, idField),
	};
	return {
		option: {
			name,
			value,
			action,
			description,
			routing: kind
				? runPerItem(
						{
							...request,
							parts: (item): RequestParts & { record: RecordReference } => ({
								record: item.reference(idField) as RecordReference,
							}),
						},
						async function ({ record }, item, send) {
							return await readRecord(record, kind, { field: idField, placeholder }, item, send);
						},
					)
				: requestPerItem({
						...request,
						parts: (item) => ({ path: { [placeholder]: item.identifier(idField) as string } }),
					}),
		},
		fields: updateDisplayOptions({ show: { resource: [resource], operation: [value] } }, [idField]),
	};
}

/**
 * The text field holding a record's external ID, the ID another system gave it: one for every kind
 * of record and operation, since the engine evaluates a field once per property of its name
 * (sameNamedProperties.ts).
 */
export const externalIdField: INodeProperties = {
	displayName: 'External ID',
	name: 'externalId',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. ERP-10042',
	description: 'The ID another system (e.g. an ERP) gave the record, as stored in its externalId',
};

/**
 * A resource's part of the node: its Operation field, listing `operations` (alphabetically by name,
 * as n8n's lint asks), and the fields of each.
 */
export function resourceDescription(
	resource: string,
	operations: Operation[],
	defaultOperation: string,
): INodeProperties[] {
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: operations
				.map((operation) => operation.option)
				.sort((left, right) => left.name.localeCompare(right.name)),
			default: defaultOperation,
		},
		...operations.flatMap((operation) => operation.fields),
	];
}
