/**
 * Every picker's list exists, as n8n loads the nodes: each `searchListMethod` a field names (in a
 * resource locator's modes, at any depth of collections and fixed collections) is a function of the
 * node type's `methods.listSearch` registered under its own name, and every function there is named
 * by a field. A missing one would only show when a user opens the list in the editor.
 */
import type { INodeProperties, INodeType } from 'n8n-workflow';

import { loadNodeTypes, NODE_TYPE, TOOL_NODE_TYPE, TRIGGER_NODE_TYPE } from '../harness/engine';

interface NamedSearch {
	search: string;
	/** The names of the properties and modes it sits in, e.g. "updateFields > clientId > list". */
	where: string;
}

/** Every list search named in `value`, walked whole: properties, options, values and modes. */
function namedSearches(value: unknown, where: string[] = []): NamedSearch[] {
	if (Array.isArray(value)) return value.flatMap((entry) => namedSearches(entry, where));
	if (typeof value !== 'object' || value === null) return [];
	const entries = value as Record<string, unknown>;
	const inside = typeof entries.name === 'string' ? [...where, entries.name] : where;
	const search = (entries.typeOptions as { searchListMethod?: unknown } | undefined)
		?.searchListMethod;
	return [
		...(typeof search === 'string' ? [{ search, where: inside.join(' > ') }] : []),
		...Object.values(entries).flatMap((entry) => namedSearches(entry, inside)),
	];
}

/** What is wrong between a node type's fields and its list searches, one line each. */
function searchProblems(nodeType: INodeType): string[] {
	const listSearch = nodeType.methods?.listSearch ?? {};
	const named = namedSearches(nodeType.description.properties);
	return [
		...named
			.filter(({ search }) => typeof listSearch[search] !== 'function')
			.map(({ search, where }) => `${where} names ${search}, which methods.listSearch lacks`),
		...Object.keys(listSearch)
			.filter((name) => !named.some(({ search }) => search === name))
			.map((name) => `methods.listSearch.${name} is named by no field`),
		...Object.entries(listSearch)
			.filter(([name, search]) => search.name !== name)
			.map(([name, search]) => `methods.listSearch.${name} is the function ${search.name}`),
	];
}

describe("The pickers' list searches", () => {
	const types = loadNodeTypes();
	const loaded = (type: string) => types.getByName(type) as INodeType;

	it.each([
		['the Equipment Rental node', NODE_TYPE],
		['its AI tool', TOOL_NODE_TYPE],
		['the trigger', TRIGGER_NODE_TYPE],
	])('of %s: every search a field names exists, and every search is named', (_name, type) => {
		expect(searchProblems(loaded(type))).toEqual([]);
	});

	it('are found at every depth: a field, a collection option, a fixed collection in a collection', () => {
		const named = namedSearches(loaded(NODE_TYPE).description.properties);
		expect(named).toContainEqual({ search: 'searchClients', where: 'clientId > list' });
		expect(named).toContainEqual({
			search: 'searchClients',
			where: 'updateFields > clientId > list',
		});
		expect(named).toContainEqual({
			search: 'searchProducts',
			where: 'additionalFields > attachedProducts > attachedProduct > productId > list',
		});
	});

	it('would fail: a field deep in a fixed collection naming a search the node lacks, a search no field names, a search under another name', () => {
		const node = loaded(NODE_TYPE);
		const plantedPicker: INodeProperties = {
			displayName: 'Planted',
			name: 'planted',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			modes: [
				{
					displayName: 'From List',
					name: 'list',
					type: 'list',
					typeOptions: { searchListMethod: 'searchNoSuchList' },
				},
			],
		};
		const entries: INodeProperties = {
			displayName: 'Entries',
			name: 'entries',
			type: 'fixedCollection',
			default: {},
			options: [{ displayName: 'Entry', name: 'entry', values: [plantedPicker] }],
		};
		const listSearch = node.methods!.listSearch!;
		const planted: INodeType = {
			description: { ...node.description, properties: [...node.description.properties, entries] },
			methods: { listSearch: { ...listSearch, searchUnnamed: listSearch.searchClients } },
		};
		expect(searchProblems(planted)).toEqual([
			'entries > entry > planted > list names searchNoSuchList, which methods.listSearch lacks',
			'methods.listSearch.searchUnnamed is named by no field',
			'methods.listSearch.searchUnnamed is the function searchClients',
		]);
	});
});
