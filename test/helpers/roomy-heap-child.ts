// A command that asks for a roomy heap (src/cli/roomy-heap.ts), then says which heap flag it runs
// with and exits with the code it was given: test/search/rebuild.test.ts runs it.
import { inRoomyHeap } from '../../src/cli/roomy-heap.ts';

await inRoomyHeap();
process.stdout.write(JSON.stringify(process.execArgv.filter((arg) => arg.startsWith('--max-semi-space-size'))));
process.exit(Number(process.argv[2]));
