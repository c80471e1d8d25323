// What `npm run lint` checks after `n8n-node lint` (which must read eslint.config.mjs, n8n's default
// left unchanged, because package.json's n8n section is strict): the gate of n8n's verification
// scanner (@n8n/scan-community-package), i.e. n8n's community rules everywhere plus the
// eslint-plugin-n8n-nodes-base rule sets for package.json, credentials and nodes, run with our
// eslint-plugin-n8n-nodes-base 2.0.0 (n8n-node's default uses its own 1.16.7) and with
// node-param-type-options-max-value-present kept on (n8n's default config and scanner turn it off).
// Run as `eslint -c eslint.strict.config.mjs package.json nodes credentials`.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

export default [
	n8nCommunityNodesPlugin.configs.recommended,
	{ rules: { 'no-console': 'error' } },
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{ files: ['package.json'], rules: n8nNodesBase.configs.community.rules },
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			// Superseded: community nodes link a documentation URL, and credential-password-field checks
			// passwords.
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			// Superseded: the community rules ask for NodeConnectionTypes rather than the string "main".
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
		},
	},
	// The package.json rules walk the object literal that the TypeScript parser makes of a JSON
	// document.
	{ files: ['**/*.json', '**/*.ts'], languageOptions: { parser: tsParser } },
];
