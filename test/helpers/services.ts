// Every domain's services on a database, built as the app and the CLI build them, for tests that
// call a service directly (a second pool of writers, a process of their own).
import { DOMAINS } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/db/types.ts';
import { buildDeps, type Services } from '../../src/domain.ts';
import { systemClock } from '../../src/shared/calendar.ts';

export function servicesOn(db: Db): Services {
  return buildDeps({ config: loadConfig({}), db, reads: db, clock: systemClock }, DOMAINS).services;
}
