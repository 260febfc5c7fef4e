// Each client's last write, as the primary's flushed WAL position just after it committed (see
// walPosition in replicas.ts): a replica serves that client's reads only once it has replayed that
// far (read-routing.ts). The table is unlogged (not replicated, not kept through a crash): only the
// primary reads it, and after a crash every replica must catch up with the primary's restart anyway.
import { parseLsn } from './replicas.ts';
import type { Queryable } from './types.ts';

export class ReadMarks {
  /** @param primary the primary itself, outside any request's transaction (the write has committed) */
  constructor(private readonly primary: Queryable) {}

  async record(client: string): Promise<void> {
    await this.primary.query(
      `insert into read_marks (client, lsn, written_at) values ($1, pg_current_wal_flush_lsn(), now())
       on conflict (client) do update set lsn = excluded.lsn, written_at = excluded.written_at`,
      [client],
    );
  }

  async lastWrite(client: string): Promise<bigint | undefined> {
    const [row] = await this.primary.query<{ lsn: string }>('select lsn::text as lsn from read_marks where client = $1', [client]);
    return row ? parseLsn(row.lsn) : undefined;
  }

  /** Forgets writes older than this: every replica in rotation has replayed them long since. */
  async forgetOlderThan(seconds: number): Promise<void> {
    await this.primary.query('delete from read_marks where written_at < now() - make_interval(secs => $1)', [seconds]);
  }
}
