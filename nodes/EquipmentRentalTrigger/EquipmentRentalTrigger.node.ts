import type {
	IDataObject,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import * as dailyDistanceReport from './events/dailyDistanceReport';
import * as equipmentModelUpdated from './events/equipmentModelUpdated';

const events = {
	[dailyDistanceReport.option.value as string]: dailyDistanceReport,
	[equipmentModelUpdated.option.value as string]: equipmentModelUpdated,
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
		subtitle: '={{ $parameter["event"] }}',
		description:
			"Starts the workflow when equipment models change, or each day with the previous day's equipment distances",
		defaults: { name: 'Equipment Rental Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'equipmentRentalApi', required: true }],
		properties: [
			{
				displayName: 'Event',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [equipmentModelUpdated.option, dailyDistanceReport.option],
				default: 'equipmentModelUpdated',
			},
			...equipmentModelUpdated.fields,
			...dailyDistanceReport.fields,
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
