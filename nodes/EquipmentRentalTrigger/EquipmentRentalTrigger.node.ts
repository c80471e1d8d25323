import type {
	IDataObject,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { optionNameSubtitle } from '../shared/subtitles';
import * as clientUpdated from './events/clientUpdated';
import * as contractUpdated from './events/contractUpdated';
import * as dailyDistanceReport from './events/dailyDistanceReport';
import * as dailyUsageReport from './events/dailyUsageReport';
import * as dailyWorkingHoursReport from './events/dailyWorkingHoursReport';
import * as equipmentModelUpdated from './events/equipmentModelUpdated';
import * as productUpdated from './events/productUpdated';

const events = {
	[clientUpdated.option.value]: clientUpdated,
	[contractUpdated.option.value]: contractUpdated,
	[dailyDistanceReport.option.value]: dailyDistanceReport,
	[dailyUsageReport.option.value]: dailyUsageReport,
	[dailyWorkingHoursReport.option.value]: dailyWorkingHoursReport,
	[equipmentModelUpdated.option.value]: equipmentModelUpdated,
	[productUpdated.option.value]: productUpdated,
};

const eventField: INodeProperties = {
	displayName: 'Event',
	name: 'event',
	type: 'options',
	noDataExpression: true,
	// The events on changes first, led by the model event (the default), then the daily reports.
	options: [
		equipmentModelUpdated.option,
		clientUpdated.option,
		contractUpdated.option,
		productUpdated.option,
		dailyDistanceReport.option,
		dailyUsageReport.option,
		dailyWorkingHoursReport.option,
	],
	default: 'equipmentModelUpdated',
};

/**
 * The static data of the workflows whose poll is still running. n8n starts a poll on schedule even
 * when the previous one has not ended (a slow API, Retry-After waits): both would start from the
 * same point and emit the same changes.
 */
const pollsRunning = new WeakSet<IDataObject>();

export class EquipmentRentalTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Equipment Rental Trigger',
		name: 'equipmentRentalTrigger',
		icon: {
			light: 'file:../EquipmentRental/equipmentRental.svg',
			dark: 'file:../EquipmentRental/equipmentRental.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: optionNameSubtitle(eventField),
		// n8n's nodes panel (editor 2.8.4, generateMergedNodesAndActions) shows a node and its trigger
		// as one entry when the trigger's type is the node's type followed by "Trigger" and the node
		// has actions, and gives that entry the trigger's description, not the node's. This one
		// therefore describes both nodes; renaming a type to keep them apart would break saved
		// workflows. Each event keeps its own description in that entry's list of triggers.
		description:
			"Create quotes, manage price lists, releases and inventories, and look up clients, contracts, products and equipment of an equipment-rental business, or start a workflow when clients, contracts, products or equipment models are created or changed, or with each day's distances, usage or working hours",
		documentationUrl: 'https://github.com/equipment-rental/n8n-nodes-equipment-rental#trigger',
		defaults: { name: 'Equipment Rental Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'equipmentRentalApi', required: true }],
		properties: [
			eventField,
			...equipmentModelUpdated.fields,
			...clientUpdated.fields,
			...contractUpdated.fields,
			...productUpdated.fields,
			...dailyDistanceReport.fields,
			...dailyUsageReport.fields,
			...dailyWorkingHoursReport.fields,
		],
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = this.getNodeParameter('event') as string;
		if (!Object.hasOwn(events, event))
			throw new NodeOperationError(this.getNode(), `Unknown event '${event}'`);
		const emit = async () => {
			const items = await events[event].poll(this);
			return items.length > 0 ? [items] : null;
		};
		// A manual run keeps no state.
		if (this.getMode() === 'manual') return await emit();
		const staticData = this.getWorkflowStaticData('node');
		if (pollsRunning.has(staticData)) return null;
		pollsRunning.add(staticData);
		try {
			return await emit();
		} finally {
			pollsRunning.delete(staticData);
		}
	}
}
