// One process owns an embedded (PGlite) data directory at a time: two writers would corrupt it.
// The owner records its pid, and (when it is the server) a socket where other processes - the CLI -
// can reach the same database with the PostgreSQL protocol while the server runs.
import fs from 'node:fs';
import path from 'node:path';

export interface LockInfo {
  pid: number;
  /** Unix socket path of the running server's database, absent when the owner is not serving. */
  socket?: string;
}

export function lockPath(dataDir: string): string {
  return path.join(dataDir, 'carrel.lock');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live owner of the directory, if any; a lock left by a dead process is removed. */
export function readLock(dataDir: string): LockInfo | undefined {
  let info: LockInfo;
  try {
    info = JSON.parse(fs.readFileSync(lockPath(dataDir), 'utf8')) as LockInfo;
  } catch {
    return undefined;
  }
  if (info.pid !== process.pid && !alive(info.pid)) {
    fs.rmSync(lockPath(dataDir), { force: true });
    return undefined;
  }
  return info;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockInfo,
  ) {
    super(`the embedded database in ${dataDir} is in use by process ${owner.pid}`);
  }
}

/** Takes the directory for this process, or throws DataDirBusyError naming the owner. */
export function acquireLock(dataDir: string, socket?: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockPath(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: process.pid, socket } satisfies LockInfo), { flag: 'wx' });
      return () => {
        if (readLock(dataDir)?.pid === process.pid) fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readLock(dataDir); // removes a stale lock, then we try once more
      if (owner) throw new DataDirBusyError(dataDir, owner);
    }
  }
  throw new Error(`could not lock ${dataDir}`);
}
