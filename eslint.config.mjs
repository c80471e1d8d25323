import communityNodes from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tsParser from '@typescript-eslint/parser';
import jsoncParser from 'jsonc-eslint-parser';

// The older plugin still asks for string connection types and camel-cased documentation slugs; n8n's current
// community rules ask for NodeConnectionTypes and a documentation URL. The current rules win.
const SUPERSEDED_RULES = {
	'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
	'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
	'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
};
const legacyRules = (name) => ({ ...n8nNodesBase.configs[name].rules, ...SUPERSEDED_RULES });

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'sandbox/**', 'scripts/**', 'examples/**', '*.js', '*.mjs'] },
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: legacyRules('community'),
	},
	{
		files: ['credentials/**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: legacyRules('credentials'),
	},
	{
		files: ['nodes/**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { sourceType: 'module' } },
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: legacyRules('nodes'),
	},
	{
		files: ['package.json', 'nodes/**/*.ts', 'credentials/**/*.ts'],
		...communityNodes.configs.recommended,
		languageOptions: {
			parser: tsParser,
			parserOptions: { sourceType: 'module', project: false },
		},
	},
	{
		files: ['package.json'],
		languageOptions: { parser: jsoncParser },
	},
];
