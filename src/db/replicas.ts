// PostgreSQL streaming replicas (DATABASE_READ_URLS) and which of them may serve reads now. Four
// times a second each process reads the primary's WAL position and each replica's replayed
// position. A replica's lag is how long ago the primary first wrote past what the replica has
// replayed (0 while it has replayed everything the primary had written); past maxLagMs, or when it
// cannot be reached, it is out of rotation until a check finds it well again.
import { describeDbError } from './errors.ts';
import type { Db, Queryable } from './types.ts';

/** A WAL position as PostgreSQL writes it ('16/B374D848'), as a number that compares. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/**
 * The primary's WAL position flushed to its disk: every write committed so far is before it (each
 * commits with its WAL flushed: none is committed asynchronously but the change clock's horizon,
 * which no reader waits for). A replica is sent only flushed WAL, so a position past it (the WAL
 * inserted but not yet flushed) could keep a reader waiting for the WAL writer, up to 200 ms.
 */
export async function walPosition(db: Queryable): Promise<bigint> {
  const [row] = await db.query<{ lsn: string }>('select pg_current_wal_flush_lsn()::text as lsn');
  return parseLsn(row!.lsn);
}

export interface ReplicaState {
  /** The replica's URL without its password. */
  name: string;
  inRotation: boolean;
  /** null until first checked, and while it cannot be reached. */
  lagMs: number | null;
  /** Why it is out of rotation. */
  reason?: string;
}

interface Replica {
  name: string;
  db: Db;
  replayed: bigint | undefined;
  lagMs: number | null;
  inRotation: boolean;
  reason: string | undefined;
  /** A question to it still unanswered: a replica that hangs is not asked again until it answers. */
  waiting: boolean;
}

export interface ReplicaSetOptions {
  maxLagMs: number;
  /** Between checks (default 250 ms: a replica gone bad is out within a second). */
  checkEveryMs?: number;
  /** A check that takes longer counts as a failure. */
  checkTimeoutMs?: number;
  /** Told when a replica goes out of rotation or comes back. */
  onChange?: (state: ReplicaState) => void;
}

const CHECK_EVERY_MS = 250;
/** How many times chooseReplayed asks a replica that keeps up whether it has replayed a position yet. */
const REPLAY_ASKS = 5;
const CHECK_TIMEOUT_MS = 1000;

/** The URL as it may be logged: no password. */
export function safeName(url: string): string {
  if (!URL.canParse(url)) return '(a replica)';
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export class ReplicaSet {
  private readonly replicas: Replica[];
  /** The primary's WAL positions at each check, oldest first, kept for a little longer than maxLagMs. */
  private readonly written: { at: number; lsn: bigint }[] = [];
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private checking: Promise<void> | undefined;
  private stopped = false;
  /** When the first check read the primary's position: before it, nothing is known of a replica's lag. */
  private firstAt: number | undefined;
  private readonly checkEveryMs: number;
  private readonly checkTimeoutMs: number;

  constructor(
    private readonly primary: Db,
    replicas: { url: string; db: Db }[],
    private readonly options: ReplicaSetOptions,
  ) {
    this.replicas = replicas.map(({ url, db }) => ({
      name: safeName(url),
      db,
      replayed: undefined,
      lagMs: null,
      inRotation: false,
      reason: 'not checked yet',
      waiting: false,
    }));
    this.checkEveryMs = options.checkEveryMs ?? CHECK_EVERY_MS;
    this.checkTimeoutMs = options.checkTimeoutMs ?? CHECK_TIMEOUT_MS;
  }

  /** Checks every replica once, then keeps checking until stop(). */
  async start(): Promise<void> {
    await this.check();
    const loop = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        this.checking = this.check().finally(loop);
      }, this.checkEveryMs);
      this.timer.unref();
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.checking;
    await Promise.all(this.replicas.map((replica) => replica.db.close()));
  }

  states(): ReplicaState[] {
    return this.replicas.map((r) => ({ name: r.name, inRotation: r.inRotation, lagMs: r.lagMs, ...(r.reason && { reason: r.reason }) }));
  }

  /**
   * A replica in rotation that has replayed at least `after` (a client's last write), taking turns
   * among them; undefined when none has: the read goes to the primary.
   */
  choose(after?: bigint): Db | undefined {
    const count = this.replicas.length;
    for (let i = 0; i < count; i++) {
      const replica = this.replicas[(this.next + i) % count]!;
      if (!replica.inRotation || (after !== undefined && (replica.replayed === undefined || replica.replayed < after))) continue;
      this.next = (this.next + i + 1) % count;
      return replica.db;
    }
    return undefined;
  }

  /**
   * choose(), and when no replica had replayed `after` at its last check, asks those in rotation
   * where they are now; while one of them was keeping up at its last check (no lag), asks again a
   * few times a millisecond apart (a write of a moment ago reaches a replica that keeps up within a
   * millisecond or two). Undefined when none has replayed it by then: the read goes to the primary.
   */
  async chooseReplayed(after: bigint): Promise<Db | undefined> {
    const chosen = this.choose(after);
    if (chosen || after === 0n) return chosen;
    for (let ask = 0; ask < REPLAY_ASKS; ask++) {
      if (ask > 0) await new Promise((resolve) => setTimeout(resolve, 1));
      const asked = this.replicas.filter((replica) => replica.inRotation);
      await Promise.all(
        asked.map(async (replica) => {
          const lsn = await this.replayedBy(replica).catch(() => undefined);
          if (lsn !== undefined && (replica.replayed === undefined || lsn > replica.replayed)) replica.replayed = lsn;
        }),
      );
      const now = this.choose(after);
      if (now || !asked.some((replica) => replica.lagMs === 0)) return now;
    }
    return undefined;
  }

  /** A read on this replica failed for want of a connection: out until a check finds it well. */
  failed(db: Db, error: unknown): void {
    const replica = this.replicas.find((r) => r.db === db);
    if (replica) this.set(replica, false, null, `a read failed: ${describeDbError(error)}`);
  }

  private set(replica: Replica, inRotation: boolean, lagMs: number | null, reason: string | undefined): void {
    const changed = replica.inRotation !== inRotation;
    replica.inRotation = inRotation;
    replica.lagMs = lagMs;
    replica.reason = reason;
    if (changed) this.options.onChange?.({ name: replica.name, inRotation, lagMs, ...(reason && { reason }) });
  }

  private async check(): Promise<void> {
    const now = performance.now();
    let written: bigint;
    try {
      written = await withTimeout(walPosition(this.primary), this.checkTimeoutMs);
    } catch {
      // Without the primary's position no lag can be told: the replicas stay as they were.
      return;
    }
    this.firstAt ??= now;
    this.written.push({ at: now, lsn: written });
    const keepFrom = now - this.options.maxLagMs - 2 * this.checkEveryMs - this.checkTimeoutMs;
    while (this.written.length > 1 && this.written[0]!.at < keepFrom) this.written.shift();
    await Promise.all(this.replicas.map((replica) => this.checkOne(replica, now)));
  }

  /** Asks the replica, unless a question to it is still unanswered (a time-out does not end a statement). */
  private async ask<T extends Record<string, unknown>>(replica: Replica, text: string): Promise<T | undefined> {
    if (replica.waiting) throw new Error('an earlier question to it is still unanswered');
    replica.waiting = true;
    const asked = replica.db.query<T>(text).finally(() => (replica.waiting = false));
    asked.catch(() => {}); // its failure is the caller's, when it still waits for it
    return (await withTimeout(asked, this.checkTimeoutMs))[0];
  }

  /** How far the replica has replayed; undefined when it is no replica. */
  private async replayedBy(replica: Replica): Promise<bigint | undefined> {
    const row = await this.ask<{ lsn: string | null }>(replica, 'select pg_last_wal_replay_lsn()::text as lsn');
    return row?.lsn ? parseLsn(row.lsn) : undefined;
  }

  /**
   * How long ago the last transaction the replica replayed was committed on the primary (by the
   * replica's clock): for a replica found behind at a process's first check, whose lag the
   * primary's positions cannot tell yet. Too high when the primary had been idle before its latest
   * write (the replica is then left out until the next check); Infinity when it cannot tell.
   */
  private async replayAgeMs(replica: Replica): Promise<number> {
    const row = await this.ask<{ ms: number | null }>(
      replica,
      'select (extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000)::float8 as ms',
    ).catch(() => undefined);
    return row?.ms ?? Infinity;
  }

  private async checkOne(replica: Replica, now: number): Promise<void> {
    let replayed: bigint | undefined;
    try {
      replayed = await this.replayedBy(replica);
      if (replayed === undefined) return this.set(replica, false, null, 'it is not a streaming replica (pg_last_wal_replay_lsn() is null)');
    } catch (error) {
      return this.set(replica, false, null, `it cannot be reached: ${describeDbError(error)}`);
    }
    replica.replayed = replayed;
    // The first position the primary had written that the replica has not replayed, and when.
    const behind = this.written.find((sample) => sample.lsn > replayed);
    // Behind since before this process's first check: how long, only the replica can say.
    const sinceFirst = behind !== undefined && behind.at === this.firstAt;
    const lagMs = !behind ? 0 : sinceFirst ? Math.round(await this.replayAgeMs(replica)) : Math.round(now - behind.at);
    if (!Number.isFinite(lagMs)) return this.set(replica, false, null, 'it is behind the primary, and how far it cannot tell');
    if (lagMs > this.options.maxLagMs) return this.set(replica, false, lagMs, `it lags ${lagMs} ms behind the primary`);
    this.set(replica, true, lagMs, undefined);
  }
}
