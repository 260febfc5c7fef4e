// The published @nypl/sierra-wrapper 1.1.1 (NYPL's harvesting wrapper) itself, pointed at a Carrel
// server over a real socket: every call it offers, each answer read as the wrapper hands it back.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { importFiles } from '../../src/bibs/import.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addItem, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { chunks } from '../helpers/shared-data.ts';

// A CommonJS package with module-level state (its credentials and token): one instance for this file.
const wrapper = createRequire(import.meta.url)('@nypl/sierra-wrapper') as {
  config(options: { key: string; secret: string; base: string }): boolean;
  authenticate(): Promise<void>;
  get(path: string): Promise<any>;
  post(path: string, data: unknown): Promise<any>;
  put(path: string, data: unknown): Promise<any>;
  deleteRequest(path: string): Promise<any>;
  getSingleBib(id: string): Promise<any>;
  getRangeBib(start: string, end: string): Promise<any>;
  getRangeItem(start: string, end: string): Promise<any>;
  getBibItems(bibId: string): Promise<any[]>;
  getMultiBibsBasic(ids: string[]): Promise<any>;
  getMultiItemsBasic(ids: string[]): Promise<any>;
  setLogLevel(level: string): void;
  _accessToken(): string | null;
};

describe(`@nypl/sierra-wrapper 1.1.1 against Carrel on ${ENGINE}`, () => {
  let t: TestApp;
  let bibIds: string[];
  before(async () => {
    // Tokens checked against the database on every request, so a revoked one is refused at once.
    t = await createTestApp({ CARREL_TOKEN_CACHE_MS: '0' });
    await setUpLibrary(t.testDb.db);
    await importFiles(t.testDb.db, [{ name: 'brkrtest.mrc', open: () => chunks('brkrtest.mrc') }]);
    bibIds = (await t.testDb.db.query<{ id: string }>('select id::text from bibs order by id')).map((r) => r.id);
    const key = await t.services.auth.createKey('wrapper', ['all'], 0);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    wrapper.setLogLevel('error');
    assert.equal(wrapper.config({ key: key.key, secret: key.secret, base: `http://127.0.0.1:${port}/iii/sierra-api/v6` }), true);
  });
  after(() => t.close());

  it('authenticates with its form body and keeps the token', async () => {
    await wrapper.authenticate();
    assert.match(wrapper._accessToken() ?? '', /^[\w-]{20,}$/);
  });

  it('reads a range of bibs, open and closed, with every field it asks for', async () => {
    assert.ok(bibIds.length >= 5, `${bibIds.length} bibs imported`);
    const closed = await wrapper.getRangeBib(bibIds[0]!, bibIds[2]!);
    assert.deepEqual(
      closed.entries.map((b: any) => b.id),
      bibIds.slice(0, 3),
    );
    const bib = closed.entries[0];
    for (const field of ['fixedFields', 'varFields', 'normTitle', 'orders', 'locations']) assert.ok(field in bib, field);
    assert.deepEqual(bib.orders, []);
    assert.equal(bib.fixedFields['30'].label, 'Material Type');
    assert.ok(bib.varFields.some((v: any) => v.marcTag === '245'));
    const open = await wrapper.getRangeBib(bibIds[1]!, '');
    assert.deepEqual(
      open.entries.map((b: any) => b.id),
      bibIds.slice(1, 51),
    );
    const many = await wrapper.getMultiBibsBasic([bibIds[3]!, bibIds[0]!]);
    assert.deepEqual(many.entries.map((b: any) => b.id).sort(), [bibIds[0], bibIds[3]].sort());
  });

  it("pages a bib's items fifty at a time, and reads items by range and by id", async () => {
    const bib = bibIds[0]!;
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) ids.push(await addItem(t.testDb.db, bib, i % 2 ? 'mn' : 'br', '-', `W-${i}`));
    const items = await wrapper.getBibItems(bib);
    assert.deepEqual(
      items.map((i) => i.id),
      ids,
    );
    assert.equal(items[1].fixedFields['79'].value, 'mn');
    assert.deepEqual(items[1].varFields, [{ fieldTag: 'b', content: 'W-1' }]);
    const range = await wrapper.getRangeItem(ids[0]!, ids[4]!);
    assert.equal(range.entries.length, 5);
    const open = await wrapper.getRangeItem(ids[50]!, '');
    assert.deepEqual(
      open.entries.map((i: any) => i.id),
      ids.slice(50),
    );
    const some = await wrapper.getMultiItemsBasic([ids[7]!, ids[3]!]);
    assert.deepEqual(some.entries.map((i: any) => i.id).sort(), [ids[3], ids[7]].sort());
    const located = await wrapper.getRangeBib(bib, bib);
    assert.deepEqual(
      located.entries[0].locations.map((l: any) => l.code),
      ['br', 'mn'],
    );
  });

  it('its single-bib call writes the id twice: answered as Sierra answers it, 404 code 107', async () => {
    await assert.rejects(wrapper.getSingleBib(bibIds[0]!), (error: any) => {
      assert.equal(error.response.status, 404);
      assert.equal(error.response.data.code, 107);
      return true;
    });
  });

  it('posts, puts and deletes through its generic calls, and logs in again when its token is revoked', async () => {
    const created = await wrapper.post('patrons', { names: ['Wrapper, Wren'], barcodes: ['WR-1'] });
    const patron = String(created.link).split('/').pop()!;
    assert.equal(await wrapper.put(`patrons/${patron}`, { emails: ['wren@example.org'] }), '');
    assert.deepEqual((await wrapper.get(`patrons/${patron}?fields=emails`)).emails, ['wren@example.org']);
    await t.testDb.db.query('delete from access_tokens');
    const old = wrapper._accessToken();
    assert.equal(await wrapper.deleteRequest(`patrons/${patron}`), '');
    assert.notEqual(wrapper._accessToken(), old);
    assert.equal((await wrapper.get(`patrons/${patron}`)).deleted, true);
  });
});
