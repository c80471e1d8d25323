'use strict';

/**
 * Lets plain Node require the TypeScript sources (the node and the test harness) without a build
 * step: each .ts file is transpiled on load with the project's compiler options, as ts-jest does
 * for the tests. Type checking is left to `npm run typecheck`.
 */

const { readFileSync } = require('node:fs');
const path = require('node:path');
const ts = require('typescript');

// The tests' compiler options (test/tsconfig.json; the root tsconfig.json is the build's).
const testsDir = path.resolve(__dirname, '..', 'test');
const configFile = ts.readConfigFile(path.join(testsDir, 'tsconfig.json'), ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, testsDir);
const compilerOptions = {
	...options,
	noEmit: false,
	sourceMap: false,
	inlineSourceMap: true,
	inlineSources: true,
};

const { '.json': loadJson, '.node': loadAddon } = require.extensions;
delete require.extensions['.json'];
delete require.extensions['.node'];
require.extensions['.ts'] = (module, filename) => {
	const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
		compilerOptions,
		fileName: filename,
	});
	module._compile(outputText, filename);
};
// Node tries extensions in this order: `EquipmentRental.node` must resolve to the .ts file, not the
// node's codex file EquipmentRental.node.json beside it.
require.extensions['.json'] = loadJson;
require.extensions['.node'] = loadAddon;
