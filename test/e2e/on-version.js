'use strict';
/** Makes the runtime of this test file use its Jest project's n8n version (jest.compat.config.js). */
const { VERSION_VARIABLE } = require('../../scripts/runtime/versions');

process.env[VERSION_VARIABLE] = globalThis.n8nVersion;
