import { createOperation } from '../../writes/create';
import { productRecord } from './record';

// https://ram-api.syniotec.com/reference/create-product: POST /products
export const { option, fields } = createOperation(
	productRecord,
	'Create a product (a resource or a service) with its price list',
);
