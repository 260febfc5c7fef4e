// `carrel patrons create` and `carrel patrons list` through the real command.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { childDatabase, ENGINE } from '../helpers/db.ts';
import { carrel } from '../helpers/process.ts';

describe(`carrel patrons on ${ENGINE}`, () => {
  let database: Awaited<ReturnType<typeof childDatabase>>;
  before(async () => {
    database = await childDatabase();
  });
  after(() => database?.remove());

  it('creates patrons and lists them, never showing the PIN', async () => {
    const created = await carrel(
      [
        'patrons',
        'create',
        '--name',
        'Noether, Emmy',
        '--barcode',
        '41000001',
        '--pin',
        'ring-theory-1',
        '--email',
        'emmy@example.org',
        '--expires',
        '2028-01-31',
        '--json',
      ],
      database.env,
    );
    assert.equal(created.code, 0, created.stderr);
    const patron = JSON.parse(created.stdout);
    assert.deepEqual(
      [patron.names, patron.barcodes, patron.emails, patron.expirationDate],
      [['Noether, Emmy'], ['41000001'], ['emmy@example.org'], '2028-01-31'],
    );
    assert.ok(!created.stdout.includes('ring-theory-1'));
    const text = await carrel(['patrons', 'create', '--name', 'Germain, Sophie', '--barcode', '41000002'], database.env);
    assert.match(text.stdout, /^created patron \d{7}: Germain, Sophie \(41000002\)/);
    const list = await carrel(['patrons', 'list', '--json'], database.env);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      JSON.parse(list.stdout).entries.map((p: any) => p.barcodes[0]),
      ['41000001', '41000002'],
    );
    assert.ok(!list.stdout.includes('ring-theory-1') && !list.stdout.includes('scrypt'));
    const table = await carrel(['patrons', 'list'], database.env);
    assert.match(table.stdout, /^ID\s+NAME\s+BARCODES/);
  });

  it('refuses bad input with a one-line message', async () => {
    const taken = await carrel(['patrons', 'create', '--name', 'Again', '--barcode', '41000001'], database.env);
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /^carrel: barcode 41000001 belongs to another patron\n$/);
    const shortPin = await carrel(['patrons', 'create', '--name', 'Short', '--pin', '12'], database.env);
    assert.equal(shortPin.code, 1);
    assert.match(shortPin.stderr, /pin must have 4 to 64 characters/);
  });
});
