// n8n-core writes a config file into the user folder on first use: keep it out of the developer's
// home.
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-nodes-equipment-rental-test-'));
process.env.TZ ??= 'UTC';
