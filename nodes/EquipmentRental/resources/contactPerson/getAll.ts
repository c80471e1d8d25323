import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { malformedResponseError } from '../../../shared/errors';
import type { RequestParts } from '../../engine/itemRequest';
import { runPerItem } from '../../engine/itemRouting';
import type { RecordReference } from '../../../shared/parameters';
import { limitField, listFields, returnAllField } from '../../../shared/listFields';
import { parentNamed } from '../../writes/recordKind';
import { collectionPath } from '../../writes/recordReferences';
import { contactPersonRecord } from './record';

const client = contactPersonRecord.parent!.field.property;

// https://ram-api.syniotec.com/reference/clients: GET /clients/{clientId}/contact-persons, "all
// contact persons for a client": one array, without pagination (the reference shows none), which
// Limit cuts.
export const option: INodePropertyOptions = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many contact persons',
	description: "List a client's contact persons",
	routing: runPerItem(
		{
			method: 'GET',
			url: contactPersonRecord.collectionUrl,
			parts: (item): RequestParts & { parent?: RecordReference; wanted: number } => ({
				parent: parentNamed(contactPersonRecord, item),
				wanted:
					item.raw(returnAllField.name) === true
						? Infinity
						: Math.floor(item.number(limitField, { min: 1 }) ?? (limitField.default as number)),
			}),
			fieldsByApiName: { clientId: client },
		},
		async function ({ parent, wanted }, item, send) {
			const path = await collectionPath(contactPersonRecord, parent, item, send);
			const [answer] = await send({ path });
			if (!Array.isArray(answer?.json))
				throw malformedResponseError(this, 'an array of contact persons');
			return (answer.json as IDataObject[]).slice(0, wanted).map((json) => ({ json }));
		},
	),
};

export const fields = updateDisplayOptions(
	{ show: { resource: ['contactPerson'], operation: ['getAll'] } },
	[client, ...listFields],
);
