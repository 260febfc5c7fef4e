// DCB (openlibraryenvironment/dcb-service, a resource-sharing hub: HostLmsSierraApiClient and
// SierraLmsClient), replayed in the order it lends an item: log in with a multipart form, harvest,
// look the patron up, make a virtual patron, bib and item, place the hold, check out, renew, check
// in, and clean up. Each request as DCB sends it (its field lists, a single query object with a
// singular operand, no body on renewal), each answer read as DCB reads it (`link`'s last segment,
// code 107 as nothing there, 204 on check-in).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addBib, addItem, setUpLibrary } from '../helpers/circulation.ts';
import { ENGINE } from '../helpers/db.ts';
import { wire, type WireAnswer } from '../helpers/wire.ts';

const API = '/iii/sierra-api/v6';
const ITEM_FIELDS =
  'id,updatedDate,createdDate,deletedDate,deleted,suppressed,bibIds,location,status,volumes,barcode,callNumber,itemType,transitInfo,copyNo,holdCount,fixedFields,varFields';
const PATRON_FIND_FIELDS =
  'id,names,barcodes,deleted,suppressed,expirationDate,patronType,blockInfo,autoBlockInfo,homeLibraryCode,message,uniqueIds,emails,fixedFields';
const PATRON_FIELDS =
  'id,updatedDate,createdDate,expirationDate,names,barcodes,patronType,homeLibraryCode,emails,message,uniqueIds,emails,fixedFields,blockInfo,autoBlockInfo,deleted';

describe(`DCB's Sierra client against Carrel on ${ENGINE}`, () => {
  let t: TestApp;
  let port: number;
  let auth = '';
  const lastSegment = (link: string) => link.split('/').pop()!;

  const call = (method: string, path: string, body?: unknown): Promise<WireAnswer> =>
    wire(
      port,
      method,
      `${API}/${path}`,
      { accept: 'application/json', authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body === undefined ? undefined : JSON.stringify(body),
    );
  /** DCB's get(): 2xx is the body, code 107 is nothing there, anything else fails. */
  const get = async (path: string) => {
    const res = await call('GET', path);
    if (res.status === 404 && res.json().code === 107) return undefined;
    assert.ok(res.status < 300, `${path}: ${res.status} ${res.body}`);
    return res.json();
  };
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await call(method, path, body);
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.body}`);
    return res.body ? res.json() : undefined;
  };

  before(async () => {
    t = await createTestApp();
    await setUpLibrary(t.testDb.db);
    await t.testDb.db.query("insert into item_types (code, name) values ('200', 'DCB loan') on conflict do nothing");
    const key = await t.services.auth.createKey('dcb', ['all'], 0);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    const form = new FormData();
    form.append('grant_type', 'client_credentials');
    const request = new Request('http://x/', { method: 'POST', body: form });
    const login = await wire(
      port,
      'POST',
      `${API}/token`,
      {
        authorization: `Basic ${Buffer.from(`${key.key}:${key.secret}`).toString('base64')}`,
        accept: 'application/json',
        'content-type': request.headers.get('content-type')!,
      },
      Buffer.from(await request.arrayBuffer()),
    );
    const token = login.json();
    // The header DCB builds: token_type with a capital first letter, a space, the token.
    auth = `${token.token_type[0].toUpperCase()}${token.token_type.slice(1)} ${token.access_token}`;
    assert.ok(token.expires_in > 10);
  });
  after(() => t.close());

  it('harvests bibs and items with its field lists, and reads nothing there as empty', async () => {
    const bib = await addBib(t.testDb.db, 'Harvested');
    await addItem(t.testDb.db, bib, 'mn', '-', 'HV-1');
    const page = await get(
      'bibs?limit=500&offset=0&fields=id,updatedDate,createdDate,deletedDate,deleted,marc,suppressed,fixedFields,varFields',
    );
    assert.ok(page.entries.some((b: any) => b.id === bib));
    const items = await get(`items?deleted=false&bibIds=${bib}&fields=${ITEM_FIELDS}`);
    const item = items.entries[0];
    assert.equal(item.barcode, 'HV-1');
    assert.equal(item.copyNo, 1);
    assert.equal(item.holdCount, 0);
    assert.deepEqual(item.volumes, []);
    assert.equal((await get(`items/${item.id}?fields=${ITEM_FIELDS}`)).status.code, '-');
    assert.equal(await get(`items/99999999?fields=${ITEM_FIELDS}`), undefined);
    const branches = await get('branches?limit=100&offset=0&fields=name,address,emailSource,emailReplyTo,latitude,longitude,locations');
    assert.ok(branches.entries.length >= 1);
    const pickup = await get('branches/pickupLocations');
    assert.ok(Array.isArray(pickup) && pickup.some((l: any) => l.code === 'mn'));
    const metadata = await get('patrons/metadata?offset=0&limit=1000&deleted=false');
    assert.ok(Array.isArray(metadata) && metadata.some((m: any) => m.field === 'patronType'));
    assert.ok((await get('info/token')).keyId);
  });

  it('lends an item: virtual patron, bib and item, hold, checkout, renewal, check-in, clean-up', async () => {
    // The borrower at its home library, looked up and validated.
    const home = lastSegment(
      (await send('POST', 'patrons', { names: ['Home, Hana'], barcodes: ['HOME-1'], pin: '2580', patronType: 0 })).link,
    );
    const found = await get(`patrons/find?varFieldTag=b&varFieldContent=HOME-1&fields=${PATRON_FIND_FIELDS}`);
    assert.equal(found.id, home);
    assert.notEqual(found.patronType, null);
    assert.notEqual(found.deleted, true);
    assert.equal((await call('POST', 'patrons/validate', { barcode: 'HOME-1', pin: '2580', caseSensitivity: false })).status, 204);

    // The virtual patron at the lending library: not there yet, then made.
    const virtual = { target: { record: { type: 'patron' }, field: { tag: 'u' } }, expr: { op: 'equals', operands: ['hana@home'] } };
    assert.equal((await send('POST', 'patrons/query?offset=0&limit=10', virtual)).entries.length, 0);
    const patron = lastSegment(
      (
        await send('POST', 'patrons', {
          patronType: 0,
          uniqueIds: ['hana@home'],
          names: ['Home, Hana'],
          barcodes: ['VP-1'],
          expirationDate: '2027-06-30',
          pin: '1357',
        })
      ).link,
    );
    assert.equal(lastSegment((await send('POST', 'patrons/query?offset=0&limit=10', virtual)).entries[0].link), patron);
    const read = await get(`patrons/${patron}?fields=${PATRON_FIELDS}`);
    assert.deepEqual(read.uniqueIds, ['hana@home']);
    assert.equal(read.fixedFields['47'].value, 0);
    await send('PUT', `patrons/${patron}`, { expirationDate: '2027-12-31' });

    // The borrowing side's copy: a bib and an item, found again by barcode.
    const bib = lastSegment(
      (
        await send('POST', 'bibs', {
          authors: ['Writer, W.'],
          titles: ['Lent afar'],
          fixedFields: { '31': { label: 'suppress', value: 'n' } },
        })
      ).link,
    );
    const item = lastSegment(
      (
        await send('POST', 'items', {
          bibIds: [Number(bib)],
          location: 'mn',
          barcodes: ['DCB-9'],
          owningLocations: ['mn'],
          fixedFields: { '61': { label: 'DCB-200', value: 200 }, '88': { label: 'REQUEST', value: '-' } },
        })
      ).link,
    );
    const byBarcode = await send('POST', 'items/query?offset=0&limit=1', {
      target: { record: { type: 'item' }, field: { tag: 'b' } },
      expr: { op: 'equals', operand: 'DCB-9' },
    });
    assert.equal(lastSegment(byBarcode.entries[0].link), item);

    // The hold, found by the request id in its note.
    await send('POST', `patrons/${patron}/holds/requests`, {
      recordType: 'i',
      recordNumber: Number(item),
      pickupLocation: 'mn',
      note: 'DCB request r-42',
    });
    const holds = await get(`patrons/${patron}/holds?fields=id,placed,location,pickupLocation,status,note,recordType,notNeededAfterDate`);
    const hold = holds.entries.find((h: any) => String(h.note).includes('r-42'));
    assert.equal(hold.recordType, 'i');
    assert.equal((await get(`patrons/holds/${lastSegment(hold.id)}`)).status.code, '0');
    const all = await get('patrons/holds?limit=250&offset=0');
    assert.ok(all.entries.some((h: any) => h.id === hold.id));

    // Lend, renew (no body), return (204), as DCB does.
    const checkout = await send('POST', 'patrons/checkout', { itemBarcode: 'DCB-9', patronBarcode: 'VP-1', patronPin: '1357' });
    const loans = await get(`items/${item}/checkouts`);
    const loan = loans.entries.find((c: any) => lastSegment(c.patron) === patron);
    assert.equal(lastSegment(loan.id), lastSegment(checkout.link));
    const renewed = await call('POST', `patrons/checkouts/${lastSegment(loan.id)}/renewal`);
    assert.equal(renewed.status, 200, renewed.body);
    assert.equal(renewed.json().numberOfRenewals, 1);
    assert.equal((await call('DELETE', 'items/checkouts/DCB-9')).status, 204);
    assert.equal((await get(`items/${item}/checkouts`)).entries.length, 0);

    // Status updates, then everything made for the loan deleted.
    await send('PUT', `items/${item}`, { status: '-', messages: [], varFields: [{ fieldTag: 'm', content: '' }] });
    await send('PUT', `bibs/${bib}`, { titles: ['Lent afar'], fixedFields: { '31': { value: 'n' } } });
    await send('DELETE', `items/${item}`);
    await send('DELETE', `bibs/${bib}`);
    await send('DELETE', `patrons/${patron}`);
    assert.equal((await get(`items/${item}?fields=${ITEM_FIELDS}`)).deleted, true);
  });
});
