/* eslint-disable
	@n8n/community-nodes/no-restricted-imports
	-- Test code, run by Jest in Node.js: n8n's rules for the code that n8n loads do not apply
	(CONTRIBUTING.md, "n8n's n8n-node tool"). */
// n8n-core starts an SSH-connection sweeper (a 60-second interval) the first time a node runs, and
// stops it only on process exit; stopping it here lets the test process end by itself.
import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

afterAll(() => Container.get(SSHClientsManager).onShutdown());
