// SQL logins (`carrel sql users …`): user names and passwords that psql, Metabase or a script
// connect with to read the sierra_view views, and nothing else of Carrel's. Each is a PostgreSQL
// role (on the embedded engine too, inside it); the password is shown once and kept only as the
// role's SCRAM verifier.
import crypto from 'node:crypto';
import type { Config } from '../config.ts';
import type { Db } from '../db/types.ts';
import { fail } from '../shared/errors.ts';
import { scramVerifier } from '../shared/scram.ts';
import * as repo from './roles-repository.ts';

export interface NewLogin {
  user: string;
  password: string;
  /** A postgres:// URL to connect with: Carrel's SQL port when set, else PostgreSQL's; null on the embedded engine with the port off. */
  url: string | null;
}

export interface Login {
  user: string;
  created: string | null;
  /** Sessions connected now. */
  sessions: number;
}

// Lower-case, so that a client need not quote it; not PostgreSQL's own (pg_…) nor Carrel's.
const NAME = /^[a-z][a-z0-9_]{0,62}$/;
const CONNECTION_LIMIT = 10;

export class SqlLoginService {
  constructor(
    private readonly db: Db,
    private readonly config: { databaseUrl: Config['databaseUrl']; sql: Pick<Config['sql'], 'statementTimeoutMs' | 'port' | 'host'> },
  ) {}

  async create(user: string): Promise<NewLogin> {
    if (!NAME.test(user) || user.startsWith('pg_') || user.startsWith('carrel_'))
      throw fail.invalidInput(
        `a SQL login's name is a lower-case letter, then up to 62 lower-case letters, digits or underscores, not starting with pg_ or carrel_; got ${JSON.stringify(user)}`,
      );
    const password = crypto.randomBytes(18).toString('base64url');
    const created = new Date().toISOString();
    await this.db.transaction(async (tx) => {
      if (await repo.roleExists(tx, user))
        throw fail.conflict(0, `the database server already has a role named ${user}: choose another name`);
      await repo.createLogin(
        tx,
        user,
        scramVerifier(password),
        { statementTimeoutMs: this.config.sql.statementTimeoutMs, connectionLimit: CONNECTION_LIMIT },
        created,
      );
    });
    return { user, password, url: this.url(user, password) };
  }

  async list(): Promise<Login[]> {
    const rows = await this.db.transaction((tx) => repo.listLogins(tx));
    return rows.map((row) => ({
      user: row.name,
      created: /created (\S+)$/.exec(row.comment ?? '')?.[1] ?? null,
      sessions: row.sessions,
    }));
  }

  async revoke(user: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const logins = await repo.listLogins(tx);
      if (!logins.some((login) => login.name === user)) throw fail.notFound(`no SQL login is named ${JSON.stringify(user)}`);
      await repo.dropLogin(tx, user);
    });
  }

  /** A login's stored SCRAM verifier, for the wire door; undefined when there is no such login. */
  verifier(user: string): Promise<string | undefined> {
    return this.db.transaction((tx) => repo.loginVerifier(tx, user));
  }

  /** What the embedded server reports itself as to a wire client. */
  serverParameters(): Promise<Record<string, string>> {
    return this.db.transaction((tx) => repo.serverParameters(tx));
  }

  /** The settings Carrel has set on its own session (the embedded engine's search path), by name. */
  sessionSettings(): Promise<[string, string][]> {
    return this.db.transaction((tx) => repo.sessionSettings(tx));
  }

  /** Cancels logins' statements that outran the time-out; answers how many. */
  async cancelOverdue(): Promise<number> {
    return this.db.transaction((tx) => repo.cancelOverdue(tx, this.config.sql.statementTimeoutMs));
  }

  /** Ends logins' sessions in other databases of the cluster (a login connects to its own only); answers how many. */
  async endSessionsElsewhere(): Promise<number> {
    return this.db.transaction((tx) => repo.endSessionsElsewhere(tx));
  }

  private url(user: string, password: string): string | null {
    const { databaseUrl, sql } = this.config;
    // Carrel's own door where it serves one (the row cap holds there); else PostgreSQL itself.
    if (sql.port !== null) return `postgres://${user}:${password}@${sql.host}:${sql.port}/carrel`;
    if (databaseUrl) {
      const url = new URL(databaseUrl);
      url.username = user;
      url.password = password;
      return url.toString();
    }
    return null;
  }
}
