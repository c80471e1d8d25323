import { idPicker } from '../../operations/pickers';

/** A release, picked from the releases of the booking named beside it. */
export const releasePicker = idPicker({
	displayName: 'Release',
	name: 'releaseId',
	description:
		'The release to update, picked from the releases of the booking above or given by its ID (Booking > Get outputs them in a workflow)',
	searchListMethod: 'searchBookingReleases',
	recordName: 'release',
});
