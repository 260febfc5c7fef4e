// The synthetic catalogue for benchmarks and trials: `carrel generate`.
import type { Domain } from '../domain.ts';
import { generateCommands } from './commands.ts';

export const generate: Domain = { name: 'generate', commands: generateCommands };
