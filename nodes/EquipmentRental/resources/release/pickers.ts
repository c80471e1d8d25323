import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';

import { BOOKINGS_PATH } from '../../../shared/paths';
import { getFromApi } from '../../../shared/transport';
import { chooseFirst, filtered, idPicker, listItem, textOf } from '../../operations/pickers';

/** A release, picked from the releases of the booking named beside it. */
export const releasePicker = idPicker({
	displayName: 'Release',
	name: 'releaseId',
	description:
		'The release to update, picked from the releases of the booking above or given by its ID (Booking > Get outputs them in a workflow)',
	search: searchBookingReleases,
	recordName: 'release',
});

/** The releases the chosen booking embeds (the reference has no list of releases). */
async function searchBookingReleases(this: ILoadOptionsFunctions, filter?: string) {
	const booking = this.getCurrentNodeParameter('booking') as
		{ mode?: string; value?: unknown } | undefined;
	const id = textOf(booking?.value);
	if (!id) throw chooseFirst(this, 'booking');
	const path =
		booking?.mode === 'externalId'
			? `${BOOKINGS_PATH}/external-id/${encodeURIComponent(id)}`
			: `${BOOKINGS_PATH}/${encodeURIComponent(id)}`;
	const found = (await getFromApi(
		this,
		path,
		{},
		{ forPicker: true, pathHasIds: true },
	)) as IDataObject;
	return filtered(
		found.releases,
		(release) =>
			listItem(
				[textOf(release.startDate)?.slice(0, 10), textOf(release.endDate)?.slice(0, 10)]
					.filter(Boolean)
					.join(' to ') + (textOf(release.reason) ? `: ${textOf(release.reason)}` : ''),
				release.id,
			),
		filter,
	);
}

export const releaseSearches = { searchBookingReleases };
