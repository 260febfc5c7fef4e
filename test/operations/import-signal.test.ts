// An import says it runs, and server processes leave search indexing until it ends: the
// supervisor reads the sign with the maintenance switch; a sign a minute old is an import that died.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { importRecords } from '../../src/bibs/import.ts';
import { DEFAULT_ITEM_MAP } from '../../src/items/from-marc.ts';
import { ImportSignal } from '../../src/operations/import-signal.ts';
import { ServiceState } from '../../src/operations/state.ts';
import { Supervisor } from '../../src/operations/supervisor.ts';
import { createTestDb, ENGINE, type TestDb } from '../helpers/db.ts';

describe(`the import's sign to the servers on ${ENGINE}`, () => {
  let t: TestDb;
  let state: ServiceState;
  let supervisor: Supervisor;
  before(async () => {
    t = await createTestDb();
    state = new ServiceState();
    supervisor = new Supervisor(t.db, state, pino({ level: 'silent' }), 60_000);
  });
  after(() => t.drop());

  it('is seen while an import runs, gone when it ends, and ignored once a minute old', async () => {
    await supervisor.tick();
    assert.equal(state.importing, false);
    const signal = new ImportSignal(t.db);
    await signal.beat();
    await supervisor.tick();
    assert.equal(state.importing, true);
    await signal.end();
    await supervisor.tick();
    assert.equal(state.importing, false);

    await new ImportSignal(t.db).beat();
    await t.db.query("update service_state set import_seen = now() - interval '61 seconds'");
    await supervisor.tick();
    assert.equal(state.importing, false, 'an import silent for a minute has died');
  });

  it('an import says it runs from its first batch and clears the sign when it ends', async () => {
    const seen: Promise<boolean>[] = [];
    const records = (function* () {
      for (let i = 0; i < 3; i++) {
        yield {
          position: `record ${i + 1}`,
          record: {
            leader: '00000nam a2200000 a 4500',
            fields: [
              { tag: '001', value: `sig${i}` },
              { tag: '245', ind1: ' ', ind2: ' ', subfields: [{ code: 'a', value: `Sign ${i}` }] },
            ],
          },
        };
      }
    })();
    const summary = await importRecords(t.db, [{ name: 'test', records }], {
      itemMap: DEFAULT_ITEM_MAP,
      // Asked while the import runs (the answers are awaited after).
      onProgress: () =>
        seen.push(t.db.query<{ on: boolean }>('select import_seen is not null as on from service_state').then((r) => r[0]!.on)),
    });
    assert.equal(summary.created, 3);
    await supervisor.tick();
    assert.equal(state.importing, false);
    assert.ok((await Promise.all(seen)).some(Boolean), 'the sign was up during the import');
  });
});
