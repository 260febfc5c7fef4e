// Names of a bib's coded values, for the REST answers, the catalogue pages and the metadata lists:
// bibliographic levels (leader/07) and MARC language codes (008/35-37, 041); countries are in
// countries.ts. Apart from present.ts so that services use them without reaching the REST layer.
import { marcLanguageName, OBSOLETE_MARC_LANGUAGES } from '../marc/languages.ts';

/** The bibliographic levels of leader/07, by code. */
export const BIB_LEVELS: Record<string, string> = {
  a: 'Monographic component part',
  b: 'Serial component part',
  c: 'Collection',
  d: 'Subunit',
  i: 'Integrating resource',
  m: 'Monograph/Item',
  s: 'Serial',
};

// MARC language codes are mostly ISO 639-2/B; the runtime's names, used for other locales, know the
// /T forms of these few.
const BIBLIOGRAPHIC_TO_TERMINOLOGY: Record<string, string> = {
  alb: 'sqi',
  arm: 'hye',
  baq: 'eus',
  bur: 'mya',
  chi: 'zho',
  cze: 'ces',
  dut: 'nld',
  fre: 'fra',
  geo: 'kat',
  ger: 'deu',
  gre: 'ell',
  ice: 'isl',
  mac: 'mkd',
  mao: 'mri',
  may: 'msa',
  per: 'fas',
  rum: 'ron',
  slo: 'slk',
  tib: 'bod',
  wel: 'cym',
};
const namesByLocale = new Map<string, Intl.DisplayNames>();
// Intl.DisplayNames.of costs microseconds a call: a harvest page of 2,000 bibs asks for a few dozen names.
const nameCache = new Map<string, string>();

/**
 * A MARC language code's name in the given locale (English by default); the code when unknown. English
 * names are the MARC list's own, discontinued codes included, so that a catalogue shows the names its
 * cataloguers know; other locales take the runtime's name and fall back to the MARC list's.
 */
export function languageName(code: string, locale = 'en'): string {
  const key = `${locale}\u0000${code}`;
  let name = nameCache.get(key);
  if (name === undefined) {
    name = lookUpLanguageName(code, locale);
    if (nameCache.size < 10_000) nameCache.set(key, name);
  }
  return name;
}

function lookUpLanguageName(code: string, locale: string): string {
  const marc = marcLanguageName(code);
  if (/^en(-|$)/i.test(locale)) return marc ?? code;
  // A record still carrying a discontinued code is named as the code that replaced it; one with no
  // replacement keeps MARC's name, as the runtime reads some old codes as others (esk as Inupiaq).
  const current = Object.hasOwn(OBSOLETE_MARC_LANGUAGES, code) ? OBSOLETE_MARC_LANGUAGES[code]!.replacedBy : code;
  return (current && runtimeName(BIBLIOGRAPHIC_TO_TERMINOLOGY[current] ?? current, locale)) || (marc ?? code);
}

function runtimeName(code: string, locale: string): string | undefined {
  try {
    let names = namesByLocale.get(locale);
    if (!names) {
      names = new Intl.DisplayNames([locale, 'en'], { type: 'language', fallback: 'none' });
      namesByLocale.set(locale, names);
    }
    return names.of(code);
  } catch {
    return undefined;
  }
}
