/**
 * What n8n's editor shows differently from one n8n version to the next, as the suite expects it on
 * the version it runs (EQUIPMENT_RENTAL_N8N_VERSION, see scripts/runtime/versions.js). Each
 * difference says in which editors it was read; for a version between two known ones the suite stops
 * with an error instead of guessing, so that adding a version to the matrix means looking at it.
 */
import * as semver from 'semver';

export interface EditorOfVersion {
	/** The n8n version the suite runs. */
	n8n: string;
	/** The label of the credential selector on a node that takes one credential type. */
	credentialLabel: string;
}

/** The editors read: n8n 2.8.4 (n8n-editor-ui 2.8.3) and n8n 2.41.1 (n8n-editor-ui 2.41.0). */
function known<T>(version: string, what: string, upTo284: T, from2410: T): T {
	if (semver.lte(version, '2.8.4')) return upTo284;
	if (semver.gte(version, '2.41.0')) return from2410;
	throw new Error(
		`The browser suite does not know ${what} in n8n ${version} (read in 2.8.4 and 2.41.1): ` +
			'run it, look, and add it to test/ui/versions.ts.',
	);
}

export function editorOf(version: string): EditorOfVersion {
	return {
		n8n: version,
		// 2.8.3: nodeCredentials.credentialsLabel; 2.41.0: nodeCredentials.credentialsLabelShort
		// (2.11.2 has both and picks one by a feature flag).
		credentialLabel: known(
			version,
			"how the editor labels a node's credential",
			'Credential to connect with',
			'Credential',
		),
	};
}
