import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { malformedResponseError } from '../../shared/errors';
import { runPerItem } from '../../shared/itemRequest';
import { limitField, listFields, returnAllField } from '../../shared/listFields';
import { collectionPath } from '../../shared/writeOperations';
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
			parts: () => ({}),
			fieldsByApiName: { clientId: client },
		},
		async function (_parts, item, send) {
			const wanted =
				item.raw(returnAllField.name) === true
					? Infinity
					: Math.floor(item.number(limitField, { min: 1 }) ?? (limitField.default as number));
			const [answer] = await send({ path: await collectionPath(contactPersonRecord, item, send) });
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
