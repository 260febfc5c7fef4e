// What the EDI processing tests share: an app with acquisitions set up (vendor ebsco with party id
// EBSCO1 under qualifier 91), orders placed through OrderService, and files received as the SFTP
// door receives them and processed by the files service. Call inside a describe: it adds the hooks.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { FileEntry } from '../../../src/files/service.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { caller, type Caller } from '../../helpers/api.ts';
import { setUpAcquisitions } from '../../helpers/acquisitions.ts';
import { addBib, setUpLibrary } from '../../helpers/circulation.ts';
import { bearer } from '../../helpers/tokens.ts';

export interface World<R> {
  t: TestApp;
  /** What GET answers at this path (Invoices_Read). */
  read: (path: string) => Promise<Record<string, any>>;
  /** A fund's balances as the API answers them. */
  fund: (code: string) => Promise<{ encumbrance: string; expenditure: string }>;
  /** Places an order of 2 copies at 10.00 on fund books with this line reference (`over` changes members). */
  placeOrder: (ref: string, over?: Record<string, unknown>) => Promise<string>;
  /** Receives the file, processes it, answers it as kept. */
  drop: (text: string, name?: string) => Promise<Omit<FileEntry, 'report'> & { report: R }>;
}

export function ediWorld<R>(kind: 'edifact-invoic' | 'edifact-ordrsp'): World<R> {
  let reader: Caller;
  let bibId: string;
  let n = 0;
  const world: World<R> = {
    t: undefined as unknown as TestApp,
    read: async (path) => (await reader.get(path)).json(),
    fund: async (code) => (await reader.get(`/v6/funds/${code}`)).json(),
    placeOrder: (ref, over = {}) =>
      world.t.services.orders.create({
        bibId,
        vendor: 'ebsco',
        fund: 'books',
        copies: 2,
        location: [{ locationCode: 'mn', copies: 2 }],
        estimatedPrice: '10.00',
        lineReference: ref,
        ...over,
      }),
    drop: async (text, name = `${kind}-${++n}.edi`) => {
      const files = world.t.services.files;
      const file = await files.receive('ebsco-sftp', name, Buffer.from(text, 'latin1'));
      assert.equal(file.kind, kind);
      assert.equal(await files.processOne(file.id), true);
      const done = await files.get(file.id);
      return { ...done, report: done.report as R };
    },
  };
  before(async () => {
    world.t = await createTestApp();
    const writer = caller(world.t, await bearer(world.t, ['Invoices_Write']));
    reader = caller(world.t, await bearer(world.t, ['Invoices_Read']));
    const { vendorId } = await setUpAcquisitions(writer);
    await world.t.services.vendorEdi.set(vendorId, { partyIds: [{ qualifier: '91', id: 'EBSCO1' }] });
    await setUpLibrary(world.t.testDb.db);
    bibId = await addBib(world.t.testDb.db, 'Ordered book');
  });
  after(() => world.t.close());
  return world;
}
