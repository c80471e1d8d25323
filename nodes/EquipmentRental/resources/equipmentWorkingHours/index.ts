import { resourceDescription } from '../../operations/recordOperations';
import * as get from './get';

export const equipmentWorkingHoursDescription = resourceDescription(
	'equipmentWorkingHours',
	[get],
	'get',
);
