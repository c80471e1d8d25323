/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(README.md, "n8n's n8n-node tool"). */
/**
 * How the package's modules depend on one another (nodes/ and credentials/): no import cycle, the
 * trigger takes nothing from the node's operations, and shared/ stands on its own. Imports are read
 * with the TypeScript compiler's own pre-processor, `import type` and re-exports included.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';
import ts from 'typescript';

const ROOT = join(__dirname, '..');
const NODE = join(ROOT, 'nodes', 'EquipmentRental');

function sourceFiles(directory: string): string[] {
	return readdirSync(directory).flatMap((entry) => {
		const path = join(directory, entry);
		if (statSync(path).isDirectory()) return sourceFiles(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** The package's own modules that `file` imports, as absolute paths. */
function importsOf(file: string): string[] {
	const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
	return importedFiles
		.map(({ fileName }) => fileName)
		.filter((specifier) => specifier.startsWith('.'))
		.map((specifier) => {
			const base = resolve(dirname(file), specifier);
			const candidates = [`${base}.ts`, join(base, 'index.ts')];
			const found = candidates.find((candidate) => existsSync(candidate));
			if (!found) throw new Error(`${relative(ROOT, file)} imports ${specifier}: no such module`);
			return found;
		});
}

type Graph = Map<string, string[]>;

/** A cycle of `graph` as the list of its modules (the first repeated at the end), or undefined. */
function findCycle(graph: Graph): string[] | undefined {
	const done = new Set<string>();
	const path: string[] = [];
	const visit = (module: string): string[] | undefined => {
		const start = path.indexOf(module);
		if (start !== -1) return [...path.slice(start), module];
		if (done.has(module)) return undefined;
		path.push(module);
		for (const imported of graph.get(module) ?? []) {
			const cycle = visit(imported);
			if (cycle) return cycle;
		}
		path.pop();
		done.add(module);
		return undefined;
	};
	for (const module of graph.keys()) {
		const cycle = visit(module);
		if (cycle) return cycle;
	}
	return undefined;
}

const files = [...sourceFiles(join(ROOT, 'nodes')), ...sourceFiles(join(ROOT, 'credentials'))];
const graph: Graph = new Map(files.map((file) => [file, importsOf(file)]));
const named = (modules: string[]) => modules.map((module) => relative(ROOT, module));

describe('Module imports', () => {
	it('are read from every source file', () => {
		expect(named(graph.get(join(NODE, 'EquipmentRental.node.ts'))!)).toContain(
			'nodes/EquipmentRental/shared/subtitles.ts',
		);
		expect(
			findCycle(
				new Map([
					['a', ['b']],
					['b', ['c']],
					['c', ['a']],
				]),
			),
		).toEqual(['a', 'b', 'c', 'a']);
	});

	it('form no cycle', () => {
		expect(named(findCycle(graph) ?? [])).toEqual([]);
	});

	it("give the trigger nothing of the node's operations (resources/)", () => {
		const fromResources = files
			.filter((file) => file.startsWith(join(ROOT, 'nodes', 'EquipmentRentalTrigger')))
			.flatMap((file) =>
				graph
					.get(file)!
					.filter((imported) => imported.startsWith(join(NODE, 'resources')))
					.map((imported) => `${relative(ROOT, file)} -> ${relative(ROOT, imported)}`),
			);
		expect(fromResources).toEqual([]);
	});

	it('leave paging to the operations that page: no other operation file mentions it', () => {
		const operationFiles = files.filter(
			(file) => file.startsWith(join(NODE, 'resources')) && !file.endsWith('index.ts'),
		);
		const pagingOf = (file: string) => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const { fields } = require(file) as { fields?: INodeProperties[] };
			return {
				mentions: /paginat/i.test(readFileSync(file, 'utf8')),
				pages: (fields ?? []).some((field) => field.name === 'returnAll'),
			};
		};

		const lists = operationFiles.filter((file) => pagingOf(file).pages);
		expect(named(lists).sort()).toEqual([
			'nodes/EquipmentRental/resources/client/getAll.ts',
			'nodes/EquipmentRental/resources/contactPerson/getAll.ts',
			'nodes/EquipmentRental/resources/contract/getAll.ts',
			'nodes/EquipmentRental/resources/equipment/getAll.ts',
			'nodes/EquipmentRental/resources/equipmentModel/getAll.ts',
			'nodes/EquipmentRental/resources/product/getAll.ts',
			'nodes/EquipmentRental/resources/product/getCustomPriceList.ts',
		]);
		const mismatched = operationFiles.filter((file) => {
			const { mentions, pages } = pagingOf(file);
			return mentions !== pages;
		});
		expect(named(mismatched)).toEqual([]);
	});

	it('give shared/ nothing from outside shared/', () => {
		const shared = join(NODE, 'shared');
		const outward = files
			.filter((file) => file.startsWith(shared))
			.flatMap((file) =>
				graph
					.get(file)!
					.filter((imported) => !imported.startsWith(shared))
					.map((imported) => `${relative(ROOT, file)} -> ${relative(ROOT, imported)}`),
			);
		expect(outward).toEqual([]);
	});
});
