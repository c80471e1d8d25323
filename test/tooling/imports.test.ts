/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * How the package's modules depend on one another (nodes/ and credentials/), as docs/architecture.md
 * lays them out: no import cycle; nodes/shared/ (what both nodes use) stands on its own, the engine
 * room on it alone, the operations' factories on the two; the trigger takes nothing of the node's
 * folder; only the engine room knows n8n's RoutingNode; no file over 300 lines. Imports are read
 * with the TypeScript compiler's own pre-processor, `import type` and re-exports included.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import type { INodeProperties } from 'n8n-workflow';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
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

/**
 * The files of nodes/ that may keep state at module level: the run's home (the one map that finds
 * a run, and what outlives a run), and the requests sent outside any run of the node.
 */
const STATE_HOMES = [
	'nodes/EquipmentRental/engine/nodeRun.ts',
	'nodes/EquipmentRental/engine/runState.ts',
	// The paces of the trigger's polls and the pickers' lists, by n8n's context of each.
	'nodes/shared/transport.ts',
	// The workflows whose poll is still running.
	'nodes/EquipmentRentalTrigger/EquipmentRentalTrigger.node.ts',
	// The work waiting for a slice of the event loop, which every run in the process shares.
	'nodes/shared/eventLoopSlices.ts',
];

/**
 * The module-level state `source` declares: a `let` or `var`, or a collection made empty to be
 * filled later (`new Map()`, `new WeakMap()`, ...); a table made from its entries (`new Set([...])`)
 * is a constant.
 */
function moduleState(source: string, name: string): string[] {
	const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest);
	return file.statements.filter(ts.isVariableStatement).flatMap((statement) => {
		const { declarations, flags } = statement.declarationList;
		const keyword = flags & ts.NodeFlags.Const ? 'const' : flags & ts.NodeFlags.Let ? 'let' : 'var';
		return declarations.flatMap((declaration) => {
			const { initializer } = declaration;
			const filledLater =
				initializer !== undefined &&
				ts.isNewExpression(initializer) &&
				/^(Weak)?(Map|Set)$/.test(initializer.expression.getText(file)) &&
				(initializer.arguments ?? []).length === 0;
			if (keyword === 'const' && !filledLater) return [];
			const made = filledLater ? ` = new ${initializer.expression.getText(file)}` : '';
			return [`${name}: ${keyword} ${declaration.name.getText(file)}${made}`];
		});
	});
}

const PLANTED_STATE = `
const LIMIT = 5;
const KINDS = new Set(['a', 'b']);
let count = 0;
const byRun = new WeakMap<object, number>();
export const seen = new Set<string>();
function local() {
	const inside = new Map();
	return inside;
}
`;

describe('Module imports', () => {
	it('are read from every source file', () => {
		expect(named(graph.get(join(NODE, 'EquipmentRental.node.ts'))!)).toContain(
			'nodes/shared/subtitles.ts',
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

	/** The imports of the files under `folder` that reach outside `allowed` folders (and itself). */
	const importsOutside = (folder: string, allowed: string[]) =>
		files
			.filter((file) => file.startsWith(join(ROOT, folder)))
			.flatMap((file) =>
				graph
					.get(file)!
					.filter(
						(imported) =>
							![folder, ...allowed].some((inside) => imported.startsWith(join(ROOT, inside))),
					)
					.map((imported) => `${relative(ROOT, file)} -> ${relative(ROOT, imported)}`),
			);

	it("give the trigger nothing of the node's folder: what both use is in nodes/shared/", () => {
		expect(importsOutside('nodes/EquipmentRentalTrigger/', ['nodes/shared/'])).toEqual([]);
	});

	it('give nodes/shared/ nothing from either node', () => {
		expect(importsOutside('nodes/shared/', [])).toEqual([]);
	});

	it("build the engine room on nodes/shared/ alone, and the operations' factories on the two", () => {
		expect(importsOutside('nodes/EquipmentRental/engine/', ['nodes/shared/'])).toEqual([]);
		expect(
			importsOutside('nodes/EquipmentRental/operations/', [
				'nodes/shared/',
				'nodes/EquipmentRental/engine/',
			]),
		).toEqual([]);
	});

	it("leave n8n's RoutingNode to the engine room: no other file names it or the hooks it calls", () => {
		const engineTerms =
			/RoutingNode|routing-node|makeRoutingRequest|getExecuteData|IExecutePaginationFunctions|paginate: true|operations:\s*\{/;
		const naming = files.filter(
			(file) =>
				!file.startsWith(join(NODE, 'engine')) && engineTerms.test(readFileSync(file, 'utf8')),
		);
		expect(named(naming)).toEqual([]);
	});

	it("keep a run's state in the run's home: no other module of nodes/ declares state of its own", () => {
		expect(moduleState(PLANTED_STATE, 'planted.ts')).toEqual([
			'planted.ts: let count',
			'planted.ts: const byRun = new WeakMap',
			'planted.ts: const seen = new Set',
		]);
		const declaring = files
			.filter((file) => file.startsWith(join(ROOT, 'nodes')))
			.filter((file) => !STATE_HOMES.includes(relative(ROOT, file)))
			.flatMap((file) => moduleState(readFileSync(file, 'utf8'), relative(ROOT, file)));
		expect(declaring).toEqual([]);
	});

	it('keep every file in nodes/ under 300 lines', () => {
		const long = files
			.filter((file) => file.startsWith(join(ROOT, 'nodes')))
			.map((file) => [relative(ROOT, file), readFileSync(file, 'utf8').split('\n').length - 1])
			.filter(([, lines]) => (lines as number) > 300);
		expect(long).toEqual([]);
	});

	it('leave paging to the operations that page: no other operation file mentions it', () => {
		// A resource's pickers.ts is no operation: its list searches hand n8n's paginationToken on.
		const operationFiles = files.filter(
			(file) =>
				file.startsWith(join(NODE, 'resources')) &&
				!file.endsWith('index.ts') &&
				!file.endsWith('pickers.ts'),
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
});
