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
	Booking: ['Get a booking', 'Get a booking by external ID'],
	Client: ['Get a client', 'Get a client by external ID', 'Get many clients'],
	Contract: ['Get a contract', 'Get a contract by external ID', 'Get many contracts'],
	Equipment: ['Get a piece of equipment', 'Get many pieces of equipment'],
	'Equipment Distance': ['Get equipment distance for a day'],
	'Equipment Model': ['Get many equipment models'],
	'Equipment Usage': ['Get equipment usage for a day'],
	'Equipment Working Time': ['Get equipment working hours for a day'],
	Inventory: ['Delete an inventory'],
	Product: [
		'Add a price item to a product',
		'Attach a service product to a product',
		'Delete a price item of a product',
		'Detach a service product from a product',
		'Get a product',
		'Get a product by external ID',
		'Get custom price list entries',
		'Get many products',
		'Update a price item of a product',
	],
	Quote: ['Create a quote'],
	Release: ['Update a release'],
};

const SORTED_LIST_OPTIONS: ExpectedField = {
	label: 'Options',
	choices: ['Page Size', 'Parallel Requests', 'Sort By', 'Sort Direction'],
};
const EXTERNAL_ID: ExpectedField = { label: 'External ID', required: true, value: '' };
const DAY: ExpectedField = { label: 'Date', required: true, value: '' };
// One option (Output): n8n adds it at once instead of listing it.
const DAILY_OPTIONS: ExpectedField = { label: 'Options' };

/**
 * The operations the vendor's reference adds: their panels, checked in one node whose Resource and
 * Operation are switched (labels, defaults, choices; their rules are the engine tests').
 */
export const LOOKUPS: ExpectedOperation[] = [
	{
		resource: 'Booking',
		operation: 'Get',
		action: 'Get a booking',
		fields: [{ label: 'Booking ID', required: true, value: '' }],
	},
	{
		resource: 'Booking',
		operation: 'Get by External ID',
		action: 'Get a booking by external ID',
		fields: [EXTERNAL_ID],
	},
	{
		resource: 'Client',
		operation: 'Get',
		action: 'Get a client',
		fields: [{ label: 'Client', required: true }],
	},
	{
		resource: 'Client',
		operation: 'Get by External ID',
		action: 'Get a client by external ID',
		fields: [EXTERNAL_ID],
	},
	{
		resource: 'Client',
		operation: 'Get Many',
		action: 'Get many clients',
		fields: [
			{ label: 'Return All' },
			{ label: 'Limit', value: 50 },
			{ label: 'Filters', choices: ['Partner Type', 'Search', 'Status', 'Updated After'] },
			SORTED_LIST_OPTIONS,
		],
	},
	{
		resource: 'Contract',
		operation: 'Get',
		action: 'Get a contract',
		fields: [{ label: 'Contract', required: true }],
	},
	{
		resource: 'Contract',
		operation: 'Get by External ID',
		action: 'Get a contract by external ID',
		fields: [EXTERNAL_ID],
	},
	{
		resource: 'Contract',
		operation: 'Get Many',
		action: 'Get many contracts',
		fields: [
			{ label: 'Return All' },
			{ label: 'Limit', value: 50 },
			{ label: 'Filters', choices: ['Client ID', 'Search', 'Status', 'Updated After'] },
			SORTED_LIST_OPTIONS,
		],
	},
	{
		resource: 'Equipment',
		operation: 'Get',
		action: 'Get a piece of equipment',
		fields: [{ label: 'Equipment', required: true }],
	},
	{
		resource: 'Equipment',
		operation: 'Get Many',
		action: 'Get many pieces of equipment',
		fields: [
			{ label: 'Return All' },
			{ label: 'Limit', value: 50 },
			// One filter: n8n adds it at once instead of listing it.
			{ label: 'Filters' },
			LIST_OPTIONS,
		],
	},
	{
		resource: 'Equipment Usage',
		operation: 'Get',
		action: 'Get equipment usage for a day',
		fields: [DAY, DAILY_OPTIONS],
	},
	{
		resource: 'Equipment Working Time',
		operation: 'Get',
		action: 'Get equipment working hours for a day',
		fields: [DAY, DAILY_OPTIONS],
	},
	{
		resource: 'Product',
		operation: 'Add Price Item',
		action: 'Add a price item to a product',
		fields: [
			{ label: 'Product', required: true },
			{ label: 'From Quantity', value: 1 },
			{ label: 'Price', required: true, placeholder: /42\.50/ },
		],
	},
	{
		resource: 'Product',
		operation: 'Delete Price Item',
		action: 'Delete a price item of a product',
		fields: [
			{ label: 'Product', required: true },
			{ label: 'Price Item', required: true },
		],
	},
	{
		resource: 'Product',
		operation: 'Detach Service',
		action: 'Detach a service product from a product',
		fields: [
			{ label: 'Product', required: true },
			{ label: 'Attached Service', required: true },
		],
	},
	{
		resource: 'Product',
		operation: 'Get',
		action: 'Get a product',
		fields: [{ label: 'Product', required: true }],
	},
	{
		resource: 'Product',
		operation: 'Get by External ID',
		action: 'Get a product by external ID',
		fields: [EXTERNAL_ID],
	},
	{
		resource: 'Product',
		operation: 'Get Many',
		action: 'Get many products',
		fields: [
			{ label: 'Return All' },
			{ label: 'Limit', value: 50 },
			{ label: 'Filters', choices: ['Search', 'Type', 'Updated After'] },
			SORTED_LIST_OPTIONS,
		],
	},
];

export const OPERATIONS: ExpectedOperation[] = [
	{
		resource: 'Quote',
		operation: 'Create',
		action: 'Create a quote',
		fields: [
			{ label: 'Client', required: true, hint: /picked by name/ },
			{ label: 'Contract', required: true, hint: /chosen client's contracts/ },
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
			{ label: 'Custom Price List', required: true, hint: /client's name/ },
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
			{ label: 'Product', required: true, hint: /picked by title/ },
			{ label: 'Price Item', required: true, hint: /quantity tier/ },
			{ label: 'Price', required: true, placeholder: /42\.50/, hint: /negative/ },
			{ label: 'From Quantity', placeholder: /Keep the price item's/, hint: /Leave empty to keep/ },
			{ label: 'Calculation Type', value: "Don't Send" },
		],
	},
	{
		resource: 'Product',
		operation: 'Attach Service',
		action: 'Attach a service product to a product',
		fields: [
			{ label: 'Product', required: true, hint: /main product/ },
			{ label: 'Service Product', required: true, hint: /service products/ },
		],
	},
	{
		resource: 'Release',
		operation: 'Update',
		action: 'Update a release',
		fields: [
			{ label: 'Booking (to List Its Releases)', hint: /not sent/ },
			{ label: 'Release', required: true, hint: /releases of the booking/ },
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
		fields: [{ label: 'Date', required: true, value: '', hint: /YYYY-MM-DD/ }, DAILY_OPTIONS],
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
	{
		name: 'Daily Usage Report',
		entry: 'On daily usage report',
		hint: /previous day's usage/i,
	},
	{
		name: 'Daily Working Hours Report',
		entry: 'On daily working hours report',
		hint: /previous day's working hours/i,
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
	'client',
	'contract',
	'excavator',
];
