/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * What n8n loads of each node, as n8n's loader leaves it (the node's description after its own
 * transforms, with the Request Options n8n adds to a declarative node), against the snapshot
 * committed in test/snapshots/: a change to what the editor shows is a diff to review there.
 * `UPDATE_SNAPSHOTS=1 npx jest test/node/descriptionSnapshot.test.ts` writes the snapshots anew.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeType } from 'n8n-workflow';

import { EquipmentRentalApi } from '../../credentials/EquipmentRentalApi.credentials';
import { EquipmentRental } from '../../nodes/EquipmentRental/EquipmentRental.node';
import { loadNodeTypes, NODE_TYPE, TRIGGER_NODE_TYPE } from '../harness/engine';

const SNAPSHOTS = join(__dirname, '..', 'snapshots');

/**
 * `value` as JSON, a function (a routing hook) shown by its name, and by the data it carries where
 * it carries some: an operation's hook carries what the operation sends (its request's method, URL
 * and fields, nodes/EquipmentRental/engine/declaredRequest.ts).
 */
function asJson(value: unknown): string {
	return `${JSON.stringify(
		value,
		(_key, entry: unknown) => {
			if (typeof entry !== 'function') return entry;
			const name = entry.name || 'anonymous';
			return Object.keys(entry).length === 0 ? `[function ${name}]` : { function: name, ...entry };
		},
		'\t',
	)}\n`;
}

function expectSnapshot(name: string, value: unknown): void {
	const file = join(SNAPSHOTS, name);
	const current = asJson(value);
	if (process.env.UPDATE_SNAPSHOTS === '1') writeFileSync(file, current);
	expect(JSON.parse(current)).toEqual(JSON.parse(readFileSync(file, 'utf8')));
}

describe('What n8n loads', () => {
	const types = loadNodeTypes(new EquipmentRental());
	const loaded = (type: string) => (types.getByName(type) as INodeType).description;

	it('of the Equipment Rental node is its committed snapshot', () => {
		expectSnapshot('EquipmentRental.description.json', loaded(NODE_TYPE));
	});

	it('of the trigger is its committed snapshot', () => {
		expectSnapshot('EquipmentRentalTrigger.description.json', loaded(TRIGGER_NODE_TYPE));
	});

	it('of the credential is its committed snapshot', () => {
		expectSnapshot('EquipmentRentalApi.credentials.json', new EquipmentRentalApi());
	});

	it('would show a change: a snapshot differs from a description changed by one label', () => {
		const description = loaded(NODE_TYPE);
		const changed = { ...description, properties: [...description.properties] };
		changed.properties[0] = { ...changed.properties[0], displayName: 'Changed' };
		expect(() =>
			expect(JSON.parse(asJson(changed))).toEqual(
				JSON.parse(readFileSync(join(SNAPSHOTS, 'EquipmentRental.description.json'), 'utf8')),
			),
		).toThrow();
	});
});
