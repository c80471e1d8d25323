// n8n-core starts an SSH-connection sweeper (a 60-second interval) the first time a node runs, and
// stops it only on process exit; stopping it here lets the test process end by itself.
import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

afterAll(() => Container.get(SSHClientsManager).onShutdown());
