#!/usr/bin/env node
// Entry of the `carrel` command: runs the TypeScript CLI through tsx so a checkout needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
