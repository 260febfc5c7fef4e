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
  durationNs: bigint;
  version?: string;
  failure?: string;
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
        (version): DbCheck => ({ startedNs, durationNs: process.hrtime.bigint() - startedNs, version }),
        (error: unknown): DbCheck => ({ startedNs, durationNs: process.hrtime.bigint() - startedNs, failure: describeDbError(error) }),
      )
      .finally(() => clearTimeout(timer));
  }

  private checkDatabase(): Promise<DbCheck> {
    if (this.lastHealthy && performance.now() - this.lastHealthy.completedMs <= this.maxAgeMs) {
      return Promise.resolve(this.lastHealthy.check);
    }
    this.inflight ??= this.runCheck().then((check) => {
      this.lastHealthy = check.failure ? undefined : { check, completedMs: performance.now() };
      this.inflight = undefined;
      return check;
    });
    return this.inflight;
  }

  async report(): Promise<HealthReport> {
    const requestNs = process.hrtime.bigint();
    const check = await this.checkDatabase();

    const apiStart = process.hrtime.bigint();
    const api: HealthEntry = {
      data: { [SERVICE_NAME]: { version: VERSION_STRING, ...VERSION } },
      duration: '',
      status: 'Healthy',
      tags: [],
    };
    api.duration = formatTimeSpan(process.hrtime.bigint() - apiStart);

    const database: HealthEntry = check.failure
      ? {
          data: {},
          duration: formatTimeSpan(check.durationNs),
          status: 'Unhealthy',
          tags: [],
          description: check.failure,
          exception: check.failure,
        }
      : { data: { Database: { version: check.version } }, duration: formatTimeSpan(check.durationNs), status: 'Healthy', tags: [] };

    // A shared check may have started before this request: the total covers it from its start.
    const since = check.startedNs < requestNs ? check.startedNs : requestNs;
    return {
      status: check.failure ? 'Unhealthy' : 'Healthy',
      totalDuration: formatTimeSpan(process.hrtime.bigint() - since),
      entries: { API: api, DatabaseServer: database },
    };
  }
}
