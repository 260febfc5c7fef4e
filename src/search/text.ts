// Text as the search index and queries see it: case and diacritics folded (é = e, ø = o, ß = ss),
// other scripts kept and folded the same way (Greek accents, Cyrillic ё, Hebrew points, Arabic
// vowel marks), split into words; Chinese, Japanese and Korean, written without spaces between
// words, split into overlapping pairs of characters. The index and the query use these same
// functions, so a word matches exactly when both fold it alike.

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
};
const SPECIAL_RE = new RegExp(`[${Object.keys(SPECIAL).join('')}]`, 'gu');

/** Lower case, without diacritics, with the letters above spelt out. */
export function fold(text: string): string {
  // Й is a letter of its own in Russian and Ukrainian, not И with a mark, and so is a kana with its
  // voicing mark (が is not か): they are put back together before marks go. Decomposition splits a
  // Hangul syllable into its letters (jamo), which are joined again: Korean is searched by syllable.
  return text
    .normalize('NFKD')
    .replace(/([иИ])\u0306/g, (_, i: string) => (i === 'и' ? 'й' : 'Й'))
    .replace(/[\u3040-\u30ff][\u3099\u309a]/g, (kana) => kana.normalize('NFC'))
    .replace(/\p{M}/gu, '')
    .replace(/[\u1100-\u11ff]+/g, (jamo) => jamo.normalize('NFC'))
    .toLowerCase()
    .replace(SPECIAL_RE, (c) => SPECIAL[c]!);
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
 * A light English stemmer for Latin-script words: plurals to singulars (histories → history,
 * boxes → box, cats → cat), leaving words like "glass", "bus", "analysis" alone. Deliberately
 * timid: a stemmed match ranks below an exact one, and a wrong stem costs more than a missed one.
 */
export function stem(word: string): string {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is|ous)$/.test(word)) return word;
  if (/(ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
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
