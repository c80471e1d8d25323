/**
 * What n8n's editor makes of the nodes' descriptions: number inputs, subtitles, the nodes panel's
 * entry and search, and the Docs links. The rules the editor applies are quoted where they are used.
 */
import type { INodeProperties } from 'n8n-workflow';

import { EquipmentRental } from '../nodes/EquipmentRental/EquipmentRental.node';

const node = new EquipmentRental().description;

/** Every property of a description, collection options included. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => [
		property,
		...(property.type === 'collection'
			? allProperties((property.options ?? []) as INodeProperties[])
			: []),
	]);
}

describe('Number inputs', () => {
	// Options that tune how a list is read keep n8n's usual bounds; a clamped tuning value changes
	// no business data.
	const TUNING_OPTIONS = ['limit', 'pageSize', 'parallelRequests'];

	// n8n 2.8's number input (Element Plus InputNumber) clamps a typed value to minValue/maxValue and
	// rounds it to numberPrecision when the field loses focus, without telling the user.
	it('leave business values as typed: no minValue, maxValue or numberPrecision', () => {
		const businessNumbers = allProperties(node.properties).filter(
			(property) => property.type === 'number' && !TUNING_OPTIONS.includes(property.name),
		);

		expect(businessNumbers.map((property) => property.name).sort()).toEqual(
			expect.arrayContaining(['amount', 'from', 'price', 'quantity']),
		);
		const changedByTheEditor = businessNumbers.filter(
			(property) =>
				property.typeOptions?.minValue !== undefined ||
				property.typeOptions?.maxValue !== undefined ||
				property.typeOptions?.numberPrecision !== undefined,
		);
		expect(changedByTheEditor.map((property) => property.displayName)).toEqual([]);
	});
});
