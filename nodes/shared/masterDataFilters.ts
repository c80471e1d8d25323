import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { searchFilter, textFilter } from './filterFields';
import type { ItemParameters } from './parameters';
import { EXAMPLE_UUID } from './parameters';

// The filters of the clients', contracts' and products' lists, shared by each list's Get Many and
// the trigger's event on its changes. Updated After stays with Get Many: the trigger keeps its own
// change window.

/** Some filters of a list, each named as its query parameter, and how their values are read. */
export interface ListFilters {
	fields: INodeProperties[];
	/** The filters' query parameters, each read and checked from `collection`. */
	query: (item: ItemParameters, collection: INodeProperties) => IDataObject;
}

const clientSearch = searchFilter('name or description', 'construction');
const clientStatus = textFilter('Status', 'status', 'ACTIVE');
const partnerType = textFilter('Partner Type', 'partnerType', 'INDUSTRY');

// https://ram-api.syniotec.com/reference/get-clients
export const clientFilters: ListFilters = {
	fields: [partnerType, clientSearch, clientStatus],
	query: (item, filters) => ({
		search: item.text(clientSearch, filters),
		status: item.text(clientStatus, filters),
		partnerType: item.text(partnerType, filters),
	}),
};

const clientId: INodeProperties = {
	displayName: 'Client ID',
	name: 'clientId',
	type: 'string',
	default: '',
	placeholder: `e.g. ${EXAMPLE_UUID}`,
	description: 'Only the contracts of the client with this UUID, e.g. from Client > Get Many',
};
const contractSearch = searchFilter('title or description', 'construction');
const contractStatus = textFilter('Status', 'status', 'IN_PROGRESS');

// https://ram-api.syniotec.com/reference/get-contracts
export const contractFilters: ListFilters = {
	fields: [clientId, contractSearch, contractStatus],
	query: (item, filters) => ({
		clientId: item.uuid(clientId, filters),
		search: item.text(contractSearch, filters),
		status: item.text(contractStatus, filters),
	}),
};

const productType: INodeProperties = {
	displayName: 'Type',
	name: 'type',
	type: 'options',
	default: 'RESOURCE',
	// The product list's types as the reference names them; a value given by expression is sent as
	// it is, as for the custom price list's filter.
	options: [
		{ name: 'Resource', value: 'RESOURCE', description: 'Equipment, people and other resources' },
		{ name: 'Service', value: 'SERVICE', description: 'Such as delivery or cleaning' },
	],
	description: 'Only the products of this type',
};
const productSearch = searchFilter('title or number', 'excavator');

// https://ram-api.syniotec.com/reference/get-products
export const productFilters: ListFilters = {
	fields: [productSearch, productType],
	query: (item, filters) => ({
		type: item.text(productType, filters),
		search: item.text(productSearch, filters),
	}),
};
