import { resourceDescription } from '../../operations/recordOperations';
import * as get from './get';

export const equipmentUsageDescription = resourceDescription('equipmentUsage', [get], 'get');
