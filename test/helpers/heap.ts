// The test process's memory watched while a flood runs against a door served in this process: what
// is still held after a full garbage collection, sampled as the flood runs. The watch fails as soon
// as that grows past a bound, so a door that queues without limit is caught before it fills the
// machine, and a test need not wait for the flood to end. (Garbage not yet collected is not
// counted: a door answering a million messages makes a lot of it, and frees it.)
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

export interface HeapWatch {
  /** Rejects once the growth passes the bound; never settles otherwise. */
  exceeded: Promise<never>;
  /** Stops watching; answers the largest growth seen, in bytes. */
  stop(): number;
}

const held = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
};

export function watchHeap(boundBytes: number): HeapWatch {
  const start = held();
  let peak = 0;
  let fail: (error: Error) => void = () => undefined;
  const exceeded = new Promise<never>((_, reject) => (fail = reject));
  exceeded.catch(() => undefined); // awaited by the test when it races it
  const timer = setInterval(() => {
    peak = Math.max(peak, held() - start);
    if (peak > boundBytes) {
      clearInterval(timer);
      fail(new Error(`memory held grew by ${Math.round(peak / 2 ** 20)} MB, past ${Math.round(boundBytes / 2 ** 20)} MB`));
    }
  }, 50);
  return {
    exceeded,
    stop() {
      clearInterval(timer);
      return Math.max(peak, held() - start);
    },
  };
}
