// Hold expiry on a schedule inside each server process. Several processes may run it at once:
// each hold is expired in its own transaction, re-checked under its locks (src/holds/service.ts),
// so none is expired twice and no item is passed on twice.
import type { FastifyBaseLogger } from 'fastify';
import { describeDbError } from '../db/errors.ts';
import { loggable } from '../http/error-handler.ts';
import type { ServiceState } from '../operations/state.ts';
import type { HoldService } from './service.ts';

export class HoldExpiry {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly holds: HoldService, private readonly state: ServiceState, private readonly log: FastifyBaseLogger, private readonly intervalMs: number) {}

  /** One pass; concurrent callers share it. */
  tick(): Promise<void> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    if (!this.state.schemaReady || this.state.notRunningReason()) return;
    try {
      const result = await this.holds.expire();
      if (result.unfilled || result.uncollected) this.log.info(result, 'holds expired');
    } catch (error) {
      this.log.error({ err: loggable(error) }, `hold expiry failed: ${describeDbError(error)}`);
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
