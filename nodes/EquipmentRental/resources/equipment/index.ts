import { resourceDescription } from '../../operations/recordOperations';
import * as create from './create';
import * as deleteEquipment from './delete';
import * as get from './get';
import * as getAll from './getAll';
import * as getByExternalId from './getByExternalId';
import * as update from './update';
import * as upsert from './upsert';

export const equipmentDescription = resourceDescription(
	'equipment',
	[create, upsert, deleteEquipment, get, getByExternalId, getAll, update],
	'get',
);
