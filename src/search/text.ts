// Text as the search index and queries see it: case and diacritics folded (é = e, ø = o, ß = ss),
// other scripts kept and folded the same way (Greek accents, Cyrillic ё, Hebrew points, Arabic
// vowel marks and letter variants, traditional Chinese characters as simplified ones), split into
// words; Chinese, Japanese and Korean, written without spaces between words, split into
// overlapping pairs of characters. The index and the query use these same functions, so a word
// matches exactly when both fold it alike.
import { to } from 'opencc-js/preset/t2cn';

// Letters that Unicode decomposition does not reduce to a base letter and mark (lower case: they are
// replaced after lower-casing, which is also what turns a word-final Σ into ς).
const SPECIAL: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ø: 'o',
  Ø: 'o',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  ł: 'l',
  Ł: 'l',
  þ: 'th',
  Þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
  ŋ: 'ng',
  ſ: 's',
  ς: 'σ',
  ʹ: '',
  ʻ: '',
  ʼ: '',
  // Arabic tatweel: a stroke that stretches a word for layout, not a letter.
  ـ: '',
  // Arabic letters written one way or another for the same word, folded as Arabic search engines
  // fold them (alef with hamza or madda is already plain alef once its mark goes, and so are waw and
  // yeh with hamza): alef wasla, alef maksura as yeh, teh marbuta as heh; the Persian and Urdu
  // keheh, yeh and heh goal as the Arabic kaf, yeh and heh, since keyboards give either.
  '\u0671': '\u0627',
  '\u0649': '\u064a',
  '\u0629': '\u0647',
  '\u06a9': '\u0643',
  '\u06cc': '\u064a',
  '\u06c1': '\u0647',
};
// Hebrew final letters (ך ם ן ף ץ) are not folded: a word ends in its final form in the record and in
// the query alike, typed with keys of their own, so folding them would merge nothing that differs.

/**
 * Traditional Chinese characters by their simplified forms, one character for one (OpenCC's table),
 * so that a search in either form finds a record catalogued in the other. Converting phrases as
 * words is not needed for that, since the index and the query fold alike; traditional characters
 * that share one simplified form (發, 髮 → 发) find each other, as a simplified search would.
 */
const SIMPLIFIED: ReadonlyMap<string, string> = simplifiedForms();

function simplifiedForms(): Map<string, string> {
  // The package's type declarations name their modules without extensions, which NodeNext does not
  // resolve: its tables are read as unknown and checked. They are strings: "亂 乱|臺 台|…".
  const tables: unknown = to.cn;
  const forms = new Map<string, string>();
  for (const table of Array.isArray(tables) ? (tables.flat() as unknown[]) : []) {
    if (typeof table !== 'string') continue;
    for (const entry of table.split('|')) {
      const [from, into] = entry.split(' ');
      // The tables also hold whole phrases, converted by context, which one character at a time skips.
      if (from && into && from !== into && [...from].length === 1 && [...into].length === 1) forms.set(from, into);
    }
  }
  if (forms.size === 0) throw new Error('opencc-js has no table into simplified Chinese');
  // A simplified form that is itself converted (薴 → 苧 → 苎) is followed to the end, so that text
  // folded twice is folded as once and both of its forms reach the same character.
  for (const [from, into] of forms) {
    let end = into;
    for (let steps = 0; forms.has(end) && steps < forms.size; steps++) end = forms.get(end)!;
    forms.set(from, end);
  }
  return forms;
}

/**
 * The characters fold replaces one at a time: the letters above, and those of the Han blocks the
 * table converts (one pass over the text for both, since most text has neither).
 */
const REPLACED = new RegExp(`[${Object.keys(SPECIAL).join('')}\\u3400-\\u4dbf\\u4e00-\\u9fff\\u{20000}-\\u{3134f}]`, 'gu');

/**
 * Pairs that decomposition would wrongly take apart, put back together before marks go: Й is a
 * letter of its own in Russian and Ukrainian, not И with a mark; the Persian heh with yeh above
 * (ۀ) would become ە, a vowel of its own in Kurdish, where it is heh.
 */
const RECOMPOSED: Record<string, string> = { 'и\u0306': 'й', 'И\u0306': 'Й', '\u06d5\u0654': '\u0647' };

/** Lower case, without diacritics, with the letters above spelt out and Chinese simplified. */
export function fold(text: string): string {
  // Like Й (RECOMPOSED), a kana with its voicing mark is a letter of its own (が is not か), put back
  // together before marks go. Decomposition splits a Hangul syllable into its letters (jamo), which
  // are joined again: Korean is searched by syllable.
  return text
    .normalize('NFKD')
    .replace(/[иИ]\u0306|\u06d5\u0654/g, (pair) => RECOMPOSED[pair]!)
    .replace(/[\u3040-\u30ff][\u3099\u309a]/g, (kana) => kana.normalize('NFC'))
    .replace(/\p{M}/gu, '')
    .replace(/[\u1100-\u11ff]+/g, (jamo) => jamo.normalize('NFC'))
    .toLowerCase()
    .replace(REPLACED, (c) => SPECIAL[c] ?? SIMPLIFIED.get(c) ?? c);
}

/** Han, kana and Hangul: scripts whose words are not spaced apart (ー, 々 and the like included). */
const CJK = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}';
const HAS_CJK = new RegExp(`[${CJK}]`, 'u');
const CJK_RUNS = new RegExp(`([${CJK}]+)`, 'u');

/**
 * A run of Chinese, Japanese or Korean characters as its overlapping pairs ("图书馆" → "图书",
 * "书馆"), as CJK search engines index it when they have no dictionary: a two-character word is
 * one pair, and a longer one a phrase of pairs. A character standing alone stays a word.
 */
function pairsOf(run: string): string[] {
  const chars = [...run];
  if (chars.length === 1) return [run];
  return chars.slice(1).map((c, i) => chars[i]! + c);
}

/** A word with CJK in it: its other letters or digits as words, each CJK run as its pairs. */
function segmented(word: string): string[] {
  if (!HAS_CJK.test(word)) return [word];
  // Split by a captured pattern, the runs are the odd parts.
  return word.split(CJK_RUNS).flatMap((part, i) => (part === '' ? [] : i % 2 ? pairsOf(part) : [part]));
}

/**
 * The words of a text, folded. Letters and digits make words; everything else separates them; a
 * CJK run is split into pairs of characters (segmented).
 */
export function words(text: string): string[] {
  return fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .flatMap(segmented);
}

/**
 * A light English stemmer for Latin-script words: inflections only, as the first steps of the
 * Snowball (Porter 2) English stemmer take them. Plurals to singulars (histories → history, boxes →
 * box, cats → cat, leaving glass, bus, analysis alone) and -ing and -ed forms to their verb
 * (learning → learn, hoping → hope, stopped → stop, agreed → agree, studied → study), so a search
 * for one finds the others. Derivations (-ation, -ness, -al, -ive, …), which Snowball's later steps
 * strip, are kept: they join words a catalogue keeps apart (organization and organ, university and
 * universe, policy and police), where a wrong stem costs more than a missed one.
 */
export function stem(word: string): string {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return word;
  if (KEPT.has(word)) return word;
  const one = singular(word);
  return KEPT.has(one) ? one : verb(one);
}

function singular(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is|ous)$/.test(word)) return word;
  if (/(ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

/** Words Snowball leaves whole though they look inflected, and the few whose verb it spells out. */
const KEPT = new Set(['inning', 'outing', 'canning', 'herring', 'earring', 'proceed', 'exceed', 'succeed', 'news']);
const IRREGULAR: Record<string, string> = { dying: 'die', lying: 'lie', tying: 'tie' };

/**
 * A vowel, as Snowball counts them: "y" too, except at the start of a word ("ying" keeps its ending;
 * Snowball also counts a "y" after a vowel a consonant, which changes nothing in the steps here).
 */
function vowelAt(word: string, i: number): boolean {
  return 'aeiou'.includes(word[i]!) || (word[i] === 'y' && i > 0);
}

/**
 * Where Snowball's R1 starts: after the first consonant that follows a vowel (a few prefixes count
 * whole, so "communed" is read as commun-ed, a short word that lost its "e").
 */
function r1(word: string): number {
  const prefix = /^(gener|commun|arsen)/.exec(word);
  if (prefix) return prefix[0].length;
  for (let i = 1; i < word.length; i++) if (!vowelAt(word, i) && vowelAt(word, i - 1)) return i + 1;
  return word.length;
}

/** Whether a word ends in a short syllable ("hop", "at"), which a lost final "e" leaves behind. */
function shortEnd(word: string): boolean {
  const n = word.length;
  if (n === 2) return vowelAt(word, 0) && !vowelAt(word, 1);
  return n > 2 && !vowelAt(word, n - 3) && vowelAt(word, n - 2) && !vowelAt(word, n - 1) && !/[wxy]$/.test(word);
}

/**
 * Snowball's step 1b: -eed and -eedly to -ee in R1 (agreed → agree, not need → ne); -ed, -edly,
 * -ing and -ingly gone when what is left has a vowel (not sing, red, thing), then an "e" put back
 * (hoping → hope, created → create) or a doubled consonant undone (stopped → stop).
 */
function verb(word: string): string {
  if (IRREGULAR[word]) return IRREGULAR[word];
  // As -ies goes to -y (studies, study), -ied does, except after one letter (tied → tie).
  if (word.endsWith('ied')) return word.length > 4 ? `${word.slice(0, -3)}y` : word.slice(0, -1);
  const eed = /eed(ly)?$/.exec(word);
  if (eed) return eed.index >= r1(word) ? word.slice(0, eed.index + 2) : word;
  const suffix = /(ed|edly|ing|ingly)$/.exec(word);
  if (!suffix) return word;
  const base = word.slice(0, suffix.index);
  if (![...base].some((_, i) => vowelAt(base, i))) return word;
  if (/(at|bl|iz)$/.test(base)) return `${base}e`;
  if (/(bb|dd|ff|gg|mm|nn|pp|rr|tt)$/.test(base)) return base.slice(0, -1);
  if (r1(base) >= base.length && shortEnd(base)) return `${base}e`;
  return base;
}

/** Words too common to narrow a search on their own: a query's other words decide. */
export const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'from',
  'in',
  'into',
  'is',
  'it',
  'not',
  'of',
  'on',
  'or',
  'that',
  'the',
  'their',
  'this',
  'to',
  'was',
  'with',
  'le',
  'la',
  'les',
  'de',
  'des',
  'du',
  'et',
  'un',
  'une',
  'der',
  'die',
  'das',
  'und',
  'el',
  'los',
  'las',
  'y',
  'il',
  'di',
]);

/** Digits of an ISBN in its 13-digit form (ISBN-10 converted), or undefined when it is not one. */
export function isbn13(raw: string): string | undefined {
  const digits = raw.replace(/[\s-]/g, '').toUpperCase();
  if (/^97[89]\d{10}$/.test(digits)) return digits;
  if (!/^\d{9}[\dX]$/.test(digits)) return undefined;
  const core = `978${digits.slice(0, 9)}`;
  const sum = [...core].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  return core + ((10 - (sum % 10)) % 10);
}
