import { PRODUCTS_PATH } from '../../../shared/paths';
import { externalIdField, getRecordOperation } from '../../operations/recordOperations';

// https://ram-api.syniotec.com/reference/products: GET /products/external-id/{id}
export const { option, fields } = getRecordOperation({
	resource: 'product',
	value: 'getByExternalId',
	name: 'Get by External ID',
	action: 'Get a product by external ID',
	description: 'Get one product by the ID another system gave it',
	url: `${PRODUCTS_PATH}/external-id/{id}`,
	idField: externalIdField,
});
