/** Collections of the Integration API, as the vendor's reference names them (its module pages). */
export const CLIENTS_PATH = '/master-data/v1/client-management/clients';
export const CONTRACTS_PATH = '/master-data/v1/contract-management/contracts';
export const PRODUCTS_PATH = '/master-data/v1/product-management/products';
export const BOOKINGS_PATH = '/master-data/v1/booking-management/bookings';
export const EQUIPMENTS_PATH = '/master-data/v1/equipment-management/equipments';
export const EQUIPMENT_MODELS_PATH = '/master-data/v1/equipment-management/models';

/**
 * The kinds of record the API finds by the external ID another system gave them, each at its
 * collection's `external-id` path (a contact person within its client's).
 */
export const CLIENTS = {
	recordName: 'client',
	externalIdUrl: `${CLIENTS_PATH}/external-id/{externalId}`,
} as const;
export const CONTACT_PERSONS_PATH = `${CLIENTS_PATH}/{clientId}/contact-persons`;
export const CONTACT_PERSONS = {
	recordName: 'contact person',
	externalIdUrl: `${CONTACT_PERSONS_PATH}/external-id/{externalId}`,
} as const;
export const CONTRACTS = {
	recordName: 'contract',
	externalIdUrl: `${CONTRACTS_PATH}/external-id/{externalId}`,
} as const;
export const PRODUCTS = {
	recordName: 'product',
	externalIdUrl: `${PRODUCTS_PATH}/external-id/{externalId}`,
} as const;
export const BOOKINGS = {
	recordName: 'booking',
	externalIdUrl: `${BOOKINGS_PATH}/external-id/{externalId}`,
} as const;
export const EQUIPMENT = {
	recordName: 'piece of equipment',
	externalIdUrl: `${EQUIPMENTS_PATH}/external-id/{externalId}`,
} as const;
