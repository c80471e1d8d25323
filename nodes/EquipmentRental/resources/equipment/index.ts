import { resourceDescription } from '../../shared/recordOperations';
import * as get from './get';
import * as getAll from './getAll';

export const equipmentDescription = resourceDescription('equipment', [get, getAll], 'get');
