import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { RequestParts } from '../../engine/itemRequest';
import { runPerItem } from '../../engine/itemRouting';
import { lookupOf } from '../../engine/declaredRequest';
import type { RecordReference } from '../../../shared/parameters';
import { CONTACT_PERSONS, CONTACT_PERSONS_PATH } from '../../../shared/paths';
import { asGiven, readRecord } from '../../operations/references';
import type { Operation } from '../../operations/recordOperations';
import type { RecordKind } from '../../writes/recordKind';
import { collectionPath, parentNamed } from '../../writes/recordReferences';
import { clientReference, contactPersonFields } from '../client/record';
import { contactPersonPicker } from './pickers';

// The contact persons of a client (https://ram-api.syniotec.com/reference/clients lists their
// operations; https://ram-api.syniotec.com/reference/create-contact-person their body). The create
// page's curl example writes /contactPersons; its endpoint line, followed here, /contact-persons.

const client = clientReference('The client whose contact person this is');

export const contactPersonRecord: RecordKind = {
	resource: 'contactPerson',
	...CONTACT_PERSONS,
	collectionUrl: CONTACT_PERSONS_PATH,
	parent: { field: client, placeholder: 'clientId' },
	recordPicker: contactPersonPicker,
	updateMethod: 'PATCH',
	requiredOnCreate: ['name', 'isMain'],
	fields: contactPersonFields,
};

/**
 * A read of one of the client's contact persons, found at `url` by `idField`'s value; `byPicker`
 * when that is the contact person picker, which also takes an external ID (whose lookup answers
 * the record).
 */
export function contactPersonRead(
	value: string,
	name: string,
	action: string,
	description: string,
	url: string,
	idField: INodeProperties,
	placeholder: string,
	{ byPicker = false } = {},
): Operation {
	return {
		option: {
			name,
			value,
			action,
			description,
			routing: runPerItem(
				{
					method: 'GET',
					url,
					parts: (item): RequestParts & { record: RecordReference; parent?: RecordReference } => ({
						parent: parentNamed(contactPersonRecord, item),
						record: byPicker
							? (item.reference(idField) as RecordReference)
							: { id: item.identifier(idField) as string },
					}),
					fieldsByApiName: { [placeholder]: idField, clientId: client.property },
					lookups: [
						lookupOf(client.property, client.refersTo!),
						...(byPicker ? [lookupOf(idField, CONTACT_PERSONS)] : []),
					],
					identifies: (item) => asGiven(item, idField),
				},
				async function ({ record, parent }, item, send) {
					const path = await collectionPath(contactPersonRecord, parent, item, send);
					const named = { field: idField, placeholder };
					return await readRecord(record, CONTACT_PERSONS, named, item, send, path);
				},
			),
		},
		fields: updateDisplayOptions({ show: { resource: ['contactPerson'], operation: [value] } }, [
			client.property,
			idField,
		]),
	};
}
