import { resourceDescription } from '../../shared/recordOperations';
import * as addPriceItem from './addPriceItem';
import * as attach from './attach';
import * as deletePriceItem from './deletePriceItem';
import * as detach from './detach';
import * as get from './get';
import * as getAll from './getAll';
import * as getByExternalId from './getByExternalId';
import * as getCustomPriceList from './getCustomPriceList';
import * as updatePriceItem from './updatePriceItem';

export const productDescription = resourceDescription(
	'product',
	[
		addPriceItem,
		attach,
		deletePriceItem,
		detach,
		get,
		getByExternalId,
		getCustomPriceList,
		getAll,
		updatePriceItem,
	],
	'getCustomPriceList',
);
