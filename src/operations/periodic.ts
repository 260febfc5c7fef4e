// Work a server process does on a schedule (hold expiry, search indexing): one pass at a time,
// skipped while the database is not migrated or the service is switched off, failures logged and
// retried on the next tick. Safe with several processes only if the work itself is (each caller's
// work claims what it does in the database).
import type { FastifyBaseLogger } from 'fastify';
import { describeDbError } from '../db/errors.ts';
import { loggable } from '../shared/log.ts';
import type { ServiceState } from './state.ts';

export class Periodic {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly name: string,
    private readonly state: ServiceState,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs: number,
    private readonly work: () => Promise<void>,
  ) {}

  /** One pass; concurrent callers share it. */
  tick(): Promise<void> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    if (!this.state.schemaReady || this.state.notRunningReason()) return;
    try {
      await this.work();
    } catch (error) {
      this.log.error({ err: loggable(error) }, `${this.name} failed: ${describeDbError(error)}`);
    }
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
