// What the benchmarks share: child processes started and stopped as a deployment would, their
// peak memory, and databases beside the one given.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

/** The URL of another database on the same server as adminUrl. */
export function dbUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Starts a node process whose output goes to logFile, as a deployed server's log would, and waits for `ready` in it. */
export async function startChild(command: string[], env: Record<string, string>, ready: RegExp, logFile: string): Promise<ChildProcess> {
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const fd = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, command, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  const deadline = Date.now() + 60_000;
  while (!ready.test(fs.readFileSync(logFile, 'utf8'))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${command.join(' ')} did not start:\n${fs.readFileSync(logFile, 'utf8')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}

/** A process's peak resident memory (VmHWM) in MB; 0 once it has exited. */
export function peakRssMb(pid: number): number {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGINT');
  await exited;
}

/** CPU time (ms) a process has used so far; 0 when it cannot be read (gone, or on another machine). */
export function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, in clock ticks of 10 ms
  } catch {
    return 0;
  }
}
