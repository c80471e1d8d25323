import { resourceDescription } from '../../operations/recordOperations';
import * as get from './get';

export const equipmentDistanceDescription = resourceDescription('equipmentDistance', [get], 'get');
