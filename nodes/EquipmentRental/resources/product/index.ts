import { resourceDescription } from '../../operations/recordOperations';
import * as addPriceItem from './addPriceItem';
import * as attach from './attach';
import * as create from './create';
import * as deleteProduct from './delete';
import * as deletePriceItem from './deletePriceItem';
import * as detach from './detach';
import * as get from './get';
import * as getAll from './getAll';
import * as getByExternalId from './getByExternalId';
import * as getCustomPriceList from './getCustomPriceList';
import * as update from './update';
import * as updatePriceItem from './updatePriceItem';
import * as upsert from './upsert';

export const productDescription = resourceDescription(
	'product',
	[
		addPriceItem,
		attach,
		create,
		upsert,
		deleteProduct,
		deletePriceItem,
		detach,
		get,
		getByExternalId,
		getCustomPriceList,
		getAll,
		update,
		updatePriceItem,
	],
	'getCustomPriceList',
);
