// Hold expiry on a schedule inside each server process. Several processes may run it at once:
// each hold is expired in its own transaction, re-checked under its locks (src/holds/service.ts),
// so none is expired twice and no item is passed on twice.
import type { FastifyBaseLogger } from 'fastify';
import { Periodic } from '../operations/periodic.ts';
import type { ServiceState } from '../operations/state.ts';
import type { HoldService } from './service.ts';

export function holdExpiry(holds: HoldService, state: ServiceState, log: FastifyBaseLogger, intervalMs: number): Periodic {
  return new Periodic('hold expiry', state, log, intervalMs, async () => {
    const result = await holds.expire();
    if (result.unfilled || result.uncollected) log.info(result, 'holds expired');
  });
}
