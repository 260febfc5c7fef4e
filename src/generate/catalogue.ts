// `carrel generate`: a realistic synthetic catalogue for tests and benchmarks. Record n of seed s is
// always the same MARC 21 record: title and note words drawn from each language's Zipf
// distribution (a few words everywhere, a long tail of rare ones), authors who write many books
// and authors who write one, LCSH-style subjects with their common subdivisions, a spread of
// material types, years and languages, and one to five items in 949 fields (the importer's
// default item mapping) at the demo catalogue's locations.
import { ITEM_STATUS } from '../items/statuses.ts';
import type { DataField, Field, MarcRecord } from '../marc/record.ts';
import { Random, Zipf } from './random.ts';
import { LANGUAGES, LANGUAGE_WEIGHTS, PLACES, SUBDIVISIONS, TOPICS, type Language } from './vocabulary.ts';

/** 001 is `g<seed>-<n>`, 003 this: generating the same seed again updates instead of duplicating. */
export const GENERATED_SOURCE = 'CarrelGen';

/** The 001 of record n of a seed. */
export const controlNumber = (seed: number, n: number) => `g${seed}-${n}`;

/** The barcode of copy c (1-based) of record n of a seed. */
export const itemBarcode = (seed: number, n: number, copy: number) =>
  `3${String(seed % 1000).padStart(3, '0')}${String(n).padStart(9, '0')}${copy}`;

interface Material {
  weight: number;
  /** leader/06 and leader/07 */
  leader: string;
  f007?: string;
  /** 008/23 form of item ('o' online) */
  form?: string;
  extent: (r: Random) => string;
  rda: [content: string, media: string, carrier: string];
  itemType: string;
  callPrefix?: string;
}

const MATERIALS: Record<string, Material> = {
  book: { weight: 64, leader: 'am', extent: (r) => `${r.int(32, 900)} pages ;`, rda: ['text', 'unmediated', 'volume'], itemType: 'book' },
  ebook: {
    weight: 8,
    leader: 'am',
    f007: 'cr |n|||||||||',
    form: 'o',
    extent: (r) => `1 online resource (${r.int(32, 700)} pages)`,
    rda: ['text', 'computer', 'online resource'],
    itemType: 'ebook',
    callPrefix: 'EBOOK',
  },
  serial: {
    weight: 4,
    leader: 'as',
    extent: () => 'volumes ;',
    rda: ['text', 'unmediated', 'volume'],
    itemType: 'serial',
    callPrefix: 'PER',
  },
  audiobook: {
    weight: 4,
    leader: 'im',
    f007: 'sd fsngnnmmned',
    extent: (r) => `${r.int(1, 14)} audio discs ;`,
    rda: ['spoken word', 'audio', 'audio disc'],
    itemType: 'audiobook',
    callPrefix: 'CD BOOK',
  },
  music: {
    weight: 4,
    leader: 'jm',
    f007: 'sd fsngnnmmned',
    extent: () => '1 audio disc ;',
    rda: ['performed music', 'audio', 'audio disc'],
    itemType: 'music',
    callPrefix: 'CD',
  },
  score: {
    weight: 2,
    leader: 'cm',
    extent: (r) => `1 score (${r.int(8, 200)} pages) ;`,
    rda: ['notated music', 'unmediated', 'volume'],
    itemType: 'score',
    callPrefix: 'SCORE',
  },
  map: {
    weight: 2,
    leader: 'em',
    f007: 'aj canzn',
    extent: () => '1 map : color ;',
    rda: ['cartographic image', 'unmediated', 'sheet'],
    itemType: 'map',
    callPrefix: 'MAP',
  },
  video: {
    weight: 7,
    leader: 'gm',
    f007: 'vd cvaizq',
    extent: (r) => `1 videodisc (${r.int(60, 180)} min.) :`,
    rda: ['two-dimensional moving image', 'video', 'videodisc'],
    itemType: 'dvd',
    callPrefix: 'DVD',
  },
  computer: {
    weight: 1,
    leader: 'mm',
    f007: 'co |||||||||',
    extent: () => '1 computer disc ;',
    rda: ['computer program', 'computer', 'computer disc'],
    itemType: 'software',
    callPrefix: 'CDROM',
  },
  mixed: {
    weight: 1,
    leader: 'pc',
    extent: (r) => `${r.int(1, 40)} boxes`,
    rda: ['text', 'unmediated', 'other'],
    itemType: 'archive',
    callPrefix: 'ARCH',
  },
  picture: {
    weight: 1,
    leader: 'km',
    extent: () => '1 print :',
    rda: ['still image', 'unmediated', 'sheet'],
    itemType: 'picture',
    callPrefix: 'ART',
  },
  kit: { weight: 1, leader: 'om', extent: () => '1 kit', rda: ['text', 'unmediated', 'other'], itemType: 'kit', callPrefix: 'KIT' },
  manuscript: {
    weight: 1,
    leader: 'tm',
    extent: (r) => `${r.int(1, 300)} leaves ;`,
    rda: ['text', 'unmediated', 'volume'],
    itemType: 'manuscript',
    callPrefix: 'MS',
  },
};
const MATERIAL_WEIGHTS = Object.fromEntries(Object.entries(MATERIALS).map(([k, m]) => [k, m.weight]));

/** The demo catalogue's locations (src/demo/load.ts), which `carrel generate` makes sure exist. */
const LOCATION_WEIGHTS = { mn: 60, ea: 32, mnref: 8 };

// Tail words: the ranks past each language's real words, spelt from its syllables.
const TAIL_WORDS = 40_000;
const titleWords = new Map<string, Zipf>();
const authorRanks = new Zipf(150_000, 1.0);
const topicRanks = new Zipf(TOPICS.length, 0.9);
const placeRanks = new Zipf(PLACES.length, 1.0);
const seriesRanks = new Zipf(5_000, 1.0);

function wordZipf(language: Language): Zipf {
  let zipf = titleWords.get(language.code);
  if (!zipf) titleWords.set(language.code, (zipf = new Zipf(language.words.length + TAIL_WORDS, 1.15)));
  return zipf;
}

function tailWord(language: Language, rank: number): string {
  const s = language.syllables;
  let word = '';
  let n = rank + s.length; // at least two syllables
  while (n > 0) {
    word += s[n % s.length];
    n = Math.floor(n / s.length);
  }
  return word;
}

function word(language: Language, r: Random): string {
  const rank = wordZipf(language).sample(r);
  return rank < language.words.length ? language.words[rank]! : tailWord(language, rank - language.words.length);
}

function words(language: Language, r: Random, count: number): string {
  const out: string[] = [];
  while (out.length < count) {
    const next = word(language, r);
    if (next !== out[out.length - 1]) out.push(next); // "history history" reads as a mistake
  }
  return out.join(' ');
}

const capitalise = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1);

interface Person {
  inverted: string;
  direct: string;
  dates: string;
}

/** The author of a given rank in a language: the same name and dates wherever that rank appears. */
function person(language: Language, seed: number, rank: number): Person {
  const r = new Random(seed, 0xa07, rank);
  const surname = language.surnames[rank % language.surnames.length]!;
  const forename = language.forenames[Math.floor(rank / language.surnames.length) % language.forenames.length]!;
  const generation = Math.floor(rank / (language.surnames.length * language.forenames.length));
  const initial = generation > 0 ? ` ${String.fromCharCode(65 + (generation % 26))}.` : '';
  const born = r.int(1780, 1995);
  const dates = born < 1945 ? `${born}-${born + r.int(35, 95)}` : `${born}-`;
  return { inverted: `${surname}, ${forename}${initial}`, direct: `${forename}${initial} ${surname}`, dates };
}

function df(tag: string, ind1: string, ind2: string, ...subfields: [string, string][]): DataField {
  return { tag, ind1, ind2, subfields: subfields.map(([code, value]) => ({ code, value })) };
}

function isbn13(r: Random): string {
  const digits = `978${r.int(0, 1)}${String(r.int(0, 99_999_999)).padStart(8, '0')}`;
  const sum = [...digits].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  return digits + ((10 - (sum % 10)) % 10);
}

function isbn10(r: Random): string {
  const digits = `0${String(r.int(0, 99_999_999)).padStart(8, '0')}`;
  const check = (11 - ([...digits].reduce((s, d, i) => s + Number(d) * (10 - i), 0) % 11)) % 11;
  return digits + (check === 10 ? 'X' : String(check));
}

function issn(r: Random): string {
  const digits = String(r.int(0, 9_999_999)).padStart(7, '0');
  const check = (11 - ([...digits].reduce((s, d, i) => s + Number(d) * (8 - i), 0) % 11)) % 11;
  return `${digits.slice(0, 4)}-${digits.slice(4)}${check === 10 ? 'X' : check}`;
}

/** Publication years lean recent, as in a public library; a few go back centuries. */
function year(r: Random): number {
  return Math.max(1500, 2026 - Math.floor(-Math.log(1 - r.next()) * 22));
}

const SUBDIVISION_WEIGHTS = Object.fromEntries(Object.entries(SUBDIVISIONS).map(([text, s]) => [text, s.weight]));

/** A 650: topic, sometimes a place, then "Fiction", "Juvenile literature" or a common subdivision. */
function subject(language: Language, r: Random, fiction: boolean, juvenile: boolean, topic = TOPICS[topicRanks.sample(r)]!): DataField {
  const subfields: [string, string][] = [['a', topic]];
  if (r.chance(0.25)) subfields.push(['z', PLACES[placeRanks.sample(r)]!]);
  if (fiction) subfields.push(['v', juvenile ? 'Juvenile fiction' : 'Fiction']);
  else if (juvenile) subfields.push(['v', 'Juvenile literature']);
  else if (r.chance(0.6)) {
    const text = r.weighted(SUBDIVISION_WEIGHTS);
    subfields.push([SUBDIVISIONS[text]!.code, text]);
  }
  if (language.code !== 'eng' && r.chance(0.1)) subfields.push(['x', 'Translations into English']);
  // ISBD: the heading ends with a full stop unless it ends in a closing mark or hyphen.
  const last = subfields[subfields.length - 1]!;
  if (!/[.)-]$/.test(last[1])) last[1] += '.';
  return df('650', ' ', '0', ...subfields);
}

function deweyFor(topic: string, r: Random): string {
  let h = 0;
  for (const c of topic) h = (h * 31 + c.charCodeAt(0)) % 1000;
  return `${String(h).padStart(3, '0')}.${r.int(1, 99)}`;
}

/** Record n (1-based) of the catalogue for a seed. */
export function generateRecord(seed: number, n: number): MarcRecord {
  const r = new Random(seed, n);
  const language = LANGUAGES[r.weighted(LANGUAGE_WEIGHTS)]!;
  const materialKey = r.weighted(MATERIAL_WEIGHTS);
  const material = MATERIALS[materialKey]!;
  const published = materialKey === 'ebook' || materialKey === 'video' ? Math.max(1990, year(r)) : year(r);
  const juvenile = r.chance(0.15);
  const fiction = (materialKey === 'book' || materialKey === 'ebook' || materialKey === 'audiobook') && r.chance(juvenile ? 0.6 : 0.4);
  const author = person(language, seed, authorRanks.sample(r));
  const where = r.pick(language.places);
  const entered = `${String(r.int(0, 25)).padStart(2, '0')}${String(r.int(1, 12)).padStart(2, '0')}${String(r.int(1, 28)).padStart(2, '0')}`;
  const bookPart = `    ${juvenile ? 'j' : ' '}${material.form ?? ' '}     00${r.chance(0.3) ? '1' : '0'} ${fiction ? '1' : '0'} `;
  const specific = material.leader[0] === 'a' ? bookPart : ' '.repeat(17);

  const fields: Field[] = [
    { tag: '001', value: controlNumber(seed, n) },
    { tag: '003', value: GENERATED_SOURCE },
  ];
  if (material.f007) fields.push({ tag: '007', value: material.f007 });
  fields.push({ tag: '008', value: `${entered}s${published}    ${where.country.padEnd(3)}${specific}${language.code} d` });
  if (material.leader[0] === 'a' && material.leader[1] === 'm' && r.chance(0.85)) {
    const qualifier = r.weighted({ '': 6, ' (hardcover)': 2, ' (paperback)': 2, ' (ebook)': materialKey === 'ebook' ? 4 : 0 });
    fields.push(df('020', ' ', ' ', ['a', (published >= 2007 ? isbn13(r) : isbn10(r)) + qualifier]));
  }
  if (material.leader[1] === 's') fields.push(df('022', '0', ' ', ['a', issn(r)]));
  fields.push(df('035', ' ', ' ', ['a', `(OCoLC)${seed * 100_000_000 + n}`]));
  fields.push(df('040', ' ', ' ', ['a', GENERATED_SOURCE], ['b', 'eng'], ['e', 'rda'], ['c', GENERATED_SOURCE]));
  const firstTopic = TOPICS[topicRanks.sample(new Random(seed, n, 0x70))]!;
  if (!fiction) fields.push(df('082', '0', '4', ['a', deweyFor(firstTopic, r)], ['2', '23']));
  const hasAuthor = material.leader[1] !== 's' && r.chance(0.9);
  if (hasAuthor) fields.push(df('100', '1', ' ', ['a', `${author.inverted},`], ['d', author.dates], ['e', 'author.']));

  const article = language.code === 'eng' && r.chance(0.2) ? 'The ' : '';
  const title = `${article}${capitalise(words(language, r, r.int(1, 5)))}`;
  const subtitle = r.chance(0.35) ? words(language, r, r.int(2, 6)) : undefined;
  const statement = hasAuthor ? author.direct : undefined;
  const title245: [string, string][] = [['a', `${title}${subtitle ? ' :' : statement ? ' /' : '.'}`]];
  if (subtitle) title245.push(['b', `${subtitle}${statement ? ' /' : '.'}`]);
  if (statement) title245.push(['c', `${statement}.`]);
  fields.push(df('245', hasAuthor ? '1' : '0', String(article.length), ...title245));
  if (r.chance(0.08)) fields.push(df('250', ' ', ' ', ['a', `${r.int(2, 12)}th edition.`]));
  fields.push(df('264', ' ', '1', ['a', `${where.place} :`], ['b', `${r.pick(where.publishers)},`], ['c', `${published}.`]));
  fields.push(df('300', ' ', ' ', ['a', material.extent(r)], ['c', materialKey === 'video' ? '4 3/4 in.' : `${r.int(18, 31)} cm`]));
  fields.push(df('336', ' ', ' ', ['a', material.rda[0]], ['2', 'rdacontent']));
  fields.push(df('337', ' ', ' ', ['a', material.rda[1]], ['2', 'rdamedia']));
  fields.push(df('338', ' ', ' ', ['a', material.rda[2]], ['2', 'rdacarrier']));
  const series = r.chance(0.15) ? capitalise(words(language, new Random(seed, 0x5e, seriesRanks.sample(r)), 2)) : undefined;
  if (series) fields.push(df('490', '1', ' ', ['a', `${series} ;`], ['v', String(r.int(1, 40))]));
  if (r.chance(0.25))
    fields.push(
      df('500', ' ', ' ', [
        'a',
        r.pick([
          'Includes bibliographical references and index.',
          'Includes index.',
          'Translated from the original.',
          'Originally published: 1998.',
          'Illustrated by the author.',
        ]),
      ]),
    );
  if (r.chance(0.3)) fields.push(df('520', ' ', ' ', ['a', `${capitalise(words(language, r, r.int(10, 30)))}.`]));
  const subjects = r.int(1, 3);
  for (let i = 0; i < subjects; i++) fields.push(subject(language, r, fiction, juvenile, i === 0 ? firstTopic : undefined));
  if (r.chance(0.15)) fields.push(df('651', ' ', '0', ['a', PLACES[placeRanks.sample(r)]!], ['x', 'History.']));
  if (r.chance(0.2)) {
    const other = person(language, seed, authorRanks.sample(r));
    fields.push(
      df('700', '1', ' ', ['a', `${other.inverted},`], ['d', other.dates], ['e', r.pick(['editor.', 'illustrator.', 'translator.'])]),
    );
  }
  if (series) fields.push(df('830', ' ', '0', ['a', `${series}.`]));

  const copies = materialKey === 'ebook' ? 1 : Number(r.weighted({ 1: 40, 2: 25, 3: 15, 4: 12, 5: 8 }));
  const callNumber = fiction
    ? `${juvenile ? 'J ' : ''}FIC ${author.inverted.slice(0, 3).toLocaleUpperCase()}`
    : `${material.callPrefix ? `${material.callPrefix} ` : ''}${deweyFor(firstTopic, new Random(seed, n, 0xca))} ${(hasAuthor ? author.inverted : title).slice(0, 3).toLocaleUpperCase()}`;
  for (let copy = 1; copy <= copies; copy++) {
    const location = materialKey === 'ebook' ? 'mn' : r.weighted(LOCATION_WEIGHTS);
    const status =
      location === 'mnref'
        ? ITEM_STATUS.libraryUseOnly
        : r.weighted({
            [ITEM_STATUS.available]: 94,
            [ITEM_STATUS.inTransit]: 2,
            [ITEM_STATUS.missing]: 1,
            [ITEM_STATUS.inProcessing]: 2,
            [ITEM_STATUS.damaged]: 1,
          });
    fields.push(
      df('949', ' ', '1', ['a', callNumber], ['i', itemBarcode(seed, n, copy)], ['l', location], ['s', status], ['t', material.itemType]),
    );
  }
  return { leader: `00000n${material.leader} a2200000 i 4500`, fields };
}

/** Records from..to (inclusive) of a seed, in order. */
export function* generateRecords(seed: number, from: number, to: number): Generator<MarcRecord> {
  for (let n = from; n <= to; n++) yield generateRecord(seed, n);
}
