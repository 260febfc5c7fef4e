// Input the database cannot take is refused before any statement runs, by one rule for every route
// (src/http/input-guard.ts): numbers past what PostgreSQL's bigint and JSON hold exactly, and text with
// a NUL or an unpaired surrogate. 400 with code 108 naming the member; nothing is written.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

const LISTS = [
  '/v6/bibs',
  '/v6/items',
  '/v6/patrons',
  '/v6/patrons/holds',
  '/v6/invoices',
  '/v6/vendors',
  '/v6/funds',
  '/v6/branches',
  '/v6/bibs/search?text=history',
];
const HUGE = ['9223372036854775808', '1e20', '1e999', '-1e999', '9007199254740993'];

describe(`hostile input on ${ENGINE}`, () => {
  let t: TestApp;
  let auth: string;
  before(async () => {
    t = await createTestApp();
    auth = await bearer(t, ['all']);
  });
  after(() => t.close());

  const send = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: { authorization: auth }, ...(payload === undefined ? {} : { payload: payload as object }) });

  function refused(res: { statusCode: number; json(): any }, member: string, what: string) {
    assert.equal(res.statusCode, 400, `${what}: ${res.statusCode} ${JSON.stringify(res.json())}`);
    const body = res.json();
    assert.ok([101, 108].includes(body.code), `${what}: code ${body.code}`);
    assert.match(body.description ?? '', new RegExp(`^${member}\\b`), `${what}: ${body.description}`);
  }

  it('refuses offsets past what the database holds, and serves the largest page for a huge limit, on every paged list', async () => {
    for (const list of LISTS) {
      const sep = list.includes('?') ? '&' : '?';
      for (const value of HUGE) {
        refused(await send('GET', `${list}${sep}offset=${value}`), 'offset', `${list} offset=${value}`);
        const page = await send('GET', `${list}${sep}limit=${value}`);
        if (/^\d+$/.test(value)) assert.equal(page.statusCode, 200, `${list} limit=${value}: ${page.body}`);
        else refused(page, 'limit', `${list} limit=${value}`);
      }
    }
  });

  it('refuses a NUL in a query parameter, naming it', async () => {
    for (const url of [
      '/v6/patrons/find?barcode=%00',
      '/v6/patrons/find?barcode=a%00b',
      '/v6/bibs/search?text=hist%00ory',
      '/v6/patrons/holds?fields=id%00',
    ]) {
      const res = await send('GET', url);
      refused(res, /barcode|text|fields/.exec(url)![0], url);
    }
    // A parameter with no name is named by where it is (it was called "body").
    refused(await send('GET', '/v6/branches/pickupLocations?=%00'), 'a query parameter', 'no name');
  });

  it('refuses a NUL on the catalogue pages in their own form, an HTML page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/catalog?text=hist%00ory' });
    assert.equal(res.statusCode, 400);
    assert.match(String(res.headers['content-type']), /^text\/html/);
  });

  it('refuses a NUL in a body member, naming it, and writes nothing', async () => {
    const counts = async () =>
      (
        await t.testDb.db.query<{ n: number }>(
          'select (select count(*) from patrons) + (select count(*) from vendors) + (select count(*) from funds) as n',
        )
      )[0]!.n;
    const before = await counts();
    refused(await send('POST', '/v6/patrons/validate', { barcode: '1\u0000', pin: '1234' }), 'barcode', 'validate');
    refused(await send('POST', '/v6/patrons', { names: ['Ada\u0000Lovelace'], barcodes: ['21000001'] }), 'names.0', 'patron');
    refused(await send('POST', '/v6/vendors', { code: 'ebsco', vendorName: 'EBSCO\u0000' }), 'vendorName', 'vendor');
    refused(await send('POST', '/v6/funds', { code: 'books', fundName: 'Books', appropriation: '10.00', note: '\u0000' }), 'note', 'fund');
    refused(await send('POST', '/v6/patrons', { names: ['\uD800'], barcodes: ['21000002'] }), 'names.0', 'surrogate');
    assert.equal(await counts(), before, 'nothing written');
  });
});
