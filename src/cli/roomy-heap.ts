// Commands that build millions of short-lived objects run in a process with a larger young
// generation: V8's default semi-spaces (16 MB) fill so fast that most of that garbage survives
// into the old generation, whose collections then mark a heap that also holds millions of live
// keys. A rebuild's CPU profile at 100,000 bibs: 8.9 s of 26 s in the collector, 6.2 s with 64 MB.
// The old generation may grow to 1.5 times what a collection left live, where V8 by default lets a
// heap that allocates fast grow to several times it: a rebuild of 1,000,000 bibs whose live heap
// stays under 400 MB peaked at 1.2 GB resident (1.5: see bench/HISTORY.md).
import { spawn } from 'node:child_process';

const FLAG = '--max-semi-space-size';

/**
 * Runs this command again in a child process started with a 64 MB semi-space (and the old
 * generation's growth held to 1.5 times its live size) and exits as it
 * does, unless this process has the flag already (it is that child, or was started with its own
 * size, on the command line or in NODE_OPTIONS): then it returns and the command runs here.
 */
export async function inRoomyHeap(): Promise<void> {
  if ([...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) => arg.startsWith(FLAG))) return;
  // A debugger's flags stay with this process: the child would wait for one, or take its port.
  const inherited = process.execArgv.filter((arg) => !arg.startsWith('--inspect'));
  const child = spawn(process.execPath, [`${FLAG}=64`, '--heap-growing-percent=50', ...inherited, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  // Signals go to the child, which decides how to stop; this process waits for it. (A Ctrl-C from
  // the terminal reaches both, so the child may get it twice: it stops either way.)
  const forward = (signal: NodeJS.Signals) => () => void child.kill(signal);
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const handlers = signals.map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  });
  for (const [s, handler] of handlers) process.off(s, handler);
  // Ended by a signal: end the same way, so the shell sees 128 + its number.
  if (signal) process.kill(process.pid, signal);
  process.exit(code ?? 1);
}
