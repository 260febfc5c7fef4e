// Check-out, check-in and renewal send statements together (db/together.ts), and the order they
// are sent in is the order they run in: so the row locks they take must be sent in the one order
// every path keeps (the change clock, then the bibs, the patron, the item, the loan, the holds), or
// two of them could deadlock. Each statement a transaction sends is recorded as it is sent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp, type BuiltApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Db, Queryable } from '../../src/db/types.ts';
import { FixedClock } from '../../src/shared/calendar.ts';
import { captureLogs } from '../helpers/app.ts';
import { addBib, addItem, addPatron, setUpLibrary } from '../helpers/circulation.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';

/** `db`, whose transactions add the text of each statement to `sent` when they send it. */
function recording(db: Db, sent: string[]): Db {
  const bound = (target: object, prop: string | symbol) => {
    const value: unknown = Reflect.get(target, prop);
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  };
  const recordingTx = (tx: Queryable): Queryable =>
    new Proxy(tx, {
      get: (target, prop) =>
        prop === 'query'
          ? (text: string, ...rest: unknown[]) => {
              sent.push(text);
              return (target.query as (...args: unknown[]) => unknown)(text, ...rest);
            }
          : bound(target, prop),
    });
  return new Proxy(db, {
    get: (target, prop) =>
      prop === 'transaction'
        ? <T>(fn: (tx: Queryable) => Promise<T>) => target.transaction((tx) => fn(recordingTx(tx)))
        : bound(target, prop),
  });
}

/** The table a statement locks rows of (its outermost FROM), or the change clock; undefined for any other statement. */
function lockOf(text: string): string | undefined {
  if (/change_clock_stamp/.test(text)) return 'clock';
  if (!/\bfor update\b/i.test(text)) return undefined;
  let outer = text;
  for (let inner = outer.replace(/\([^()]*\)/g, ''); inner !== outer; inner = outer.replace(/\([^()]*\)/g, '')) outer = inner;
  return /\bfrom\s+(\w+)/i.exec(outer)?.[1];
}

const ORDER = ['clock', 'bibs', 'patrons', 'items', 'checkouts', 'holds'];

/** The locks in the order sent, each table once per run of it; asserts they follow ORDER. */
function assertLockOrder(sent: string[], expected: string[]): void {
  const locks = sent.map(lockOf).filter((table): table is string => table !== undefined);
  const runs = locks.filter((table, i) => table !== locks[i - 1]);
  assert.deepEqual(runs, expected, `locks sent: ${locks.join(', ')}`);
  assert.deepEqual(
    [...runs].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)),
    runs,
  );
}

describe(`circulation's locks on ${ENGINE}`, () => {
  let testDb: TestDb;
  let built: BuiltApp;
  const sent: string[] = [];
  before(async () => {
    testDb = await createTestDb();
    await setUpLibrary(testDb.db);
    const { stream } = captureLogs();
    built = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'info' }),
      db: recording(testDb.db, sent),
      logStream: stream,
      clock: new FixedClock('2026-11-02'),
    });
    built.state.schemaReady = true;
  });
  after(async () => {
    await built?.app.close();
    await testDb?.drop();
  });

  it('are sent in the one order by a check-out that fills a hold, a renewal and a check-in that traps one', async () => {
    const { circulation, holds } = built.services;
    const bib = await addBib(testDb.db, 'Emma');
    const item = await addItem(testDb.db, bib, 'mn', '-', 'LOCK-1');
    const [reader, next] = [await addPatron(testDb.db), await addPatron(testDb.db)];
    await holds.place(reader, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });

    sent.length = 0;
    const loan = await circulation.checkout(reader, { itemId: item });
    assertLockOrder(sent, ['clock', 'bibs', 'patrons', 'items', 'checkouts', 'holds']);
    assert.ok(
      sent.some((text) => /update holds set state/.test(text)),
      'the reader’s hold was filled',
    );

    sent.length = 0;
    await circulation.renew(loan.id);
    assertLockOrder(sent, ['clock', 'bibs', 'patrons', 'items', 'checkouts', 'holds']);

    await holds.place(next, { recordType: 'b', recordNumber: bib, pickupLocation: 'mn' });
    sent.length = 0;
    const back = await circulation.checkin(item);
    assert.equal(back.status, '!');
    assertLockOrder(sent, ['clock', 'bibs', 'items', 'checkouts', 'holds']);
  });
});
