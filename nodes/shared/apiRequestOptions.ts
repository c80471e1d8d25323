import type { IHttpRequestOptions } from 'n8n-workflow';

/**
 * How every request to the Integration API is sent, by the node (its requestDefaults) and the
 * trigger alike; a new object each time, as n8n writes into the options it sends (the Authorization
 * header among them).
 * - HTTP errors are mapped by apiError (errors.ts), which keeps the API's own message: asked to
 *   throw, n8n-core 2.8
 *   would retry a 401 and replace that message with generic status text.
 * - Redirects are refused with an explanation (apiError): following one would carry the access
 *   token to another
 *   address, and turn a write into a GET.
 */
export function apiRequestOptions() {
	return {
		headers: { Accept: 'application/json' },
		json: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
	} satisfies Partial<IHttpRequestOptions>;
}
