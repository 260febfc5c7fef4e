// A Python script run as a child process by a test's helper (ftplib, zeep): its exit code,
// standard error, and the JSON lines it printed.
import { execFile } from 'node:child_process';

export interface PyRun {
  code: number;
  stderr: string;
  /** Each JSON line the script printed with out(). */
  lines: Record<string, unknown>[];
}

/** Runs a Python script with one argument; never throws on the script's failure. */
export function runPython(python: string, script: string, arg: string, timeoutMs: number): Promise<PyRun> {
  return new Promise((resolve) => {
    execFile(python, ['-c', script, arg], { timeout: timeoutMs }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0;
      const lines = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      resolve({ code, stderr, lines });
    });
  });
}
