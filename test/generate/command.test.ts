// `carrel generate` and `carrel item-map` through the real command.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { DEFAULT_ITEM_MAP } from '../../src/items/from-marc.ts';
import { commandWorkspace, ENGINE } from '../helpers/db.ts';
import { carrel } from '../helpers/process.ts';

describe(`carrel generate on ${ENGINE}`, () => {
  const work = commandWorkspace('generate');

  it('loads a catalogue with items, and the same seed again updates it instead of adding', async () => {
    const first = await carrel(['generate', '--bibs', '400', '--seed', '3', '--json'], work.env);
    assert.equal(first.code, 0, first.stderr);
    const summary = JSON.parse(first.stdout);
    assert.equal(summary.created, 400);
    assert.ok(summary.items.created >= 400, `${summary.items.created} items`);
    assert.equal(summary.warningCount, 0);
    assert.equal(summary.patrons.created, 40, 'one patron for every ten bibs');
    assert.equal(summary.holds.created, 120, 'three holds for every patron');
    const again = JSON.parse((await carrel(['generate', '--bibs', '400', '--seed', '3', '--json'], work.env)).stdout);
    assert.deepEqual([again.created, again.updated, again.items.created, again.items.updated], [0, 400, 0, summary.items.created]);
    assert.equal(again.patrons.created, 0, 'the same patrons are not added twice');
    assert.equal(again.holds.created, 0, 'nor their holds');
    const listed = JSON.parse((await carrel(['patrons', 'list', '--limit', '100', '--json'], work.env)).stdout) as {
      entries: unknown[];
    };
    assert.equal(listed.entries.length, 40);
  });

  it('writes the same records to a file in each format, which import matches to the loaded ones', async () => {
    for (const format of ['iso2709', 'marcxml', 'json']) {
      const file = path.join(work.dir, `generated.${format}`);
      const written = await carrel(['generate', '--bibs', '50', '--seed', '3', '--output', file, '--format', format], work.env);
      assert.equal(written.code, 0, written.stderr);
      assert.match(written.stdout, /wrote 50 records/);
      const imported = await carrel(['import', file, '--json'], work.env);
      assert.equal(imported.code, 0, imported.stderr);
      const summary = JSON.parse(imported.stdout);
      assert.deepEqual([summary.read, summary.created, summary.updated, summary.failed.length], [50, 0, 50, 0], format);
    }
  });

  it('refuses bad options with a clear message', async () => {
    const zero = await carrel(['generate', '--bibs', '0'], work.env);
    assert.equal(zero.code, 1);
    assert.match(zero.stderr, /at least 1/);
    const format = await carrel(['generate', '--bibs', '5', '--output', path.join(work.dir, 'x'), '--format', 'pdf'], work.env);
    assert.equal(format.code, 1);
    assert.match(format.stderr, /--format takes iso2709, marcxml, json/);
  });
});

describe('carrel item-map', () => {
  it('prints the default mapping, which import --item-map takes back; a bad map is refused', async () => {
    const env = {};
    const printed = await carrel(['item-map'], env);
    assert.equal(printed.code, 0);
    assert.deepEqual(JSON.parse(printed.stdout), DEFAULT_ITEM_MAP);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carrel-itemmap-'));
    const bad = path.join(dir, 'map.json');
    fs.writeFileSync(bad, '{"fields": [{"tag": "949", "shelf": "a"}]}');
    const refused = await carrel(['import', bad, '--item-map', bad], env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /item map .*map\.json: fields\[0\]\.shelf is not one of/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
