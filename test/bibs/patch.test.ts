// Sierra's bib patch on POST and PUT /bibs (issue 19), as a resource-sharing hub (DCB) creates the
// bibs of the items it lends: read into MARC, derived and shown as any bib.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefused, caller, create, type Caller } from '../helpers/api.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { ENGINE } from '../helpers/db.ts';
import { bearer } from '../helpers/tokens.ts';

describe(`bib patches on ${ENGINE}`, () => {
  let t: TestApp;
  let api: Caller;
  before(async () => {
    t = await createTestApp();
    api = caller(t, await bearer(t, ['all']));
  });
  after(() => t.close());

  it("creates a bib from DCB's patch, suppressed by Bib Code 3, and shows it as MARC", async () => {
    const id = await create(api, '/v6/bibs', {
      authors: ['Tolkien, J. R. R.'],
      titles: ['The hobbit', 'There and back again'],
      fixedFields: { '31': { label: 'suppress', value: 'n' } },
    });
    const bib = (await api.get(`/v6/bibs/${id}?fields=title,author,suppressed,fixedFields,varFields`)).json();
    assert.equal(bib.title, 'The hobbit');
    assert.equal(bib.author, 'Tolkien, J. R. R.');
    assert.equal(bib.suppressed, true);
    assert.equal(bib.fixedFields['31'].value, 'n');
    assert.deepEqual(
      bib.varFields.filter((v: any) => ['245', '246'].includes(v.marcTag)).map((v: any) => v.marcTag),
      ['245', '246'],
    );
    const put = await api.send('PUT', `/v6/bibs/${id}`, {
      titles: ['The hobbit'],
      lang: { code: 'eng' },
      publishYear: 1937,
      fixedFields: { '31': { value: '-' } },
      varFields: [{ marcTag: '020', ind1: ' ', ind2: ' ', subfields: [{ tag: 'a', content: '9780261102217' }] }],
    });
    assert.equal(put.statusCode, 204, put.body);
    const after = (await api.get(`/v6/bibs/${id}?fields=suppressed,lang,publishYear,author`)).json();
    assert.equal(after.suppressed, false);
    assert.equal(after.lang.code, 'eng');
    assert.equal(after.publishYear, 1937);
    assert.equal(after.author, undefined);
  });

  it('refuses a patch it cannot read, naming the member', async () => {
    for (const [body, pattern] of [
      [{ authors: ['Nobody'] }, /titles/],
      [{ titles: ['X'], fixedFields: { '30': { value: 'a' } } }, /fixedFields\.30/],
      [{ titles: ['X'], fixedFields: { '31': { value: 'q' } } }, /fixedFields\.31/],
      [{ titles: ['X'], colour: 'red' }, /colour/],
      [{ titles: ['X'], varFields: [{ marcTag: '001', subfields: [] }] }, /varFields\[0\]\.marcTag/],
      [{ titles: ['X'], publishYear: 'soon' }, /publishYear/],
    ] as const) {
      const res = await api.send('POST', '/v6/bibs', body);
      assertRefused(res, 400, 126);
      assert.match(res.json().description, pattern, JSON.stringify(body));
    }
  });
});
