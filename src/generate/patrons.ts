// Patrons for the synthetic catalogue: patron n of seed s is always the same person, named in one
// of the catalogue's languages, with a barcode, an e-mail address, a patron type, a home library
// (a demo pickup location) and an expiration date, a few of them past.
import type { BulkPatron } from '../patrons/service.ts';
import { Random } from './random.ts';
import { LANGUAGES, LANGUAGE_WEIGHTS } from './vocabulary.ts';

/** What the generator makes of a patron: what the bulk loader takes. */
export type GeneratedPatron = BulkPatron;

/** The PIN every generated patron has (one shared hash: hashing each would take minutes). */
export const GENERATED_PIN = '1234';

/** Patrons per bib in a generated catalogue: about one patron for every ten titles, as in a public library. */
export const PATRONS_PER_BIB = 0.1;

/** The barcode of patron n of a seed. */
export const patronBarcode = (seed: number, n: number) => `2${String(seed % 1000).padStart(3, '0')}${String(n).padStart(9, '0')}`;

const ascii = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');

export function generatePatron(seed: number, n: number): GeneratedPatron {
  const r = new Random(seed, 0x9a7, n);
  const language = LANGUAGES[r.weighted(LANGUAGE_WEIGHTS)]!;
  const surname = r.pick(language.surnames);
  const forename = r.pick(language.forenames);
  const local = ascii(`${forename}.${surname}`) || `patron${n}`;
  const year = 2025 + r.int(0, 4); // a few expired (2025), most current
  return {
    barcode: patronBarcode(seed, n),
    names: [`${surname}, ${forename}`],
    emails: [`${local}${n}@example.org`],
    patronType: Number(r.weighted({ 0: 70, 1: 18, 2: 9, 3: 3 })),
    homeLibraryCode: r.weighted({ mn: 65, ea: 35 }),
    expirationDate: `${year}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`,
  };
}
