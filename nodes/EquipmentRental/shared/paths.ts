import type { ReferencedKind } from './references';

/** Collections of the Integration API, as the vendor's reference names them (its module pages). */
export const CLIENTS_PATH = '/master-data/v1/client-management/clients';
export const CONTRACTS_PATH = '/master-data/v1/contract-management/contracts';
export const PRODUCTS_PATH = '/master-data/v1/product-management/products';
export const BOOKINGS_PATH = '/master-data/v1/booking-management/bookings';
export const EQUIPMENTS_PATH = '/master-data/v1/equipment-management/equipments';
export const EQUIPMENT_MODELS_PATH = '/master-data/v1/equipment-management/models';

/**
 * A kind of record the API finds by the external ID another system gave it, at its collection's
 * `external-id` path.
 */
const foundByExternalIdIn = (collectionPath: string, recordName: string): ReferencedKind => ({
	recordName,
	externalIdUrl: `${collectionPath}/external-id/{externalId}`,
});

export const CONTACT_PERSONS_PATH = `${CLIENTS_PATH}/{clientId}/contact-persons`;

export const CLIENTS = foundByExternalIdIn(CLIENTS_PATH, 'client');
// A contact person is found among its client's.
export const CONTACT_PERSONS = foundByExternalIdIn(CONTACT_PERSONS_PATH, 'contact person');
export const CONTRACTS = foundByExternalIdIn(CONTRACTS_PATH, 'contract');
export const PRODUCTS = foundByExternalIdIn(PRODUCTS_PATH, 'product');
export const BOOKINGS = foundByExternalIdIn(BOOKINGS_PATH, 'booking');
export const EQUIPMENT = foundByExternalIdIn(EQUIPMENTS_PATH, 'piece of equipment');
