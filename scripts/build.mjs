// `npm run build`: src/ to plain JavaScript in dist/ for `npm start`. Running compiled code,
// rather than transpiling TypeScript at start-up, saves the server tens of MB of memory.
// esbuild takes well under a second, so `npm start` builds every time and never runs stale code.
// Packages stay external; code splitting keeps the embedded engine's module a separate chunk,
// loaded only when the embedded engine is used.
import fs from 'node:fs';
import { build } from 'esbuild';

fs.rmSync('dist', { recursive: true, force: true });
await build({
  // Worker threads (the import's, the embedded engine's) are loaded by file name from beside the code that starts them (dist/).
  entryPoints: {
    server: 'src/server.ts',
    cli: 'src/cli.ts',
    'import-worker': 'src/bibs/import-worker.ts',
    'pglite-host': 'src/db/pglite-host.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
// migrate.ts finds its SQL beside the module that holds it: in dist/ that is dist/migrations.
fs.cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
