import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * Why this exists: n8n-core's RoutingNode (2.8.1, routing-node.js, runNode) evaluates, for every
 * input item and before any request, the saved value under the name of every top-level property of
 * the node, shown or not. A name that N properties share (each resource's Create or Update has its
 * own `externalId` and `additionalFields`) has its expressions evaluated N times per item: 29
 * evaluations per record for Client > Create or Update, where 3 are needed, most of n8n's cost of a
 * large sync. One property per name costs one evaluation.
 *
 * So the operations keep declaring their own fields (one file each), and the node merges the
 * properties that share a name into as few as it can without changing what the editor shows for
 * any operation:
 * - properties that differ only in the resources and operations they are shown for become one,
 *   shown for all of them, when that shows it for no operation it was not shown for;
 * - collections (Additional Fields, Update Fields, Filters, Options) that differ in their options
 *   too become one whose options are each shown for the resources and operations they came from
 *   (n8n's `/resource` and `/operation` conditions, as in n8n's own WooCommerce node);
 * - every operation's fields keep their order: a merge that cannot keep it is not made.
 */

/** Where a property is shown: resources x operations, and any other conditions as they are. */
interface Scope {
	resources: string[];
	operations: string[];
	/** The property's display conditions other than resource and operation, as JSON. */
	otherConditions: string;
}

/** A property of the node as an operation's file declares it, and where it is shown. */
interface Member {
	property: INodeProperties;
	scope: Scope;
	/** Its index in the node's list. */
	index: number;
}

/** A property of the merged list, and the properties merged into it. */
interface Cluster {
	property: INodeProperties;
	members: Member[];
	/** The smallest index in the node's list of the properties merged into this one. */
	firstIndex: number;
}

const scopesOf = (members: Member[]) => members.map((member) => member.scope);

const pairKey = (resource: string, operation: string) => `${resource}\u0000${operation}`;

function scopeOf(property: INodeProperties): Scope | undefined {
	const { show, hide, ...rest } = property.displayOptions ?? {};
	const resources = show?.resource;
	const operations = show?.operation;
	if (hide || Object.keys(rest).length > 0 || !show) return undefined;
	if (!Array.isArray(resources) || !Array.isArray(operations)) return undefined;
	const otherConditions = { ...show };
	delete otherConditions.resource;
	delete otherConditions.operation;
	return {
		resources: resources.map(String),
		operations: operations.map(String),
		otherConditions: JSON.stringify(otherConditions),
	};
}

/** The property as the editor shows it, apart from where: what must be equal to merge. */
function definitionOf(property: INodeProperties, withOptions: boolean): string {
	return JSON.stringify({
		...property,
		displayOptions: undefined,
		options: withOptions ? property.options : undefined,
	});
}

/** The node's operations, as `resource\0operation`, from each resource's Operation property. */
function operationsOf(properties: INodeProperties[]): Set<string> {
	const pairs = new Set<string>();
	for (const property of properties) {
		const resources = property.displayOptions?.show?.resource;
		if (property.name !== 'operation' || !Array.isArray(resources)) continue;
		for (const resource of resources)
			for (const option of property.options ?? [])
				if ('value' in option) pairs.add(pairKey(String(resource), String(option.value)));
	}
	return pairs;
}

/** The operations a property is shown for; every one for a property not limited to some. */
function shownFor(property: INodeProperties, operations: Set<string>): string[] {
	const show = property.displayOptions?.show;
	const resources = show?.resource as string[] | undefined;
	const names = show?.operation as string[] | undefined;
	return [...operations].filter((pair) => {
		const [resource, operation] = pair.split('\u0000');
		return (!resources || resources.includes(resource)) && (!names || names.includes(operation));
	});
}

/** Shown for resources x operations, are exactly the scopes' operations covered (no others)? */
function coversExactly(scopes: Scope[], operations: Set<string>): boolean {
	const resources = new Set(scopes.flatMap((scope) => scope.resources));
	const names = new Set(scopes.flatMap((scope) => scope.operations));
	for (const resource of resources)
		for (const name of names) {
			if (!operations.has(pairKey(resource, name))) continue;
			const covered = scopes.some(
				(scope) => scope.resources.includes(resource) && scope.operations.includes(name),
			);
			if (!covered) return false;
		}
	return true;
}

function union(scopes: Scope[]): Pick<Scope, 'resources' | 'operations'> {
	return {
		resources: [...new Set(scopes.flatMap((scope) => scope.resources))],
		operations: [...new Set(scopes.flatMap((scope) => scope.operations))],
	};
}

function shownOnlyFor(
	property: INodeProperties,
	{ resources, operations }: Pick<Scope, 'resources' | 'operations'>,
	prefix = '',
): INodeProperties {
	const show = { ...property.displayOptions?.show };
	delete show.resource;
	delete show.operation;
	const displayOptions: IDisplayOptions = {
		...property.displayOptions,
		show: { [`${prefix}resource`]: resources, [`${prefix}operation`]: operations, ...show },
	};
	return { ...property, displayOptions };
}

/**
 * The options of collections merged into one: each shown where its collection was, options that
 * are the same merged in turn, sorted by label as n8n's lint asks.
 */
function mergedOptions(members: Member[], operations: Set<string>): INodeProperties[] {
	const merged: Array<{ option: INodeProperties; scopes: Scope[] }> = [];
	for (const { property, scope } of members)
		for (const option of property.options as INodeProperties[]) {
			const same = merged.find(
				(entry) =>
					definitionOf(entry.option, true) === definitionOf(option, true) &&
					JSON.stringify(entry.option.displayOptions) === JSON.stringify(option.displayOptions) &&
					coversExactly([...entry.scopes, scope], operations),
			);
			if (same) same.scopes.push(scope);
			else merged.push({ option, scopes: [scope] });
		}
	const everywhere = union(scopesOf(members));
	const isEverywhere = ({ resources, operations: names }: ReturnType<typeof union>) =>
		resources.length === everywhere.resources.length &&
		names.length === everywhere.operations.length;
	return merged
		.map(({ option, scopes }) =>
			isEverywhere(union(scopes)) ? option : shownOnlyFor(option, union(scopes), '/'),
		)
		.sort((left, right) => left.displayName.localeCompare(right.displayName));
}

/** Whether a collection's options can be shown per resource and operation (none already is). */
function optionsCanBeScoped(property: INodeProperties): boolean {
	return (
		property.type === 'collection' &&
		(property.options as INodeProperties[]).every((option) => {
			const show = option.displayOptions?.show ?? {};
			return !option.displayOptions?.hide && !('/resource' in show) && !('/operation' in show);
		})
	);
}

/** The merge of two clusters of the same name, or undefined when they cannot be one. */
function merge(left: Cluster, right: Cluster, operations: Set<string>): Cluster | undefined {
	const members = [...left.members, ...right.members];
	const scopes = scopesOf(members);
	if (new Set(scopes.map((scope) => scope.otherConditions)).size !== 1) return undefined;
	if (!coversExactly(scopes, operations)) return undefined;
	const [first] = members;
	const sameOptions = members.every(
		(member) => definitionOf(member.property, true) === definitionOf(first.property, true),
	);
	const scopedOptions =
		!sameOptions &&
		members.every(
			(member) =>
				definitionOf(member.property, false) === definitionOf(first.property, false) &&
				optionsCanBeScoped(member.property),
		);
	if (!sameOptions && !scopedOptions) return undefined;
	const property = shownOnlyFor(first.property, union(scopes));
	if (scopedOptions) property.options = mergedOptions(members, operations);
	return { property, members, firstIndex: Math.min(left.firstIndex, right.firstIndex) };
}

/**
 * The clusters in an order that keeps, for every operation, the order in which it shows its fields
 * (`sequences`: indexes into the node's list); or undefined when none does (two fields that two
 * operations show in opposite orders).
 */
function ordered(clusters: Cluster[], sequences: number[][]): Cluster[] | undefined {
	const clusterAt = new Map<number, Cluster>();
	for (const cluster of clusters) {
		clusterAt.set(cluster.firstIndex, cluster);
		for (const member of cluster.members) clusterAt.set(member.index, cluster);
	}
	const before = new Map<Cluster, Set<Cluster>>(clusters.map((cluster) => [cluster, new Set()]));
	for (const sequence of sequences) {
		const shown = sequence.map((index) => clusterAt.get(index)!);
		for (let position = 1; position < shown.length; position++)
			if (shown[position] !== shown[position - 1])
				before.get(shown[position])!.add(shown[position - 1]);
	}
	// Kahn's algorithm, taking the earliest in the node's list first.
	const result: Cluster[] = [];
	const remaining = new Set(clusters);
	while (remaining.size > 0) {
		const ready = [...remaining]
			.filter((cluster) => [...before.get(cluster)!].every((earlier) => !remaining.has(earlier)))
			.sort((left, right) => left.firstIndex - right.firstIndex)[0];
		if (!ready) return undefined;
		result.push(ready);
		remaining.delete(ready);
	}
	return result;
}

/**
 * The clusters with `later` merged into `earlier`, or undefined when the two cannot be one, or no
 * order of the list would keep every operation's order of fields.
 */
function mergeInOrder(
	clusters: Cluster[],
	earlier: Cluster,
	later: Cluster,
	operations: Set<string>,
	sequences: number[][],
): Cluster[] | undefined {
	if (earlier.members.length === 0 || later.members.length === 0) return undefined;
	const merged = merge(earlier, later, operations);
	if (!merged) return undefined;
	const next = clusters
		.filter((cluster) => cluster !== later)
		.map((cluster) => (cluster === earlier ? merged : cluster));
	return ordered(next, sequences) && next;
}

/** The clusters after the first merge of two of the same name that can be one, if any can. */
function firstMerge(
	clusters: Cluster[],
	operations: Set<string>,
	sequences: number[][],
): Cluster[] | undefined {
	for (const [position, later] of clusters.entries())
		for (const earlier of clusters.slice(0, position)) {
			if (earlier.property.name !== later.property.name) continue;
			const merged = mergeInOrder(clusters, earlier, later, operations, sequences);
			if (merged) return merged;
		}
	return undefined;
}

/** The node's properties with those that share a name merged where the editor shows the same. */
export function mergeSameNamedProperties(properties: INodeProperties[]): INodeProperties[] {
	const operations = operationsOf(properties);
	// For each operation, the properties it shows, in the node's order.
	const sequences = [...operations].map((pair) =>
		properties.flatMap((property, index) =>
			shownFor(property, new Set([pair])).length > 0 ? [index] : [],
		),
	);
	let clusters: Cluster[] = properties.map((property, index) => {
		const scope = scopeOf(property);
		return { property, members: scope ? [{ property, scope, index }] : [], firstIndex: index };
	});
	// Until no two clusters of a name merge: a merge can make another possible (a resource's Create
	// and Create or Update merged first, then with another resource's).
	let merged: Cluster[] | undefined;
	while ((merged = firstMerge(clusters, operations, sequences))) clusters = merged;
	return ordered(clusters, sequences)!.map((cluster) => cluster.property);
}
