// `npm run build`: src/ to plain JavaScript in dist/ for `npm start`. Running compiled code,
// rather than transpiling TypeScript at start-up, saves the server tens of MB of memory.
// esbuild takes well under a second, so `npm start` builds every time and never runs stale code.
import { bundle } from './bundle.mjs';

await bundle('dist');
