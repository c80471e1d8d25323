/** Collections of the Integration API, as the vendor's reference names them (its module pages). */
export const CLIENTS_PATH = '/master-data/v1/client-management/clients';
export const CONTRACTS_PATH = '/master-data/v1/contract-management/contracts';
export const PRODUCTS_PATH = '/master-data/v1/product-management/products';
export const BOOKINGS_PATH = '/master-data/v1/booking-management/bookings';
export const EQUIPMENTS_PATH = '/master-data/v1/equipment-management/equipments';
export const EQUIPMENT_MODELS_PATH = '/master-data/v1/equipment-management/models';
