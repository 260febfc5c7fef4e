// Keeps a server process in step with its database: migrates as soon as the database can be
// reached (at start-up, or later when it was down or refused the login), then re-reads the
// operator's maintenance switch every statePollMs. Safe with many processes: migrations take an
// advisory lock, and the switch lives in the database.
import type { FastifyBaseLogger } from 'fastify';
import { describeDbError } from '../db/errors.ts';
import { loggable } from '../shared/log.ts';
import { DatabaseTooNewError, migrate } from '../db/migrate.ts';
import type { Db } from '../db/types.ts';
import { readServiceState } from './repository.ts';
import type { ServiceState } from './state.ts';

export class Supervisor {
  private timer: NodeJS.Timeout | undefined;
  private lastError: string | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly state: ServiceState,
    private readonly log: FastifyBaseLogger,
    private readonly pollMs: number,
    /** A database migrated by a newer Carrel: this process must not serve it (server.ts exits). */
    private readonly onTooNew: (error: DatabaseTooNewError) => void = () => {},
    /** Once the schema is up to date: readies a new database (the starter profile). */
    private readonly afterMigrate: () => Promise<unknown> = async () => {},
  ) {}

  /** One pass; concurrent callers share it. */
  tick(): Promise<void> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    try {
      if (!this.state.schemaReady) {
        const applied = await migrate(this.db);
        await this.afterMigrate();
        this.state.schemaReady = true;
        this.log.info({ applied: applied.map((m) => `${m.version}_${m.name}`) }, 'database schema is up to date');
      }
      const { maintenance, importing } = await readServiceState(this.db);
      if (maintenance !== this.state.maintenance) {
        this.log.warn({ maintenance }, maintenance ? 'switched off for maintenance' : 'switched back on');
        this.state.maintenance = maintenance;
      }
      if (importing !== this.state.importing) {
        this.log.info(
          { importing },
          importing ? 'an import is running: search indexing waits for it' : 'no import running: search indexing goes on',
        );
        this.state.importing = importing;
      }
      if (this.lastError) this.log.info('database reachable again');
      this.lastError = undefined;
    } catch (error) {
      if (error instanceof DatabaseTooNewError) return this.onTooNew(error);
      const text = describeDbError(error);
      // Log each distinct failure once, not every poll.
      if (text !== this.lastError) this.log.error({ err: loggable(error) }, `database check failed: ${text}`);
      this.lastError = text;
    }
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
