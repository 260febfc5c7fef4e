// The catalogue the catalogue-page tests search: a generated catalogue loaded through the importer
// (with its items, at the demo locations), plus a few records made by hand for what generated
// words cannot show: diacritics and other scripts, a known ISBN, phrases, stop words.
import { BibService } from '../../src/bibs/service.ts';
import { ItemService } from '../../src/items/service.ts';
import { importRecords } from '../../src/bibs/import.ts';
import { ensureDemoLocations } from '../../src/demo/load.ts';
import type { Db } from '../../src/db/types.ts';
import { generateRecord } from '../../src/generate/catalogue.ts';
import { DEFAULT_ITEM_MAP } from '../../src/items/from-marc.ts';
import type { DataField, MarcRecord } from '../../src/marc/record.ts';
import { drainQueue } from '../../src/search/indexer.ts';

export const SEED = 11;
export const GENERATED = 800;

const df = (tag: string, ...subfields: [string, string][]): DataField => ({
  tag,
  ind1: '1',
  ind2: '0',
  subfields: subfields.map(([code, value]) => ({ code, value })),
});
const item = (location: string, callNumber: string, status = '-') =>
  df('949', ['a', callNumber], ['l', location], ['s', status], ['t', 'book']);
const bib = (leader: string, title: string, ...fields: DataField[]): MarcRecord => ({
  leader: `00000n${leader} a2200000 i 4500`,
  fields: [df('245', ...title.split(' / ').map((part, i): [string, string] => [i === 0 ? 'a' : 'c', part])), ...fields],
});

export const HAND_MADE: Record<string, MarcRecord> = {
  zola: bib(
    'am',
    'Germinal / Émile Zola',
    df('100', ['a', 'Zola, Émile,'], ['d', '1840-1902']),
    df('041', ['a', 'fre']),
    df('264', ['a', 'Paris :'], ['b', 'Charpentier,'], ['c', '1885.']),
    df('650', ['a', 'Coal mines and mining'], ['z', 'France'], ['v', 'Fiction.']),
    item('mn', 'FIC ZOL'),
    item('ea', 'FIC ZOL', 'o'),
  ),
  strasse: bib('am', 'Die Straße der Ölsardinen', df('100', ['a', 'Müller, Hans']), df('500', ['a', 'Übersetzt aus dem Englischen.'])),
  voina: bib('am', 'Война и мир', df('100', ['a', 'Толстой, Лев'])),
  pride: bib(
    'am',
    'Pride and prejudice / Jane Austen',
    df('020', ['a', '9780141439518 (paperback)']),
    df('100', ['a', 'Austen, Jane,'], ['d', '1775-1817']),
    df('264', ['a', 'London :'], ['b', 'Penguin,'], ['c', '2003.']),
    df('300', ['a', '480 pages ;'], ['c', '20 cm']),
    df('520', ['a', 'A novel of manners: Elizabeth Bennet and Mr Darcy.']),
    df('650', ['a', 'Courtship'], ['v', 'Fiction.']),
    item('mn', 'FIC AUS'),
    item('ea', 'FIC AUS', 'm'),
  ),
  prejudice: bib('am', 'Prejudice and pride in old towns'),
  theWho: bib('jm', 'The Who : a biography in sound'),
  hamlet: bib('am', 'To be or not to be', df('500', ['a', 'On Hamlet, Prince of Denmark.'])),
  naive: bib('gm', 'Naïve café society', df('650', ['a', 'Cafés'], ['z', 'Paris (France)'])),
};

/** Loads the catalogue and indexes it; answers the hand-made records' ids by key. */
export async function loadCatalogue(db: Db, generated = GENERATED): Promise<Record<string, string>> {
  await db.transaction((tx) => ensureDemoLocations(tx));
  const records = Array.from({ length: generated }, (_, i) => ({ position: `record ${i + 1}`, record: generateRecord(SEED, i + 1) }));
  const summary = await importRecords(
    db,
    [
      { name: 'generated', records },
      { name: 'hand-made', records: Object.values(HAND_MADE).map((record, i) => ({ position: `hand ${i}`, record })) },
    ],
    { itemMap: DEFAULT_ITEM_MAP },
  );
  if (summary.failed.length) throw new Error(`import failed: ${JSON.stringify(summary.failed)}`);
  await drainQueue(db);
  // The hand-made records are the last ones loaded, in order.
  const bibs = new BibService(db, new ItemService(db));
  const keys = Object.keys(HAND_MADE);
  const last = await bibs.list({ limit: 5000, offset: 0 });
  const tail = last.slice(-keys.length);
  return Object.fromEntries(keys.map((k, i) => [k, tail[i]!.id]));
}
