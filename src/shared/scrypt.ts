// Every scrypt of the process goes through here (patrons' PINs, API key secrets, SIP2 passwords),
// so that checks of secrets arriving faster than the cores can hash them wait in one bounded
// line instead of piling up without end on libuv's thread pool: a flood of unknown API keys or
// SIP2 logins would otherwise delay every other check, and everything else the pool does, by
// seconds. A few run at once; the rest wait their turn, up to a bounded amount of work; past it a
// check is refused at once (ScryptBusy, a 429 in REST, a refusal in SIP2), never queued.
import crypto from 'node:crypto';
import os from 'node:os';
import { DomainError } from './errors.ts';

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

/** Hashes at once: the cores, at most libuv's default pool of four threads (file and DNS work needs the pool too). */
const CONCURRENCY = Math.max(1, Math.min(os.availableParallelism(), 4));
/** Work of one PIN check (N=2^12, r=8: about 7 ms of a core); an API key's secret (N=2^14) is four. */
const UNIT = 4096 * 8;
/**
 * Work allowed to wait, in PIN checks: 64 per hash running at once, so the last in line waits
 * about half a second (64 × 7 ms; 16 key checks × 30 ms), and fifty kiosks logging in again
 * together after a restart (four units each) still fit on two cores.
 */
const QUEUE_UNITS = 64 * CONCURRENCY;
const RETRY_SEC = 1;

/** Refused at once: too much scrypt work is already waiting. */
export class ScryptBusy extends DomainError {
  constructor() {
    super('tooManyAttempts', `the server is checking too many passwords and PINs at once; try again in ${RETRY_SEC} s`, 0, RETRY_SEC);
  }
}

interface Waiting {
  units: number;
  start: () => void;
}

let running = 0;
let waitingUnits = 0;
const line: Waiting[] = [];
const counts = { refused: 0, peakWaitingUnits: 0 };

const unitsOf = (o: ScryptParams) => Math.min(QUEUE_UNITS, Math.max(1, Math.ceil((o.N * o.r * o.p) / UNIT)));

function refuse(): never {
  counts.refused++;
  throw new ScryptBusy();
}

function next(): void {
  running--;
  const first = line.shift();
  if (first) {
    waitingUnits -= first.units;
    running++;
    first.start();
  }
}

function hash(password: crypto.BinaryLike, salt: crypto.BinaryLike, keylen: number, o: ScryptParams): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    try {
      crypto.scrypt(password, salt, keylen, o, (error, key) => {
        next();
        if (error) reject(error);
        else resolve(key);
      });
    } catch (error) {
      // Parameters scrypt refuses (a stored hash that cannot be one of ours) throw before it starts.
      next();
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/** crypto.scrypt within the process's bound: run now, or wait in line, or ScryptBusy at once. */
export function scrypt(password: crypto.BinaryLike, salt: crypto.BinaryLike, keylen: number, o: ScryptParams): Promise<Buffer> {
  if (running < CONCURRENCY) {
    running++;
    return hash(password, salt, keylen, o);
  }
  const units = unitsOf(o);
  if (waitingUnits + units > QUEUE_UNITS) refuse();
  waitingUnits += units;
  counts.peakWaitingUnits = Math.max(counts.peakWaitingUnits, waitingUnits);
  return new Promise<void>((start) => line.push({ units, start })).then(() => hash(password, salt, keylen, o));
}

/**
 * Throws ScryptBusy (counted as a refusal) when not even a PIN check could wait now: callers ask
 * before the database work that precedes their hash, so a flood is turned away for nothing.
 */
export function refuseIfScryptFull(): void {
  if (running >= CONCURRENCY && waitingUnits + 1 > QUEUE_UNITS) refuse();
}

/** The bound and what it has done (the tests and the soak test read it). */
export function scryptCounts(): {
  concurrency: number;
  queueUnits: number;
  running: number;
  waitingUnits: number;
  peakWaitingUnits: number;
  refused: number;
} {
  return { concurrency: CONCURRENCY, queueUnits: QUEUE_UNITS, running, waitingUnits, ...counts };
}
