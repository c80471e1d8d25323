import { updateOperation } from '../../writes/update';
import { productRecord } from './record';

// https://ram-api.syniotec.com/reference/update-product: PATCH /products/{id}
export const { option, fields } = updateOperation(
	productRecord,
	'Change fields of a product; fields not added under Update Fields stay as they are. A Price List given here replaces the tiers.',
);
