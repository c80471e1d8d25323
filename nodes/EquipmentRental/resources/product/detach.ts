import { attachedServicePicker } from './pickers';
import { serviceLinkOperation } from './serviceLink';

export const { option, fields } = serviceLinkOperation({
	link: 'detach',
	name: 'Detach Service',
	action: 'Detach a service product from a product',
	description:
		'Remove the link between a main product and an attached service product, so that bookings no longer suggest it',
	mainProductDescription:
		'The main product whose attached service to remove: picked by title, or given by its ID or external ID',
	service: attachedServicePicker,
});
