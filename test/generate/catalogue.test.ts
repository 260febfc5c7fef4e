// The synthetic catalogue: deterministic, and shaped like a real one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deriveBib, normalizeIsbn } from '../../src/bibs/derive.ts';
import { generateRecord } from '../../src/generate/catalogue.ts';
import { generatePatron } from '../../src/generate/patrons.ts';
import { Random, Zipf } from '../../src/generate/random.ts';
import { DEFAULT_ITEM_MAP, itemsFromRecord } from '../../src/items/from-marc.ts';
import { isControlField, type MarcRecord } from '../../src/marc/record.ts';

const SAMPLE = 3000;
const records = Array.from({ length: SAMPLE }, (_, i) => generateRecord(7, i + 1));
const derived = records.map(deriveBib);
const subfieldValues = (record: MarcRecord, tag: string) =>
  record.fields
    .filter((f) => f.tag === tag && !isControlField(f))
    .flatMap((f) => ('subfields' in f ? f.subfields.map((s) => s.value) : []));

function isbnValid(isbn: string): boolean {
  if (isbn.length === 13) return [...isbn].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0) % 10 === 0;
  return [...isbn].reduce((s, d, i) => s + (d === 'X' ? 10 : Number(d)) * (10 - i), 0) % 11 === 0;
}

describe('generated catalogue', () => {
  it('is the same for the same seed and record number, and different for another seed', () => {
    assert.deepEqual(generateRecord(7, 123), records[122]);
    assert.notDeepEqual(generateRecord(8, 123), records[122]);
    assert.deepEqual(new Random(1, 2).next(), new Random(1, 2).next());
  });

  it('spreads over material types, languages and years', () => {
    const types = new Set(derived.map((d) => d.materialType));
    assert.ok(types.size >= 10, `material types: ${[...types].join(',')}`);
    const books = derived.filter((d) => d.materialType === 'a').length;
    assert.ok(books > SAMPLE * 0.5 && books < SAMPLE * 0.8, 'mostly books, not only books');
    const languages = new Set(derived.map((d) => d.lang));
    for (const lang of ['eng', 'fre', 'ger', 'spa', 'rus']) assert.ok(languages.has(lang), lang);
    const years = derived.map((d) => d.publishYear!);
    assert.ok(Math.min(...years) < 1900 && Math.max(...years) >= 2020);
    assert.ok(
      derived.some((d) => /[éèüöäßñłż]/.test(d.title ?? '')),
      'Latin diacritics',
    );
    assert.ok(
      derived.some((d) => /[а-я]/.test(d.title ?? '')),
      'Cyrillic',
    );
  });

  it('has real-looking headings with the common subdivisions', () => {
    const headings = records
      .flatMap((r) => r.fields.filter((f) => f.tag === '650'))
      .map((f) => ('subfields' in f ? f.subfields.map((s) => s.value).join(' -- ') : ''));
    for (const sub of ['History.', 'Fiction.', 'Juvenile literature.'])
      assert.ok(
        headings.some((h) => h.endsWith(sub)),
        sub,
      );
    const authors = derived.map((d) => d.author).filter(Boolean);
    const shape = /^[^,]+, [^,]+, \d{4}-(\d{4})?$/u;
    assert.deepEqual(
      authors.filter((a) => !shape.test(a!)),
      [],
      'Surname, Forename, dates',
    );
    assert.ok(new Set(authors).size < authors.length, 'some authors wrote several books');
  });

  it('draws title words from a Zipf distribution: a few everywhere, a long tail of rare ones', () => {
    const counts = new Map<string, number>();
    for (const d of derived)
      for (const w of new Set(
        (d.title ?? '')
          .toLowerCase()
          .split(/[\s:]+/)
          .filter(Boolean),
      ))
        counts.set(w, (counts.get(w) ?? 0) + 1);
    const sorted = [...counts.values()].sort((a, b) => b - a);
    assert.ok(sorted[0]! >= SAMPLE * 0.1, `the commonest word is in ${sorted[0]} of ${SAMPLE} titles`);
    assert.ok(sorted.filter((n) => n === 1).length > counts.size / 2, 'most distinct words occur once');
    const zipf = new Zipf(1000, 1);
    const r = new Random(1);
    const draws = Array.from({ length: 20000 }, () => zipf.sample(r));
    const first = draws.filter((d) => d === 0).length;
    const second = draws.filter((d) => d === 1).length;
    assert.ok(first / second > 1.7 && first / second < 2.3, 'rank 1 about twice as frequent as rank 2');
  });

  it('carries valid ISBNs and ISSNs', () => {
    const isbns = derived.flatMap((d) => d.isbns);
    assert.ok(isbns.length > SAMPLE * 0.4);
    assert.ok(isbns.every(isbnValid));
    assert.ok(isbns.some((i) => i.length === 10) && isbns.some((i) => i.length === 13));
    assert.ok(records.flatMap((r) => subfieldValues(r, '020')).every((raw) => normalizeIsbn(raw)));
    assert.ok(derived.some((d) => d.issns.length > 0));
  });

  it('makes patrons: the same for the same seed, with unique barcodes and real-looking names', () => {
    assert.deepEqual(generatePatron(7, 5), generatePatron(7, 5));
    const patrons = Array.from({ length: 500 }, (_, i) => generatePatron(7, i + 1));
    assert.equal(new Set(patrons.map((p) => p.barcode)).size, 500);
    assert.ok(patrons.every((p) => /^[^,]+, \S+/u.test(p.names[0]!) && /^[a-z0-9.]+@example\.org$/.test(p.emails[0]!)));
    assert.ok(new Set(patrons.map((p) => p.patronType)).size >= 3);
  });

  it('gives every bib one to five items with unique barcodes at known locations', () => {
    const items = records.map((r) => itemsFromRecord(r, DEFAULT_ITEM_MAP));
    assert.ok(items.every((list) => list.length >= 1 && list.length <= 5));
    assert.ok(items.some((list) => list.length === 5));
    const barcodes = items.flat().map((i) => i.barcode);
    assert.equal(new Set(barcodes).size, barcodes.length);
    assert.deepEqual(new Set(items.flat().map((i) => i.location)), new Set(['mn', 'ea', 'mnref']));
    assert.ok(items.flat().every((i) => i.callNumber && i.itemType && i.status));
  });
});
