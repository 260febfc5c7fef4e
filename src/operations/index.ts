// Operating the service: its health from outside, migrations, the maintenance switch.
import type { Domain } from '../domain.ts';
import { operationCommands } from './commands.ts';

export const operations: Domain = { name: 'operations', commands: operationCommands };
