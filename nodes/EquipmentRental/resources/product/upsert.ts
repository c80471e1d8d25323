import { upsertOperation } from '../../writes/upsert';
import { productRecord } from './record';

// https://ram-api.syniotec.com/reference/products: GET /products/external-id/{id}, then
// PATCH /products/{id} or POST /products
export const { option, fields } = upsertOperation(
	productRecord,
	'Create a product, or update the one with the same external ID (e.g. from an ERP): safe to run again',
);
