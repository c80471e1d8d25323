/* eslint-disable
	@n8n/community-nodes/no-restricted-imports,
	@n8n/community-nodes/no-restricted-globals
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
/**
 * How the package's modules depend on one another (nodes/ and credentials/), as docs/architecture.md
 * lays them out: no import cycle; each room of nodes/ on the rooms below it (nodes/shared/, the
 * engine room, the factories of reads, the writes, the resources); a resource takes of another only
 * the fields that name its records; the node files and the node folder's root files are imported by
 * nothing below them; the trigger and its events take nothing of the node's folder; only the engine
 * room names n8n's RoutingNode and its hooks; no file over 300 lines. Imports are read with the
 * TypeScript compiler's own pre-processor, `import type` and re-exports included. Each rule is also
 * run on a planted violation, so that a rule that could not fail shows.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

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

const SHARED = 'nodes/shared/';
const NODE_ROOT = 'nodes/EquipmentRental/';
const ENGINE = `${NODE_ROOT}engine/`;
const OPERATIONS = `${NODE_ROOT}operations/`;
const WRITES = `${NODE_ROOT}writes/`;
const RESOURCES = `${NODE_ROOT}resources/`;
const TRIGGER = 'nodes/EquipmentRentalTrigger/';

/**
 * The rooms of nodes/ below the node folder's root, each with the rooms its files may import
 * besides its own: what both nodes use, n8n's engine, the factories of reads, the writes, the
 * resources, each on those before it.
 */
const ROOMS_BELOW = new Map<string, string[]>([
	[SHARED, []],
	[ENGINE, [SHARED]],
	[OPERATIONS, [SHARED, ENGINE]],
	[WRITES, [SHARED, ENGINE, OPERATIONS]],
	[RESOURCES, [SHARED, ENGINE, OPERATIONS, WRITES]],
]);

const isUnder = (folder: string) => (file: string) => file.startsWith(join(ROOT, folder));

/** The imports in `imports` by a file `from` selects of a module `allowed` refuses. */
function forbidden(
	imports: Graph,
	from: (file: string) => boolean,
	allowed: (module: string, file: string) => boolean,
): string[] {
	return [...imports].flatMap(([file, modules]) =>
		from(file)
			? modules
					.filter((module) => !allowed(module, file))
					.map((module) => `${relative(ROOT, file)} -> ${relative(ROOT, module)}`)
			: [],
	);
}

/** The imports by the files under `folder` of modules outside the `allowed` folders. */
const importsOutside = (imports: Graph, folder: string, allowed: string[]) =>
	forbidden(imports, isUnder(folder), (module) =>
		allowed.some((inside) => isUnder(inside)(module)),
	);

const resourceOf = (file: string) =>
	isUnder(RESOURCES)(file) ? relative(join(ROOT, RESOURCES), file).split(sep)[0] : undefined;

/**
 * The imports by a resource's files of another resource's, but of the fields that name its records.
 * A record that refers to another resource's record (a booking's contract, a contact person's
 * client) takes the field naming it from that resource, where its records are described (record.ts)
 * and picked (pickers.ts): the field, its picker and its lookup by external ID are declared once.
 */
const resourcesReachingOthers = (imports: Graph) =>
	forbidden(
		imports,
		isUnder(RESOURCES),
		(module, file) =>
			resourceOf(module) === undefined ||
			resourceOf(module) === resourceOf(file) ||
			['record.ts', 'pickers.ts'].includes(basename(module)),
	);

/**
 * The imports of a node file (what n8n loads) or of a root file of the node's folder (its table of
 * contents and what that assembles) by a module below them: they import the rooms, never the
 * other way.
 */
const importsOfTablesOfContents = (imports: Graph) =>
	forbidden(
		imports,
		isUnder('nodes/'),
		(module, file) =>
			!module.endsWith('.node.ts') &&
			!(dirname(module) === resolve(ROOT, NODE_ROOT) && dirname(file) !== dirname(module)),
	);

/**
 * Whether `text` names n8n's RoutingNode, its internals or the hooks it calls: `preSend`,
 * `postReceive` and `pagination` as routing keys, and the types of their functions and actions.
 * Our own paging (nodes/shared/pagination.ts) and a picker's `paginationToken` are not its.
 */
const namesRoutingNode = (text: string) =>
	/RoutingNode|routing-node|makeRoutingRequest|getExecuteData|IExecutePaginationFunctions|IExecuteSingleFunctions|PostReceiveAction|PreSendAction|DeclarativeRestApiSettings|postReceive|preSend|\bpagination\s*:|paginate: true|operations:\s*\{/.test(
		text,
	);

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

	it('give each room nothing of the rooms above it: writes/ stand on operations/, resources/ on writes/', () => {
		for (const [room, below] of ROOMS_BELOW)
			expect(importsOutside(graph, room, [room, ...below])).toEqual([]);
	});

	it("give the trigger nothing of the node's folder, and its events nothing but nodes/shared/ and the trigger's helpers", () => {
		expect(importsOutside(graph, TRIGGER, [TRIGGER, SHARED])).toEqual([]);
		expect(importsOutside(graph, `${TRIGGER}events/`, [TRIGGER, SHARED])).toEqual([]);
	});

	it('give each resource nothing of another resource but the fields that name its records', () => {
		expect(resourcesReachingOthers(graph)).toEqual([]);
	});

	it("leave the node files and the node folder's root files on top: nothing below imports them", () => {
		expect(importsOfTablesOfContents(graph)).toEqual([]);
		expect(importsOutside(graph, NODE_ROOT, [SHARED, NODE_ROOT])).toEqual([]);
	});

	it('would fail on a planted import against each rule', () => {
		const at = (path: string) => join(ROOT, path);
		const planted: Graph = new Map([
			[at(`${WRITES}create.ts`), [at(`${RESOURCES}client/record.ts`)]],
			[at(`${RESOURCES}client/get.ts`), [at(`${RESOURCES}booking/create.ts`)]],
			[at(`${RESOURCES}booking/record.ts`), [at(`${RESOURCES}contract/record.ts`)]],
			[at(`${TRIGGER}events/clientUpdated.ts`), [at(`${TRIGGER}EquipmentRentalTrigger.node.ts`)]],
			[at(`${TRIGGER}events/productUpdated.ts`), [at(`${RESOURCES}product/record.ts`)]],
			[at(`${OPERATIONS}pickers.ts`), [at(`${NODE_ROOT}listSearch.ts`)]],
		]);
		expect(importsOutside(planted, WRITES, [WRITES, ...ROOMS_BELOW.get(WRITES)!])).toEqual([
			'nodes/EquipmentRental/writes/create.ts -> nodes/EquipmentRental/resources/client/record.ts',
		]);
		expect(resourcesReachingOthers(planted)).toEqual([
			'nodes/EquipmentRental/resources/client/get.ts -> nodes/EquipmentRental/resources/booking/create.ts',
		]);
		expect(importsOutside(planted, `${TRIGGER}events/`, [TRIGGER, SHARED])).toEqual([
			'nodes/EquipmentRentalTrigger/events/productUpdated.ts -> nodes/EquipmentRental/resources/product/record.ts',
		]);
		expect(importsOfTablesOfContents(planted)).toEqual([
			'nodes/EquipmentRentalTrigger/events/clientUpdated.ts -> nodes/EquipmentRentalTrigger/EquipmentRentalTrigger.node.ts',
			'nodes/EquipmentRental/operations/pickers.ts -> nodes/EquipmentRental/listSearch.ts',
		]);
	});

	it("leave n8n's RoutingNode to the engine room: no other file names it or the hooks it calls", () => {
		const naming = files.filter(
			(file) => !isUnder(ENGINE)(file) && namesRoutingNode(readFileSync(file, 'utf8')),
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

	it('would see RoutingNode named by its hooks, as routing keys or as their types', () => {
		const naming = [
			'output: { postReceive: [checkApiResponse()] }',
			'send: { preSend: [withToken] }',
			"operations: { pagination: 'generic' }",
			'request: { pagination : itemHook }',
			"import type { PostReceiveAction } from 'n8n-workflow';",
			'async function hook(this: IExecuteSingleFunctions) {}',
			'async function hook(this: IExecutePaginationFunctions) {}',
			'await this.makeRoutingRequest(request);',
		];
		const notNaming = [
			"import { readList } from '../../shared/pagination';",
			'async searchClients(filter, paginationToken) {}',
			"routing: runPerItem({ method: 'GET', url })",
		];
		expect(naming.filter((text) => !namesRoutingNode(text))).toEqual([]);
		expect(notNaming.filter(namesRoutingNode)).toEqual([]);
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
