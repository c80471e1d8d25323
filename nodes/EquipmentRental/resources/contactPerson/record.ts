import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { runPerItem } from '../../shared/itemRequest';
import { CLIENTS_PATH } from '../../shared/paths';
import { idPicker } from '../../shared/pickers';
import type { Operation } from '../../shared/recordOperations';
import type { RecordKind } from '../../shared/writeOperations';
import { collectionPath } from '../../shared/writeOperations';
import { clientReference, contactPersonFields } from '../client/record';

// The contact persons of a client (https://ram-api.syniotec.com/reference/clients lists their
// operations; https://ram-api.syniotec.com/reference/create-contact-person their body). The create
// page's curl example writes /contactPersons; its endpoint line, followed here, /contact-persons.

const client = clientReference('The client whose contact person this is');

export const contactPersonPicker = idPicker({
	displayName: 'Contact Person',
	name: 'contactPersonId',
	description:
		"One of the client's contact persons, picked by name from the list or given by its ID",
	searchListMethod: 'searchContactPersons',
	recordName: 'contact person',
});

const CONTACT_PERSONS_PATH = `${CLIENTS_PATH}/{clientId}/contact-persons`;

export const contactPersonRecord: RecordKind = {
	resource: 'contactPerson',
	recordName: 'contact person',
	collectionUrl: CONTACT_PERSONS_PATH,
	externalIdUrl: `${CONTACT_PERSONS_PATH}/external-id/{externalId}`,
	parent: { field: client, placeholder: 'clientId' },
	recordPicker: contactPersonPicker,
	updateMethod: 'PATCH',
	requiredOnCreate: ['name', 'isMain'],
	fields: contactPersonFields,
};

/** A read of one of the client's contact persons, found at `url` by `idField`'s value. */
export function contactPersonRead(
	value: string,
	name: string,
	action: string,
	description: string,
	url: string,
	idField: INodeProperties,
	placeholder: string,
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
					parts: (item) => ({ path: { [placeholder]: item.identifier(idField) as string } }),
					fieldsByApiName: { [placeholder]: idField, clientId: client.property },
				},
				async function (parts, item, send) {
					const path = await collectionPath(contactPersonRecord, item, send);
					return await send({ path: { ...path, ...parts.path } });
				},
			),
		},
		fields: updateDisplayOptions({ show: { resource: ['contactPerson'], operation: [value] } }, [
			client.property,
			idField,
		]),
	};
}
