/** A collection's records the API lists: in pages of `{ content, total }`, or as one array. */
export interface CollectionList {
	/** With the parent's placeholders, as the collection's own URL. */
	url: string;
	paged: boolean;
}

/** A kind of record the API finds by the external ID another system gave it. */
export interface ReferencedKind {
	recordName: string;
	/** With the placeholder `{externalId}`, and the parent's where the records have one. */
	externalIdUrl: string;
	/** The kind's list, where the API has one: a run may read it whole (the node's writes/wholeReads.ts). */
	list?: CollectionList;
}

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
const foundByExternalIdIn = (
	collectionPath: string,
	recordName: string,
	list?: ReferencedKind['list'],
): ReferencedKind => ({
	recordName,
	externalIdUrl: `${collectionPath}/external-id/{externalId}`,
	...(list ? { list } : {}),
});

/** A collection listed in pages at its own URL (the reference's get-clients and the like). */
const pagedAt = (url: string) => ({ url, paged: true });

export const CONTACT_PERSONS_PATH = `${CLIENTS_PATH}/{clientId}/contact-persons`;

export const CLIENTS = foundByExternalIdIn(CLIENTS_PATH, 'client', pagedAt(CLIENTS_PATH));
// A contact person is found among its client's, which the API lists as one array.
export const CONTACT_PERSONS = foundByExternalIdIn(CONTACT_PERSONS_PATH, 'contact person', {
	url: CONTACT_PERSONS_PATH,
	paged: false,
});
export const CONTRACTS = foundByExternalIdIn(CONTRACTS_PATH, 'contract', pagedAt(CONTRACTS_PATH));
export const PRODUCTS = foundByExternalIdIn(PRODUCTS_PATH, 'product', pagedAt(PRODUCTS_PATH));
// The reference lists no bookings: they are looked up one by one.
export const BOOKINGS = foundByExternalIdIn(BOOKINGS_PATH, 'booking');
export const EQUIPMENT = foundByExternalIdIn(
	EQUIPMENTS_PATH,
	'piece of equipment',
	pagedAt(EQUIPMENTS_PATH),
);
