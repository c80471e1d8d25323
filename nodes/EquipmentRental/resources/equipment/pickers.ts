import type { ILoadOptionsFunctions } from 'n8n-workflow';

import { EQUIPMENTS_PATH } from '../../../shared/paths';
import { idPicker, listItem, nameWithNumber, searchPage } from '../../operations/pickers';

export const equipmentPicker = idPicker({
	displayName: 'Equipment',
	name: 'equipmentId',
	description:
		'The piece of equipment: picked from the list, or given by its ID or by the external ID another system gave it',
	search: searchEquipment,
	recordName: 'piece of equipment',
	byExternalId: true,
});

/** Equipment by title and inventory number, the reference's `title` and `invNumber` (page `equipments`). */
export async function searchEquipment(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
) {
	return await searchPage(this, EQUIPMENTS_PATH, { filter, paginationToken }, (equipment) =>
		listItem(nameWithNumber(equipment.title, equipment.invNumber, equipment.id), equipment.id),
	);
}

export const equipmentSearches = { searchEquipment };
