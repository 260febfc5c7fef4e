// The health report of GET /api.
//
// Every answer reflects a real database round trip: one that succeeded at most maxAgeMs ago, or
// else one that finishes after the request arrived. Requests that arrive while a check is in
// flight share it (single flight), so a burst of N requests costs one query, not N, and a slow
// database is not buried under checks. Only successes are reused: after a failure every request
// checks again (still one at a time), so recovery shows at once. A check that has not answered
// within timeoutMs counts as failed. totalDuration runs from the start of the check an answer
// used, so it also tells how old that answer is.
import { describeDbError } from '../db/errors.ts';
import type { Db } from '../db/types.ts';
import { SERVICE_NAME, VERSION, VERSION_STRING } from '../version.ts';
import { readServerVersion } from './repository.ts';
import { formatTimeSpan } from './timespan.ts';

export type HealthStatus = 'Healthy' | 'Unhealthy';

export interface HealthEntry {
  data: Record<string, unknown>;
  duration: string;
  status: HealthStatus;
  tags: string[];
  description?: string;
  exception?: string;
}

export interface HealthReport {
  status: HealthStatus;
  totalDuration: string;
  entries: { API: HealthEntry; DatabaseServer: HealthEntry };
}

interface DbCheck {
  startedNs: bigint;
  /** The report's DatabaseServer entry, made once for every answer that uses this check. */
  entry: HealthEntry;
}

const API_DATA = { [SERVICE_NAME]: { version: VERSION_STRING, ...VERSION } };

function databaseEntry(durationNs: bigint, version: string | undefined, failure: string | undefined): HealthEntry {
  const duration = formatTimeSpan(durationNs);
  return failure === undefined
    ? { data: { Database: { version } }, duration, status: 'Healthy', tags: [] }
    : { data: {}, duration, status: 'Unhealthy', tags: [], description: failure, exception: failure };
}

export class HealthService {
  private inflight: Promise<DbCheck> | undefined;
  private lastHealthy: { check: DbCheck; completedMs: number } | undefined;

  constructor(
    private readonly db: Db,
    private readonly timeoutMs: number,
    private readonly maxAgeMs: number,
  ) {}

  private runCheck(): Promise<DbCheck> {
    const startedNs = process.hrtime.bigint();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the database did not answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    return Promise.race([readServerVersion(this.db), timeout])
      .then(
        (version): DbCheck => ({ startedNs, entry: databaseEntry(process.hrtime.bigint() - startedNs, version, undefined) }),
        (error: unknown): DbCheck => ({
          startedNs,
          entry: databaseEntry(process.hrtime.bigint() - startedNs, undefined, describeDbError(error)),
        }),
      )
      .finally(() => clearTimeout(timer));
  }

  /** The last successful check while it is fresh enough to answer with. */
  private freshCheck(): DbCheck | undefined {
    const last = this.lastHealthy;
    return last && performance.now() - last.completedMs <= this.maxAgeMs ? last.check : undefined;
  }

  private checkDatabase(): Promise<DbCheck> {
    const fresh = this.freshCheck();
    if (fresh) return Promise.resolve(fresh);
    this.inflight ??= this.runCheck().then((check) => {
      this.lastHealthy = check.entry.status === 'Unhealthy' ? undefined : { check, completedMs: performance.now() };
      this.inflight = undefined;
      return check;
    });
    return this.inflight;
  }

  async report(): Promise<HealthReport> {
    const requestNs = process.hrtime.bigint();
    return this.reportOf(await this.checkDatabase(), requestNs);
  }

  /**
   * The report at once when a fresh check can answer it, else undefined (then call report()).
   * GET /api answers from it with no promise: load balancers poll it many times a second.
   */
  reportIfFresh(): HealthReport | undefined {
    const requestNs = process.hrtime.bigint();
    const fresh = this.freshCheck();
    return fresh && this.reportOf(fresh, requestNs);
  }

  private reportOf(check: DbCheck, requestNs: bigint): HealthReport {
    const apiStart = process.hrtime.bigint();
    // Literals of one shape, the same data objects every time: JSON.stringify takes its fast path
    // (the status report is the one answer serialized without Fastify: quick-answers.ts).
    const api: HealthEntry = { data: API_DATA, duration: '', status: 'Healthy', tags: [] };
    api.duration = formatTimeSpan(process.hrtime.bigint() - apiStart);
    // A shared check may have started before this request: the total covers it from its start.
    const since = check.startedNs < requestNs ? check.startedNs : requestNs;
    return {
      status: check.entry.status,
      totalDuration: formatTimeSpan(process.hrtime.bigint() - since),
      entries: { API: api, DatabaseServer: check.entry },
    };
  }
}
