import { contractFilters } from '../../shared/masterDataFilters';
import { CONTRACTS_PATH } from '../../shared/paths';
import { createdOrUpdatedEvent } from './createdOrUpdated';

// https://ram-api.syniotec.com/reference/get-contracts
export const { option, fields, poll } = createdOrUpdatedEvent({
	event: 'contractUpdated',
	name: 'Contract Created or Updated',
	description:
		'Triggers once for each contract created or changed since the previous poll, telling which (changeType)',
	path: CONTRACTS_PATH,
	records: 'contracts',
	filters: contractFilters.fields,
	filterQuery: contractFilters.query,
	tellsCreatedFromUpdated: true,
});
