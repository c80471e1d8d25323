import { brandId, search } from '../../shared/descriptions';
import { EQUIPMENT_MODELS_PATH } from '../../shared/paths';
import { createdOrUpdatedEvent } from './createdOrUpdated';

// Its items are the models as the list answers them, without a change type: saved workflows (e.g. a
// sheet's columns) keep the items they were built on.
export const { option, fields, poll } = createdOrUpdatedEvent({
	event: 'equipmentModelUpdated',
	name: 'Equipment Model Created or Updated',
	description: 'Triggers once for each equipment model created or changed since the previous poll',
	path: EQUIPMENT_MODELS_PATH,
	records: 'models',
	// The filters of Get Many equipment models that make sense for changes.
	filters: [brandId, search],
	filterQuery: (parameters, filters) => ({
		brandId: parameters.uuid(brandId, filters),
		search: parameters.text(search, filters),
	}),
	tellsCreatedFromUpdated: false,
});
