// Circulation writes beside itself (migration 0040, circulationStamp): check-outs, check-ins and
// renewals take the writers' turn shared, so they no longer wait for each other; every other
// writer still waits for them, and while an import runs they take turns with its batches. Read
// off PostgreSQL's lock table from separate sessions (the embedded engine has one session: there
// everything takes turns anyway). Then many kiosks' check-outs and check-ins at once, each loan
// made exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { LOCK_KEYS } from '../../src/db/lock-keys.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, addPatrons, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';

/** A promise and the function that settles it (Promise.withResolvers, which Node 20 lacks). */
function latch(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** An advisory key as pg_locks shows it: its high and low 32 bits. */
const halves = (key: number) => ({ classid: Math.floor(key / 2 ** 32), objid: key % 2 ** 32 });

/** The mode a session holds an advisory lock in. */
async function modeOf(admin: postgres.Sql, pid: number, key: number): Promise<string | undefined> {
  const { classid, objid } = halves(key);
  const [row] = await admin<{ mode: string }[]>`select mode from pg_locks where locktype = 'advisory' and pid = ${pid}
    and classid = ${classid} and objid = ${objid} and granted`;
  return row?.mode;
}

/**
 * A circulation writer holding the writers' turn on `session` until release() (which answers once
 * its transaction has ended). Were it made to wait, lock_timeout would refuse it.
 */
async function holdTurn(session: postgres.Sql): Promise<{ release: () => Promise<void> }> {
  const held = latch();
  const released = latch();
  const ended = session.begin(async (tx) => {
    await tx`set local lock_timeout = '20s'`;
    await tx`select change_clock_stamp_circulation()`;
    held.resolve();
    await released.promise;
  });
  await Promise.race([held.promise, ended]);
  return {
    release: async () => {
      released.resolve();
      await ended;
    },
  };
}

describe(`circulation writing beside itself on ${ENGINE}`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
  });
  after(() => t.close());

  it('takes the writers’ turn shared (Carrel’s check-out and check-in too), keeps other writers waiting, and takes turns while an import runs', async (ctx) => {
    if (!t.testDb.url) return ctx.skip('one session on the embedded engine');
    const session = () => postgres(t.testDb.url!, { max: 1, onnotice: () => {} });
    const [a, b, other, importer, admin] = [session(), session(), session(), session(), session()];
    try {
      const pid = async (s: postgres.Sql) => (await s<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!.pid;
      const [pidA, pidB] = [await pid(a), await pid(b)];
      const first = await holdTurn(a);
      const second = await holdTurn(b); // let in at once, beside the first
      assert.equal(await modeOf(admin, pidA, LOCK_KEYS.writes), 'ShareLock');
      assert.equal(await modeOf(admin, pidB, LOCK_KEYS.writes), 'ShareLock');
      // Any other writer waits for them; an import cannot start while they write.
      await assert.rejects(
        other.begin(async (tx) => {
          await tx`set local lock_timeout = '100ms'`;
          await tx`select change_clock_stamp(false)`;
        }),
        (error: { code?: string }) => error.code === '55P03',
      );
      const importStarts = async () =>
        (await importer<{ got: boolean }[]>`select pg_try_advisory_lock(${LOCK_KEYS.import}) as got`)[0]!.got;
      assert.equal(await importStarts(), false);
      // Carrel's own check-out and check-in go ahead beside them: nobody is ever seen waiting for the turn.
      const patron = (await addPatrons(t.testDb.db, 1))[0]!;
      const item = await addItem(t.testDb.db, await addBib(t.testDb.db, 'Beside'), 'mn', '-', 'BESIDE-X');
      for (const write of [() => t.services.circulation.checkout(patron, { itemId: item }), () => t.services.circulation.checkin(item)]) {
        const done = write().then(() => 'done' as const);
        let outcome: 'done' | 'waited' | undefined;
        while (!outcome) {
          const [waiting] = await admin<{ n: number }[]>`select count(*)::int as n from pg_locks where locktype = 'advisory'
            and database = (select oid from pg_database where datname = current_database())
            and classid = ${halves(LOCK_KEYS.writes).classid} and objid = ${halves(LOCK_KEYS.writes).objid} and not granted`;
          if (waiting!.n > 0) outcome = 'waited';
          else outcome = await Promise.race([done, new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined)))]);
        }
        if (outcome === 'waited') await Promise.all([first.release(), second.release()]); // let it finish, then fail
        await done;
        assert.equal(outcome, 'done', 'a circulation write waited for the writers’ turn');
      }
      await Promise.all([first.release(), second.release()]);

      // An import runs (it holds its lock for the run): circulation takes the turn alone, as before.
      assert.equal(await importStarts(), true);
      const third = await holdTurn(a);
      assert.equal(await modeOf(admin, pidA, LOCK_KEYS.writes), 'ExclusiveLock');
      await third.release();
      await importer`select pg_advisory_unlock(${LOCK_KEYS.import})`;
    } finally {
      // Closed without waiting: a failed assertion can leave a held turn open.
      await Promise.all([a, b, other, importer, admin].map((s) => s.end({ timeout: 0 })));
    }
  });

  it('lends and takes back forty copies at once, each exactly once', async () => {
    const patrons = await addPatrons(t.testDb.db, 20);
    const bib = await addBib(t.testDb.db, 'Forty copies');
    const items = await Promise.all(Array.from({ length: 40 }, (_, i) => addItem(t.testDb.db, bib, 'mn', '-', `BESIDE-${i}`)));
    const circulation = t.services.circulation;
    // Each copy asked for by two patrons at once: one loan each, the other refused.
    const tries = await Promise.allSettled(
      items.flatMap((item, i) => [
        circulation.checkout(patrons[i % 20]!, { itemId: item }),
        circulation.checkout(patrons[(i + 1) % 20]!, { itemId: item }),
      ]),
    );
    assert.equal(tries.filter((r) => r.status === 'fulfilled').length, 40);
    const onLoan = async () =>
      (
        await t.testDb.db.query<{ n: number }>(
          'select count(*)::int as n from checkouts where returned_date is null and item_id = any($1::bigint[])',
          [items],
        )
      )[0]!.n;
    assert.equal(await onLoan(), 40);
    const back = await Promise.all(items.map((item) => circulation.checkin(item)));
    assert.ok(back.every((r) => r.status === '-'));
    assert.equal(await onLoan(), 0);
  });
});
