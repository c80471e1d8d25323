import { deleteOperation } from '../../writes/delete';
import { productRecord } from './record';

// https://ram-api.syniotec.com/reference/products: DELETE /products/{id}
export const { option, fields } = deleteOperation(productRecord, 'Permanently delete a product');
