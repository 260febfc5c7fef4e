// A file's claim taken over by another process while it is processed (here: a trigger that moves
// the claim when the first batch or message is written, as a process claiming the file after this
// one's lease ran out would): the MARC and EDIFACT processors stop at their next safe point,
// between transactions, with whole batches or messages written and no outcome recorded; the new
// holder's run then loads the rest, nothing twice.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BATCH } from '../../src/bibs/prepare.ts';
import { writeIso2709 } from '../../src/marc/iso2709.ts';
import type { MarcRecord } from '../../src/marc/record.ts';
import { FileService } from '../../src/files/index.ts';
import { ENGINE } from '../helpers/db.ts';
import { ediWorld } from '../acquisitions/edi/world.ts';
import { interchange, invoic } from '../acquisitions/edi/messages.ts';

const THIEF = '00000000-0000-4000-8000-000000000001';
const RECORDS = BATCH * 8;
const MESSAGES = 12;

function records(n: number): Uint8Array {
  const one = (i: number): MarcRecord => ({
    leader: '00000nam a2200000 a 4500',
    fields: [
      { tag: '001', value: `lease${i}` },
      { tag: '003', value: 'LEASETEST' },
      { tag: '245', ind1: '1', ind2: '0', subfields: [{ code: 'a', value: `Record ${i}` }] },
    ],
  });
  return Buffer.concat(Array.from({ length: n }, (_, i) => writeIso2709(one(i))));
}

describe(`a file whose claim is taken over while it is processed, on ${ENGINE}`, () => {
  const world = ediWorld<{ messages: { status: string }[] }>('edifact-invoic');

  /** Files processed with the claim renewed (and found lost) at once, as often as the event loop allows. */
  const eager = () => {
    const files = new FileService(world.t.testDb.db, (account) => world.t.services.sftpAccounts.loadSettings(account), 1);
    files.register('edifact-invoic', (file) => world.t.services.ediIn.processInvoices(file));
    return files;
  };
  /** Moves the claim of the file being processed to another holder whenever `table` gets rows. */
  const stealOn = async (table: string) => {
    const db = world.t.testDb.db;
    await db.query(`create or replace function steal_claim() returns trigger language plpgsql as $$
      begin
        update files set claim = '${THIEF}', lease_until = now() + interval '1 hour' where status = 'processing';
        return null;
      end $$`);
    await db.query(`create trigger steal_claim after insert on ${table} for each statement execute function steal_claim()`);
    return async () => {
      await db.query(`drop trigger steal_claim on ${table}`);
      // The thief died: its lease runs out, and the file is claimed again.
      await db.query(`update files set lease_until = now() - interval '1 second' where claim = '${THIEF}'`);
    };
  };
  const count = async (sql: string) => (await world.t.testDb.db.query<{ n: number }>(sql))[0]!.n;

  it('stops a MARC load between batches, and the next claim loads the rest once', async () => {
    const file = await world.t.services.files.receive('library', 'lease.mrc', records(RECORDS));
    const release = await stealOn('bibs');
    assert.equal(await eager().processOne(file.id), true);
    const [kept] = await world.t.testDb.db.query<{ status: string; claim: string }>('select status, claim::text from files where id = $1', [
      file.id,
    ]);
    assert.deepEqual(kept, { status: 'processing', claim: THIEF }, 'no outcome recorded by the process that lost the claim');
    const loaded = await count(`select count(*)::int as n from bibs where title like 'Record %'`);
    assert.ok(loaded > 0 && loaded < RECORDS, `stopped part way: ${loaded} of ${RECORDS}`);
    assert.equal(loaded % BATCH, 0, 'whole batches only');

    await release();
    assert.equal(await world.t.services.files.processOne(file.id), true);
    assert.equal((await world.t.services.files.get(file.id)).status, 'loaded');
    assert.equal(await count(`select count(*)::int as n from bibs where title like 'Record %'`), RECORDS, 'each record once');
  });

  it('stops an INVOIC file between messages, and the next claim loads the rest once', async () => {
    const messages = [];
    for (let i = 1; i <= MESSAGES; i++) {
      await world.placeOrder(`LEASE-${i}`);
      messages.push(invoic(`M${i}`, { invNum: `LEASE-INV-${i}`, lines: [{ ref: `LEASE-${i}`, quantity: 2, amount: '20.00' }] }));
    }
    const file = await world.t.services.files.receive('ebsco-sftp', 'lease.edi', Buffer.from(interchange('EBSCO1', messages), 'latin1'));
    const release = await stealOn('invoices');
    assert.equal(await eager().processOne(file.id), true);
    assert.equal((await world.t.services.files.get(file.id)).status, 'processing');
    const invoices = `select count(*)::int as n from invoices where inv_num like 'LEASE-INV-%'`;
    const loaded = await count(invoices);
    assert.ok(loaded > 0 && loaded < MESSAGES, `stopped part way: ${loaded} of ${MESSAGES}`);
    const lines = `select count(*)::int as n from invoice_lines l join invoices i on i.id = l.invoice_id where i.inv_num like 'LEASE-INV-%'`;
    assert.equal(await count(lines), loaded, 'each invoice whole, with its line');

    await release();
    assert.equal(await world.t.services.files.processOne(file.id), true);
    const done = await world.t.services.files.get(file.id);
    assert.equal(done.status, 'loaded', JSON.stringify(done.report));
    assert.equal(await count(invoices), MESSAGES, 'each invoice once');
  });
});
