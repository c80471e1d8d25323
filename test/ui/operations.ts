/**
 * What the editor must show for each operation, as the README documents it: written out here (not
 * read from the node's description) so that a broken label, default or hint fails the test.
 */

export interface ExpectedField {
	label: string;
	/** Marked by n8n as required (a warning on the empty field when the step is executed). */
	required?: boolean;
	/** A picker (n8n's resource locator): From List, By ID... */
	picker?: boolean;
	/** A picker's modes, as its mode selector lists them. */
	modes?: string[];
	/** The value the field shows on a new node: a number, the text, an option's name or a switch. */
	value?: number | string | boolean;
	placeholder?: RegExp;
	/** Part of the field's description (its tooltip). */
	hint?: RegExp;
	/** Part of the field's text as shown, e.g. the note n8n shows under it (the property's `hint`). */
	note?: RegExp;
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

/**
 * The mode of a picker that names a record by the external ID another system gave it. n8n 2.8.4's
 * mode selector is 92 px wide whatever the window, about 47 px of it for the text (12 px Inter):
 * "By External ID" (79.5 px) showed as "By Exter", "By Ext. ID" (54.6 px) and "External ID"
 * (61.5 px) would be cut too; "Ext. ID" takes 36.6 px.
 */
export const EXTERNAL_ID_MODE = 'Ext. ID';
/**
 * A picker's modes: its list and an ID, and for a record that has one, its external ID. (n8n's
 * editor names the list mode itself: "From list".)
 */
const LIST_AND_ID = ['From list', 'By ID'];
const LIST_ID_OR_EXTERNAL_ID = [...LIST_AND_ID, EXTERNAL_ID_MODE];
/** A booking's: the reference documents no list of bookings. */
const ID_OR_EXTERNAL_ID = ['By ID', EXTERNAL_ID_MODE];

/**
 * A field n8n marks as required when the step runs without it. n8n marks none that has a value
 * already: a switch (Is Main), options with a default (Type), a fixed collection (Price List); the
 * node's own checks stop those.
 */
const needed = (label: string): ExpectedField => ({ label, required: true, picker: false });
/** A picker (n8n's resource locator) of a record that has an external ID, unless `modes` say else. */
const picker = (label: string, modes = LIST_ID_OR_EXTERNAL_ID): ExpectedField => ({
	label,
	picker: true,
	modes,
});
/** A required picker, marked by n8n when the step runs without it. */
const picked = (label: string, modes?: string[]): ExpectedField => ({
	...picker(label, modes),
	required: true,
});

const LIST_FIELDS: ExpectedField[] = [
	{ label: 'Return All', value: false, hint: /all results/i },
	{ label: 'Limit', value: 50, hint: /max number of results/i },
];
// Parallel Requests is under Request Options (the Settings tab) on a new node; a list's Options
// offers it only on nodes saved by 0.2.0 (version 1).
const LIST_OPTIONS: ExpectedField = { label: 'Options', choices: ['Page Size'] };

/** The resources and their actions, as the nodes panel groups them. */
export const ACTIONS_BY_RESOURCE: Record<string, string[]> = {
	Booking: [
		'Create a booking',
		'Create or update a booking',
		'Delete a booking',
		'Get a booking',
		'Get a booking by external ID',
		'Update a booking',
	],
	Client: [
		'Create a client',
		'Create or update a client',
		'Delete a client',
		'Get a client',
		'Get a client by external ID',
		'Get many clients',
		'Update a client',
	],
	'Contact Person': [
		'Create a contact person',
		'Create or update a contact person',
		'Delete a contact person',
		'Get a contact person',
		'Get a contact person by external ID',
		'Get many contact persons',
		'Update a contact person',
	],
	Contract: [
		'Create a contract',
		'Create or update a contract',
		'Delete a contract',
		'Get a contract',
		'Get a contract by external ID',
		'Get many contracts',
		'Update a contract',
	],
	Equipment: [
		'Create a piece of equipment',
		'Create or update a piece of equipment',
		'Delete a piece of equipment',
		'Get a piece of equipment',
		'Get a piece of equipment by external ID',
		'Get many pieces of equipment',
		'Update a piece of equipment',
	],
	'Equipment Distance': ['Get equipment distance for a day'],
	'Equipment Model': ['Get many equipment models'],
	'Equipment Usage': ['Get equipment usage for a day'],
	'Equipment Working Time': ['Get equipment working hours for a day'],
	Inventory: ['Delete an inventory'],
	Product: [
		'Add a price item to a product',
		'Attach a service product to a product',
		'Create a product',
		'Create or update a product',
		// The panel's order (by the operations' names: Delete before Delete Price Item).
		'Delete a product',
		'Delete a price item of a product',
		'Detach a service product from a product',
		'Get a product',
		'Get a product by external ID',
		'Get custom price list entries',
		'Get many products',
		'Update a product',
		'Update a price item of a product',
	],
	Quote: ['Create a quote'],
	Release: ['Update a release'],
};

const SORTED_LIST_OPTIONS: ExpectedField = {
	label: 'Options',
	choices: ['Page Size', 'Sort By', 'Sort Direction'],
};
const EXTERNAL_ID: ExpectedField = { label: 'External ID', required: true, value: '' };
const DAY: ExpectedField = { label: 'Date', required: true, value: '' };
// One option (Output): n8n adds it at once instead of listing it.
const DAILY_OPTIONS: ExpectedField = { label: 'Options' };
/** Every write's: Write, or Preview (Write Nothing). */
const MODE: ExpectedField = { label: 'Mode', value: 'Write' };
/** Every operation with a number field's: how numbers given as text are written. */
const NUMBER_FORMAT: ExpectedField = {
	label: 'Number Format',
	value: '1,234.56 (Point as Decimal Separator)',
};
/** Create or Update's, where the record has a list (not bookings). */
const NOT_IN_INPUT: ExpectedField = { label: 'Include Records Not in Input', value: false };
/** A list's input mode beside its fields: in fields (the default), or as JSON. */
const listInput = (list: string): ExpectedField => ({ label: `${list} Input`, value: 'Fields' });

/**
 * The operations the vendor's reference adds: their panels, checked in one node whose Resource and
 * Operation are switched (labels, defaults, choices; their rules are the engine tests').
 */
export const LOOKUPS: ExpectedOperation[] = [
	{
		resource: 'Booking',
		operation: 'Get',
		action: 'Get a booking',
		fields: [picked('Booking', ID_OR_EXTERNAL_ID)],
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
		fields: [picked('Client')],
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
		fields: [picked('Contract')],
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
		fields: [picked('Equipment')],
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
			picked('Product'),
			{ label: 'From Quantity', value: 1 },
			{ label: 'Price', required: true, placeholder: /42\.50/ },
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Product',
		operation: 'Delete Price Item',
		action: 'Delete a price item of a product',
		fields: [picked('Product'), picked('Price Item', LIST_AND_ID)],
	},
	{
		resource: 'Product',
		operation: 'Detach Service',
		action: 'Detach a service product from a product',
		fields: [picked('Product'), picked('Attached Service')],
	},
	{
		resource: 'Product',
		operation: 'Get',
		action: 'Get a product',
		fields: [picked('Product')],
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

const additionalFields = (choices: string[]): ExpectedField => ({
	label: 'Additional Fields',
	choices,
});
/** Create or Update takes the external ID as its key: Additional Fields offers it no more. */
const withoutExternalId = (choices: string[]) => choices.filter((label) => label !== 'External ID');
/** Update's and Create or Update's: what a field whose value comes out empty does (by default nothing). */
const EMPTY_VALUES: ExpectedField = { label: 'Empty Values', value: 'Leave the Field as It Is' };
const updateFields = (choices: string[]): ExpectedField[] => [
	EMPTY_VALUES,
	{ label: 'Update Fields', choices },
	{ label: 'Fields to Clear' },
];

const BOOKING_CHOICES = [
	'Attached Products',
	'Attached Products Input',
	'Change Price',
	'Delivery Address',
	'Exceptional Usage Price',
	'External ID',
	'Normal Price',
	'Normal Usage',
	'Normal Usage Type',
	'Period Type',
	'Pick-Up Address',
	'Quantity',
	'Self Pick-Up',
	'Status',
];
const BOOKING_FIELDS = [
	needed('Start Date'),
	needed('End Date'),
	picked('Entity'),
	// Left empty, the booking takes the product of the piece of equipment booked.
	{ ...picker('Product'), note: /Leave empty to book the product of the piece of equipment/ },
	picked('Contract'),
];
const CLIENT_CHOICES = [
	'Additional Information',
	'City',
	'Contact Persons',
	'Contact Persons Input',
	'Country',
	'Credit Limit',
	'Creditworthiness',
	'Email',
	'External ID',
	'Fax',
	'Frame Contract',
	'Long Name',
	'Number',
	'Partner Type',
	'Payment Terms',
	'Phone',
	'Postal Code',
	'Pricing',
	'Self Insurance',
	'Status',
	'Street',
	'Street and Number',
	'Structure ID',
	'Used Limit',
	'Website',
];
const CONTACT_PERSON_CHOICES = [
	'Department',
	'Email',
	'External ID',
	'Job Title',
	'Mobile',
	'Phone',
];
const CONTRACT_CHOICES = [
	'Additional Information',
	'City',
	'Construction Name',
	'Contact Email',
	'Contact Name',
	'Contact Phone',
	'Contact Position',
	'Country',
	'Delivery Address',
	'External ID',
	'Location',
	'Number',
	'Pick-Up Address',
	'Self Pick-Up',
	'Street',
	'Title',
	'Zip Code',
];
const CONTRACT_REQUIRED = [needed('Start Date'), needed('End Date'), needed('Structure ID')];
const EQUIPMENT_CHOICES = [
	'Active',
	'Additional Specifications',
	'Article Number',
	'Beacon ID',
	'Beacon Vendor',
	'BGL Number',
	'Brand ID',
	'Calculating Conditions',
	'Calculating Criteria',
	'Category ID',
	'External ID',
	'Inactive',
	'Installation',
	'Inventory Number',
	'Is Synced Lectura',
	'Last Client Service',
	'Model ID',
	'Month',
	'Operating Hours Total',
	'Operating Weight',
	'Parent ID',
	'Plate Number',
	'Product',
	'Product Line',
	'Quick Coupler',
	'Responsible Person',
	'RFID',
	'Serial Number',
	'Special Number',
	'Specifications',
	'Structure ID',
	'Structure IDs',
	'Subtitle',
	'Tracking Tag',
	'Unique Equipment ID',
	'Warehouse ID',
	'Weight',
	'Working Hours',
	'Working Hours Price',
	'Year',
];
const PRODUCT_CHOICES = [
	'Additional Information',
	'Default Period Type',
	'Default Quantity',
	'External ID',
	'Number',
];
const PRODUCT_REQUIRED = [
	needed('Title'),
	{ label: 'Type' },
	needed('Unit Type'),
	listInput('Price List'),
	{ label: 'Price List' },
];

/**
 * The writes of issue 26: their panels, checked in one node whose Resource and Operation are
 * switched (labels, required marks, pickers, the choices of Additional and Update Fields).
 */
export const WRITES: ExpectedOperation[] = [
	{
		resource: 'Booking',
		operation: 'Create',
		action: 'Create a booking',
		fields: [MODE, ...BOOKING_FIELDS, additionalFields(BOOKING_CHOICES), NUMBER_FORMAT],
	},
	{
		resource: 'Booking',
		operation: 'Create or Update',
		action: 'Create or update a booking',
		fields: [
			MODE,
			EXTERNAL_ID,
			...BOOKING_FIELDS,
			EMPTY_VALUES,
			additionalFields(withoutExternalId(BOOKING_CHOICES)),
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Booking',
		operation: 'Update',
		action: 'Update a booking',
		fields: [
			MODE,
			picked('Booking', ID_OR_EXTERNAL_ID),
			...updateFields([
				'Additional Information',
				'Billing Status',
				'Change Price',
				'Delivery Address',
				'End Date',
				'Entity',
				'Exceptional Usage Price',
				'External ID',
				'Normal Price',
				'Normal Usage',
				'Normal Usage Type',
				'Period Type',
				'Pick-Up Address',
				'Quantity',
				'Self Pick-Up',
				'Start Date',
				'Status',
			]),
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Booking',
		operation: 'Delete',
		action: 'Delete a booking',
		fields: [MODE, picked('Booking', ID_OR_EXTERNAL_ID)],
	},
	{
		resource: 'Client',
		operation: 'Create',
		action: 'Create a client',
		fields: [MODE, needed('Name'), additionalFields(CLIENT_CHOICES), NUMBER_FORMAT],
	},
	{
		resource: 'Client',
		operation: 'Create or Update',
		action: 'Create or update a client',
		fields: [
			MODE,
			EXTERNAL_ID,
			needed('Name'),
			EMPTY_VALUES,
			additionalFields(withoutExternalId(CLIENT_CHOICES)),
			NOT_IN_INPUT,
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Client',
		operation: 'Update',
		action: 'Update a client',
		// A client's contact persons are written through the Contact Person resource.
		fields: [
			MODE,
			picked('Client'),
			...updateFields(
				[...CLIENT_CHOICES, 'Name']
					.filter((label) => !label.startsWith('Contact Persons'))
					.sort((a, b) => a.localeCompare(b)),
			),
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Client',
		operation: 'Delete',
		action: 'Delete a client',
		fields: [MODE, picked('Client')],
	},
	{
		resource: 'Contact Person',
		operation: 'Create',
		action: 'Create a contact person',
		fields: [
			picked('Client'),
			MODE,
			needed('Name'),
			{ label: 'Is Main', value: false },
			additionalFields(CONTACT_PERSON_CHOICES),
		],
	},
	{
		resource: 'Contact Person',
		operation: 'Create or Update',
		action: 'Create or update a contact person',
		fields: [
			picked('Client'),
			MODE,
			EXTERNAL_ID,
			needed('Name'),
			{ label: 'Is Main', value: false },
			EMPTY_VALUES,
			additionalFields(withoutExternalId(CONTACT_PERSON_CHOICES)),
			NOT_IN_INPUT,
		],
	},
	{
		resource: 'Contact Person',
		operation: 'Get',
		action: 'Get a contact person',
		fields: [picked('Client'), picked('Contact Person')],
	},
	{
		resource: 'Contact Person',
		operation: 'Get by External ID',
		action: 'Get a contact person by external ID',
		fields: [picked('Client'), EXTERNAL_ID],
	},
	{
		resource: 'Contact Person',
		operation: 'Get Many',
		action: 'Get many contact persons',
		fields: [picked('Client'), { label: 'Return All' }, { label: 'Limit', value: 50 }],
	},
	{
		resource: 'Contact Person',
		operation: 'Update',
		action: 'Update a contact person',
		fields: [
			picked('Client'),
			MODE,
			picked('Contact Person'),
			...updateFields([
				'Department',
				'Email',
				'External ID',
				'Is Main',
				'Job Title',
				'Mobile',
				'Name',
				'Phone',
			]),
		],
	},
	{
		resource: 'Contact Person',
		operation: 'Delete',
		action: 'Delete a contact person',
		fields: [picked('Client'), MODE, picked('Contact Person')],
	},
	{
		resource: 'Contract',
		operation: 'Create',
		action: 'Create a contract',
		fields: [
			MODE,
			picked('Client'),
			...CONTRACT_REQUIRED,
			additionalFields(CONTRACT_CHOICES),
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Contract',
		operation: 'Create or Update',
		action: 'Create or update a contract',
		fields: [
			MODE,
			EXTERNAL_ID,
			picked('Client'),
			...CONTRACT_REQUIRED,
			EMPTY_VALUES,
			additionalFields(withoutExternalId(CONTRACT_CHOICES)),
			NOT_IN_INPUT,
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Contract',
		operation: 'Update',
		action: 'Update a contract',
		fields: [
			MODE,
			picked('Contract'),
			...updateFields(
				[...CONTRACT_CHOICES, 'Client', 'End Date', 'Start Date', 'Structure ID'].sort((a, b) =>
					a.localeCompare(b),
				),
			),
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Contract',
		operation: 'Delete',
		action: 'Delete a contract',
		fields: [MODE, picked('Contract')],
	},
	{
		resource: 'Equipment',
		operation: 'Create',
		action: 'Create a piece of equipment',
		fields: [MODE, needed('Title'), additionalFields(EQUIPMENT_CHOICES), NUMBER_FORMAT],
	},
	{
		resource: 'Equipment',
		operation: 'Create or Update',
		action: 'Create or update a piece of equipment',
		fields: [
			MODE,
			EXTERNAL_ID,
			needed('Title'),
			EMPTY_VALUES,
			additionalFields(withoutExternalId(EQUIPMENT_CHOICES)),
			NOT_IN_INPUT,
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Equipment',
		operation: 'Get by External ID',
		action: 'Get a piece of equipment by external ID',
		fields: [EXTERNAL_ID],
	},
	{
		resource: 'Equipment',
		operation: 'Update',
		action: 'Update a piece of equipment',
		fields: [
			MODE,
			picked('Equipment'),
			...updateFields([...EQUIPMENT_CHOICES, 'Title'].sort((a, b) => a.localeCompare(b))),
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Equipment',
		operation: 'Delete',
		action: 'Delete a piece of equipment',
		fields: [MODE, picked('Equipment')],
	},
	{
		resource: 'Product',
		operation: 'Create',
		action: 'Create a product',
		fields: [MODE, ...PRODUCT_REQUIRED, additionalFields(PRODUCT_CHOICES), NUMBER_FORMAT],
	},
	{
		resource: 'Product',
		operation: 'Create or Update',
		action: 'Create or update a product',
		fields: [
			MODE,
			EXTERNAL_ID,
			...PRODUCT_REQUIRED,
			EMPTY_VALUES,
			additionalFields(withoutExternalId(PRODUCT_CHOICES)),
			NOT_IN_INPUT,
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Product',
		operation: 'Update',
		action: 'Update a product',
		fields: [
			MODE,
			picked('Product'),
			...updateFields(
				[...PRODUCT_CHOICES, 'Price List', 'Price List Input', 'Title', 'Unit Type'].sort((a, b) =>
					a.localeCompare(b),
				),
			),
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Product',
		operation: 'Delete',
		action: 'Delete a product',
		fields: [MODE, picked('Product')],
	},
];

export const OPERATIONS: ExpectedOperation[] = [
	{
		resource: 'Quote',
		operation: 'Create',
		action: 'Create a quote',
		fields: [
			{ ...picked('Client'), hint: /picked by name/ },
			{ ...picked('Contract'), hint: /chosen client's contracts/ },
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
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Product',
		operation: 'Get Custom Price List',
		action: 'Get custom price list entries',
		fields: [
			{ ...picked('Custom Price List', LIST_AND_ID), hint: /client's name/ },
			...LIST_FIELDS,
			{ label: 'Filters', choices: ['Product ID', 'Product Type'] },
			{ label: 'Options', choices: ['Output', 'Page Size'] },
		],
	},
	{
		resource: 'Product',
		operation: 'Update Price Item',
		action: 'Update a price item of a product',
		fields: [
			{ ...picked('Product'), hint: /picked by title/ },
			{ ...picked('Price Item', LIST_AND_ID), hint: /quantity tier/ },
			// Required, but n8n marks no empty number field; the node's own check stops it.
			{ label: 'Price', placeholder: /42\.50/, hint: /negative/ },
			{ label: 'From Quantity', placeholder: /Keep the price item's/, hint: /Leave empty to keep/ },
			{ label: 'Calculation Type', value: "Don't Send" },
			NUMBER_FORMAT,
		],
	},
	{
		resource: 'Product',
		operation: 'Attach Service',
		action: 'Attach a service product to a product',
		fields: [
			{ ...picked('Product'), hint: /main product/ },
			{ ...picked('Service Product'), hint: /service products/ },
		],
	},
	{
		resource: 'Release',
		operation: 'Update',
		action: 'Update a release',
		fields: [
			{ label: 'Booking (to List Its Releases)', hint: /not sent/ },
			{ ...picked('Release', LIST_AND_ID), hint: /releases of the booking/ },
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
			NUMBER_FORMAT,
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
	...['client', 'contract', 'product'].map((kind) => ({
		name: `${kind[0].toUpperCase()}${kind.slice(1)} Created or Updated`,
		entry: `On ${kind} created or updated`,
		hint: new RegExp(`each ${kind} created or changed.*changeType`, 'i'),
	})),
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

/**
 * Request Options, the collection n8n adds to every declarative node (in the Settings tab): n8n's
 * own options and the node's (Max Rate Limit Wait, Parallel Requests), sorted by n8n's loader.
 */
export const REQUEST_OPTIONS = [
	'Batching',
	'Ignore SSL Issues (Insecure)',
	'Max Rate Limit Wait (Seconds)',
	'Parallel Requests',
	'Proxy',
	'Timeout',
];
