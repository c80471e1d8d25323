/**
 * What the editor must show for each operation, as the README documents it: written out here (not
 * read from the node's description) so that a broken label, default or hint fails the test.
 */

export interface ExpectedField {
	label: string;
	/** Marked by n8n as required (a warning on the empty field when the step is executed). */
	required?: boolean;
	/** The value the field shows on a new node: a number, the text, an option's name or a switch. */
	value?: number | string | boolean;
	placeholder?: RegExp;
	/** Part of the field's description (its tooltip). */
	hint?: RegExp;
	/** A collection's choices (Additional Fields, Filters...), as its Add button lists them. */
	choices?: string[];
}

export interface ExpectedOperation {
	resource: string;
	operation: string;
	/** The action's name in the nodes panel (also the new node's name). */
	action: string;
	fields: ExpectedField[];
}

const UUID_PLACEHOLDER = /^e\.g\. [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const LIST_FIELDS: ExpectedField[] = [
	{ label: 'Return All', value: false, hint: /all results/i },
	{ label: 'Limit', value: 50, hint: /max number of results/i },
];
const LIST_OPTIONS: ExpectedField = {
	label: 'Options',
	choices: ['Page Size', 'Parallel Requests'],
};

/** The resources and their actions, as the nodes panel groups them. */
export const ACTIONS_BY_RESOURCE: Record<string, string[]> = {
	'Equipment Distance': ['Get equipment distance for a day'],
	'Equipment Model': ['Get many equipment models'],
	Inventory: ['Delete an inventory'],
	Product: [
		'Attach a service product to a product',
		'Get custom price list entries',
		'Update a price item of a product',
	],
	Quote: ['Create a quote'],
	Release: ['Update a release'],
};

export const OPERATIONS: ExpectedOperation[] = [
	{
		resource: 'Quote',
		operation: 'Create',
		action: 'Create a quote',
		fields: [
			{
				label: 'Client ID',
				required: true,
				value: '',
				placeholder: UUID_PLACEHOLDER,
				hint: /UUID/,
			},
			{
				label: 'Contract ID',
				required: true,
				value: '',
				placeholder: UUID_PLACEHOLDER,
				hint: /UUID/,
			},
			{
				// Required, but n8n 2.8.4 marks no empty number field; the node's own check stops it.
				label: 'Amount',
				value: '',
				placeholder: /^e\.g\. 1250\.50$/,
				hint: /100,000,000/,
			},
			{
				label: 'Additional Fields',
				choices: [
					'Booking IDs',
					'Date',
					'Deadline',
					'End Date',
					'External ID',
					'Media ID',
					'Media Name',
					'Metadata',
					'Quote ID',
					'Start Date',
					'Status',
				],
			},
		],
	},
	{
		resource: 'Product',
		operation: 'Get Custom Price List',
		action: 'Get custom price list entries',
		fields: [
			{ label: 'Custom Price List ID', required: true, value: '' },
			...LIST_FIELDS,
			{ label: 'Filters', choices: ['Product ID', 'Product Type'] },
			{ label: 'Options', choices: ['Output', 'Page Size', 'Parallel Requests'] },
		],
	},
	{
		resource: 'Product',
		operation: 'Update Price Item',
		action: 'Update a price item of a product',
		fields: [
			{
				label: 'Product ID',
				required: true,
				value: '',
				placeholder: UUID_PLACEHOLDER,
				hint: /UUID/,
			},
			{ label: 'Price Item ID', required: true, value: '' },
			{ label: 'From Quantity', value: 1, hint: /at least 1/ },
			{ label: 'Price', value: 0, hint: /negative/ },
			{ label: 'Calculation Type', value: "Don't Send" },
		],
	},
	{
		resource: 'Product',
		operation: 'Attach Service',
		action: 'Attach a service product to a product',
		fields: [
			{
				label: 'Product ID',
				required: true,
				value: '',
				placeholder: UUID_PLACEHOLDER,
				hint: /main/,
			},
			{
				label: 'Service Product ID',
				required: true,
				value: '',
				placeholder: UUID_PLACEHOLDER,
				hint: /type Service/,
			},
		],
	},
	{
		resource: 'Release',
		operation: 'Update',
		action: 'Update a release',
		fields: [
			{
				label: 'Release ID',
				required: true,
				value: '',
				placeholder: UUID_PLACEHOLDER,
				hint: /UUID/,
			},
			{
				label: 'Update Fields',
				choices: [
					'Booking ID',
					'End Date',
					'External ID',
					'Percentage',
					'Quantity',
					'Reason',
					'Start Date',
				],
			},
		],
	},
	{
		resource: 'Inventory',
		operation: 'Delete',
		action: 'Delete an inventory',
		fields: [{ label: 'Inventory ID', required: true, value: '', hint: /cannot be undone/ }],
	},
	{
		resource: 'Equipment Model',
		operation: 'Get Many',
		action: 'Get many equipment models',
		fields: [
			...LIST_FIELDS,
			{ label: 'Filters', choices: ['Brand ID', 'Model IDs', 'Name', 'Search', 'Updated After'] },
			LIST_OPTIONS,
		],
	},
	{
		resource: 'Equipment Distance',
		operation: 'Get',
		action: 'Get equipment distance for a day',
		fields: [{ label: 'Date', required: true, value: '', hint: /YYYY-MM-DD/ }],
	},
];

/** The trigger's events, as its Event field lists them (name and description). */
export const TRIGGER_EVENTS = [
	{
		name: 'Equipment Model Created or Updated',
		entry: 'On equipment model created or updated',
		hint: /each equipment model created or changed/i,
	},
	{
		name: 'Daily Distance Report',
		entry: 'On daily distance report',
		hint: /previous day's distance/i,
	},
];

/** What users type to find the node (issue 12). */
export const SEARCH_WORDS = [
	'Equipment',
	'quote',
	'booking',
	'price list',
	'inventory',
	'release',
	'excavator',
];
