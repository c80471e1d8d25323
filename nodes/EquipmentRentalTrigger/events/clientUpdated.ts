import { clientFilters } from '../../shared/masterDataFilters';
import { CLIENTS_PATH } from '../../shared/paths';
import { createdOrUpdatedEvent } from './createdOrUpdated';

// https://ram-api.syniotec.com/reference/get-clients
export const { option, fields, poll } = createdOrUpdatedEvent({
	event: 'clientUpdated',
	name: 'Client Created or Updated',
	description:
		'Triggers once for each client created or changed since the previous poll, telling which (changeType)',
	path: CLIENTS_PATH,
	records: 'clients',
	filters: clientFilters.fields,
	filterQuery: clientFilters.query,
	tellsCreatedFromUpdated: true,
});
