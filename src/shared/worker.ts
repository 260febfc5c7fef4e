// Starts a worker thread from a module beside the caller: built into dist/ as JavaScript, or as
// TypeScript in src/ (tests, `npm run carrel`). Node 20 does not run --import in workers, so there
// the worker registers tsx itself before loading the module.
import { Worker } from 'node:worker_threads';

/** The worker `name` (a module file name without its extension) beside the module at callerUrl. */
export function startWorker(callerUrl: string, name: string, workerData: unknown): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), { workerData });
  const module = JSON.stringify(new URL(`./${name}.ts`, callerUrl).href);
  // Resolved here: an eval'd worker resolves bare names from the working directory, which may be anywhere.
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(`import(${tsx}).then(({ register }) => { register(); return import(${module}); })`, { eval: true, workerData });
}
