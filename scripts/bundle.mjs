// src/ bundled to plain JavaScript: the server, the `carrel` command and the worker threads they
// start. `npm run build` writes it to dist/ for `npm start`; the tests run `carrel` from a bundle of
// their own, which starts in a third of the time tsx takes to load the TypeScript.
// Packages stay external; code splitting keeps the embedded engine's module a separate chunk,
// loaded only when the embedded engine is used.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Writes the bundle to outdir, which must lie under the project (packages resolve from node_modules). */
export async function bundle(outdir) {
  outdir = path.resolve(ROOT, outdir);
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    // Worker threads (the import's, the embedded engine's) are loaded by file name from beside the code that starts them.
    entryPoints: {
      server: 'src/server.ts',
      cli: 'src/cli.ts',
      'import-worker': 'src/bibs/import-worker.ts',
      'pglite-host': 'src/db/pglite-host.ts',
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  // migrate.ts finds its SQL beside the module that holds it: in the bundle that is outdir/migrations.
  fs.cpSync(path.join(ROOT, 'src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
}
