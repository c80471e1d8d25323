import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/**
 * A subtitle expression that looks `key` up in `labels`. The editor evaluates a node's subtitle
 * with `$parameter`; a subtitle made of parameter values shows internal names such as "getAll".
 */
function subtitleLookup(labels: Record<string, string>, key: string): string {
	return `={{ (${JSON.stringify(labels)})[${key}] ?? ${key} }}`;
}

function optionsOf(property: INodeProperties): INodePropertyOptions[] {
	return (property.options ?? []) as INodePropertyOptions[];
}

/** The subtitle showing the chosen option of `property` by its name, e.g. "Daily Distance Report". */
export function optionNameSubtitle(property: INodeProperties): string {
	const labels = Object.fromEntries(
		optionsOf(property).map((option) => [String(option.value), option.name]),
	);
	return subtitleLookup(labels, `$parameter[${JSON.stringify(property.name)}]`);
}

/**
 * The subtitle showing the chosen operation and resource by their names, e.g. "Get Many: Equipment
 * Model", for every operation property of `properties` (one per resource, shown by displayOptions).
 */
export function actionSubtitle(properties: INodeProperties[]): string {
	const resources = optionsOf(properties.find((property) => property.name === 'resource')!);
	const labels: Record<string, string> = {};
	for (const operations of properties.filter((property) => property.name === 'operation')) {
		for (const resourceValue of operations.displayOptions?.show?.resource ?? []) {
			const resource = resources.find((option) => option.value === resourceValue)!;
			for (const operation of optionsOf(operations)) {
				labels[`${String(resourceValue)}:${String(operation.value)}`] =
					`${operation.name}: ${resource.name}`;
			}
		}
	}
	return subtitleLookup(labels, '$parameter["resource"] + ":" + $parameter["operation"]');
}
