import { PRODUCTS, PRODUCTS_PATH } from '../../../shared/paths';
import { getRecordOperation } from '../../operations/recordOperations';
import { productPicker } from './pickers';

// https://ram-api.syniotec.com/reference/products: GET /products/{id}
export const { option, fields } = getRecordOperation({
	resource: 'product',
	value: 'get',
	name: 'Get',
	action: 'Get a product',
	description:
		'Get one product by ID or external ID, with its price list, custom price lists and attached services',
	url: `${PRODUCTS_PATH}/{id}`,
	idField: productPicker,
	kind: PRODUCTS,
});
