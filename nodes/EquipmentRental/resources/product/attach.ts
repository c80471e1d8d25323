import { serviceProductPicker } from './pickers';
import { serviceLinkOperation } from './serviceLink';

export const { option, fields } = serviceLinkOperation({
	link: 'attach',
	name: 'Attach Service',
	action: 'Attach a service product to a product',
	description:
		'Link a service product (such as delivery or cleaning) to a main product so that bookings suggest it',
	mainProductDescription:
		'The main product, the one that gets booked: picked by title, or given by its ID or external ID',
	service: serviceProductPicker,
});
