// Generates src/marc/marc8-tables.ts: the MARC-8 character sets as Unicode, read from yaz's
// MARC-8 decoder (yaz-iconv, built from the Library of Congress MARC-8 code tables).
//
// Needs: Node 20 and yaz-iconv on the PATH (Debian: `apt-get install yaz`). Only this script needs
// yaz; the generated module is committed and nothing at run time or in CI uses yaz.
// Run from the project root:   node scripts/marc8-tables.mjs [--check-marc-charset]
// It rewrites src/marc/marc8-tables.ts and prints a summary to stderr. --check-marc-charset also
// compares every table with MARC::Charset's compilation of the LC tables (needs Debian's
// libmarc-charset-perl) and lists every difference.
//
// How: every code of every set is fed to yaz-iconv, many codes per process, each probe between
// an ASCII tag and a closing '~':  {tag} ESC-designation CODE ESC-back-to-ASCII ~
// yaz writes a spacing character in place ("{tag}X~") and a combining one after the next base
// character ("{tag}~X"), so the output tells both the character and whether the LC tables call it
// combining. A code yaz does not map comes out as nothing ("{tag}~").
// yaz-iconv reads its input 64 bytes at a time and mishandles a character or escape sequence cut
// by a read (it drops it, or writes a mark before its base): so every probe fills a 32-byte slot
// (padded with 0x1F, which yaz passes through and is removed again), and no probe is ever cut.
// Every set is probed twice, the second run shifted by one slot, and the runs must agree; the
// single-byte sets are probed again designated as G1 (high bit set) and ANSEL again as G0, and
// EACC again as G1, and those readings must agree too. Any disagreement stops the script.
// EACC (the CJK set, 3 bytes a character) is probed over all 94 x 95 x 95 codes in one input.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'src/marc/marc8-tables.ts');
const ESC = 0x1b;
const ascii = (s) => [...s].map((c) => c.charCodeAt(0));
const TO_ASCII = [ESC, ...ascii('(B')];

/** The single-byte sets: the key the decoder uses, its name, and how to reach it as G0 / G1. */
const SETS = [
  { key: 'B', name: 'ASCII', g0: [ESC, ...ascii('(B')], g1: [ESC, ...ascii(')B')] },
  { key: '!E', name: 'ANSEL extended Latin', g0: [ESC, ...ascii('(!E')], g1: [ESC, ...ascii(')!E')] },
  { key: '2', name: 'basic Hebrew', g0: [ESC, ...ascii('(2')], g1: [ESC, ...ascii(')2')] },
  { key: 'N', name: 'basic Cyrillic', g0: [ESC, ...ascii('(N')], g1: [ESC, ...ascii(')N')] },
  { key: 'Q', name: 'extended Cyrillic', g0: [ESC, ...ascii('(Q')], g1: [ESC, ...ascii(')Q')] },
  { key: '3', name: 'basic Arabic', g0: [ESC, ...ascii('(3')], g1: [ESC, ...ascii(')3')] },
  { key: '4', name: 'extended Arabic', g0: [ESC, ...ascii('(4')], g1: [ESC, ...ascii(')4')] },
  { key: 'S', name: 'basic Greek', g0: [ESC, ...ascii('(S')], g1: [ESC, ...ascii(')S')] },
  // Technique 1: MARC's own sets, G0 only, left with ESC s.
  { key: 'g', name: 'Greek symbols', g0: [ESC, ...ascii('g')], back: [ESC, ...ascii('s')] },
  { key: 'b', name: 'subscripts', g0: [ESC, ...ascii('b')], back: [ESC, ...ascii('s')] },
  { key: 'p', name: 'superscripts', g0: [ESC, ...ascii('p')], back: [ESC, ...ascii('s')] },
];
const ANSEL_G1 = [ESC, ...ascii(')!E')];
const EACC_G0 = [ESC, ...ascii('$1')];
const EACC_G1 = [ESC, ...ascii('$)1')];

function yazVersion() {
  try {
    return execFileSync('dpkg-query', ['-W', '-f', '${Version}', 'yaz'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown version';
  }
}

const SLOT = 32;
const PAD = 0x1f;

/**
 * Runs the probes through one yaz-iconv process. Each probe is { bytes, restore }: the bytes that
 * select the set and the code, and the bytes that return to the default sets afterwards. `shift`
 * empty slots go first. Returns, per probe, undefined (not mapped) or { text, combining }.
 */
function probe(probes, shift = 0) {
  const input = Buffer.alloc((probes.length + shift) * SLOT, PAD);
  const tags = probes.map((_, i) => `{${i.toString(36)}}`);
  probes.forEach((p, i) => {
    const bytes = [...Buffer.from(tags[i], 'latin1'), ...p.bytes, ...p.restore, 0x7e];
    if (bytes.length > SLOT) throw new Error(`probe ${i} is longer than a slot`);
    input.set(bytes, (i + shift) * SLOT);
  });
  const result = spawnSync('yaz-iconv', ['-f', 'marc8', '-t', 'utf8'], { input, maxBuffer: 1 << 30 });
  if (result.error) throw new Error(`yaz-iconv could not run (${result.error.message}); install it: apt-get install yaz`);
  if (result.status !== 0 || result.stderr.length > 0) throw new Error(`yaz-iconv failed: ${result.stderr.toString()}`);
  const out = result.stdout.toString('utf8').replaceAll(String.fromCharCode(PAD), '');
  let at = 0;
  return probes.map((_, i) => {
    if (!out.startsWith(tags[i], at)) throw new Error(`yaz output out of step at probe ${i}: ${JSON.stringify(out.slice(at, at + 40))}`);
    const from = at + tags[i].length;
    const next = i + 1 < tags.length ? out.indexOf(tags[i + 1], from) : out.length;
    if (next < 0) throw new Error(`yaz output lost probe ${i + 1}`);
    at = next;
    const segment = out.slice(from, next);
    if (segment === '~') return undefined;
    if (segment.endsWith('~')) return { text: segment.slice(0, -1), combining: false };
    if (segment.startsWith('~')) return { text: segment.slice(1), combining: true };
    throw new Error(`unexpected yaz output for probe ${i}: ${JSON.stringify(segment)}`);
  });
}

const problems = [];
const notes = [];
const same = (a, b) =>
  (a === undefined && b === undefined) || (a !== undefined && b !== undefined && a.text === b.text && a.combining === b.combining);
const isMark = (text) => /^\p{M}+$/u.test(text);
const hex = (n, width = 2) => n.toString(16).toUpperCase().padStart(width, '0');

// --- single-byte sets, 0x21-0x7E as G0, and again as G1 (0xA1-0xFE) where the set can be G1.
const codes = Array.from({ length: 94 }, (_, i) => 0x21 + i);
const single = [];
/** The probes twice, the second run shifted by a slot; the two runs must agree. */
function probeTwice(name, probes) {
  const [first, second] = [probe(probes), probe(probes, 1)];
  probes.forEach((_, i) => {
    if (!same(first[i], second[i]))
      problems.push(`${name} probe ${i}: two runs disagree: ${JSON.stringify(first[i])}, ${JSON.stringify(second[i])}`);
  });
  return first;
}
for (const set of SETS) {
  const g0 = probeTwice(
    set.name,
    codes.map((c) => ({ bytes: [...set.g0, c], restore: set.back ?? TO_ASCII })),
  );
  if (set.g1) {
    const g1 = probeTwice(
      set.name,
      codes.map((c) => ({ bytes: [...set.g1, c | 0x80], restore: ANSEL_G1 })),
    );
    codes.forEach((c, i) => {
      if (!same(g0[i], g1[i])) problems.push(`${set.name} 0x${hex(c)}: as G0 ${JSON.stringify(g0[i])}, as G1 ${JSON.stringify(g1[i])}`);
    });
  }
  single.push({ set, chars: g0 });
}

// ANSEL in its default place (G1, no escape), and the C1 controls MARC-8 defines (0x80-0xA0).
const high = Array.from({ length: 128 }, (_, i) => 0x80 + i);
const anselDefault = probeTwice(
  'ANSEL in G1',
  high.map((b) => ({ bytes: [b], restore: [] })),
);
const ansel = single.find((s) => s.set.key === '!E');
high.forEach((b, i) => {
  if (b >= 0xa1 && b <= 0xfe && !same(anselDefault[i], ansel.chars[b - 0xa1])) {
    problems.push(
      `ANSEL 0x${hex(b)}: default G1 ${JSON.stringify(anselDefault[i])}, designated G0 ${JSON.stringify(ansel.chars[b - 0xa1])}`,
    );
  }
});
const c1 = high.flatMap((b, i) => (b < 0xa0 && anselDefault[i] ? [[b, anselDefault[i]]] : []));

// --- EACC: every 3-byte code, first byte 0x21-0x7E, the others 0x20-0x7E (a few codes, such as
// 0x212320 IDEOGRAPHIC SPACE, have a 0x20 inside).
const eaccCodes = [];
for (let a = 0x21; a <= 0x7e; a++)
  for (let b = 0x20; b <= 0x7e; b++) for (let c = 0x20; c <= 0x7e; c++) eaccCodes.push((a << 16) | (b << 8) | c);
const eaccFound = probeTwice(
  'EACC',
  eaccCodes.map((code) => ({ bytes: [...EACC_G0, code >> 16, (code >> 8) & 0xff, code & 0xff], restore: TO_ASCII })),
);
const eacc = [];
eaccCodes.forEach((code, i) => {
  const found = eaccFound[i];
  // yaz reads every 0x20 in EACC text as a space, even inside a code: "0x21 0x20 0x20" comes out
  // as spaces, which is yaz's reading of the bytes, not a mapping of the code.
  if (!found || found.text.includes(' ')) return;
  if (found.combining) problems.push(`EACC 0x${hex(code, 6)} is combining in yaz`);
  eacc.push([code, found.text]);
});
const eaccG1 = probe(
  eacc.map(([code]) => ({
    bytes: [...EACC_G1, (code >> 16) | 0x80, ((code >> 8) & 0xff) | 0x80, (code & 0xff) | 0x80],
    restore: ANSEL_G1,
  })),
);
eacc.forEach(([code, text], i) => {
  if (eaccG1[i]?.text !== text) problems.push(`EACC 0x${hex(code, 6)}: as G0 ${JSON.stringify(text)}, as G1 ${JSON.stringify(eaccG1[i])}`);
});

// EACC codes in the LC table that yaz cannot read, with a 0x20 in the middle (yaz takes it for a
// space). From the LC table as compiled in Debian's libmarc-charset-perl 1.35 (MARC::Charset);
// --check-marc-charset confirms them. That table also has four codes that start with DEL (0x7F),
// 0x7F2014, 0x7F2019, 0x7F2020 and 0x7F2122, named after the Unicode punctuation they map to (EM
// DASH U+2014 and so on), outside EACC's range (its bytes are 0x21-0x7E): left out, as is yaz.
const EACC_SUPPLEMENT = [
  [0x21203d, '\u2026'], // HORIZONTAL ELLIPSIS
  [0x212040, '\u201c'], // LEFT DOUBLE QUOTATION MARK
];
for (const [code, text] of EACC_SUPPLEMENT) {
  if (eacc.some(([known]) => known === code))
    problems.push(`EACC 0x${hex(code, 6)} is in the supplement but yaz maps it now: drop it from the supplement`);
  eacc.push([code, text]);
}
eacc.sort((a, b) => a[0] - b[0]);

// --- what yaz calls combining should be what Unicode calls a mark (reported, not fatal: the LC
// tables have the last word).
for (const { set, chars } of single) {
  chars.forEach((found, i) => {
    if (found && found.combining !== isMark(found.text)) {
      notes.push(
        `${set.name} 0x${hex(0x21 + i)} -> ${[...found.text].map((ch) => `U+${hex(ch.codePointAt(0), 4)}`).join(' ')}: yaz combining=${found.combining}, Unicode mark=${isMark(found.text)}`,
      );
    }
  });
}

// --- optional: the same tables from a second compilation of the LC tables, MARC::Charset.
if (process.argv.includes('--check-marc-charset')) {
  const perl = `use MARC::Charset::Table; use Storable qw(thaw);
    my $db = MARC::Charset::Table->new()->db();
    while (my ($k, $v) = each %$db) { next unless $k =~ /:/; my $c = thaw($v);
      printf "%s\\t%s\\t%s\\t%d\\n", uc $c->charset(), uc $c->marc(), uc $c->ucs(), $c->is_combining() ? 1 : 0; }`;
  const dump = spawnSync('perl', ['-e', perl], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (dump.status !== 0)
    throw new Error(`MARC::Charset is needed for --check-marc-charset (apt-get install libmarc-charset-perl): ${dump.stderr}`);
  const theirs = new Map(
    dump.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t'))
      .map(([set, marc, ucs, comb]) => [`${set}:${marc}`, `U+${ucs}${comb === '1' ? ' combining' : ''}`]),
  );
  const ours = new Map();
  const describe = (text, combining) => `U+${hex(text.codePointAt(0), 4)}${combining ? ' combining' : ''}`;
  // MARC::Charset names sets by their final character in hex, and keeps ANSEL and the two
  // extended sets under their G1 codes.
  for (const { set, chars } of single) {
    const id = hex(set.key.at(-1).charCodeAt(0));
    chars.forEach((found, i) => {
      if (!found) return;
      const code = 0x21 + i;
      const key = theirs.has(`${id}:${hex(code | 0x80)}`) ? `${id}:${hex(code | 0x80)}` : `${id}:${hex(code)}`;
      ours.set(key, describe(found.text, found.combining));
    });
  }
  for (const [b, found] of c1) ours.set(`45:${hex(b)}`, describe(found.text, false));
  for (const [code, text] of eacc) ours.set(`31:${hex(code, 6)}`, describe(text, false));
  const differ = [...ours]
    .filter(([key, value]) => theirs.has(key) && theirs.get(key) !== value)
    .map(([key, value]) => `${key}: here ${value}, MARC::Charset ${theirs.get(key)}`);
  const onlyHere = [...ours.keys()].filter((key) => !theirs.has(key));
  const onlyThere = [...theirs].filter(([key]) => !ours.has(key)).map(([key, value]) => `${key} ${value}`);
  console.error(
    `MARC::Charset: ${theirs.size} codes, ${differ.length} differ, ${onlyHere.length} only here, ${onlyThere.length} only there`,
  );
  for (const line of [...differ, ...onlyHere.map((key) => `${key} only here`), ...onlyThere.map((line) => `${line} only in MARC::Charset`)])
    console.error(`  ${line}`);
}

if (problems.length) {
  console.error(`yaz gave ${problems.length} inconsistent readings; nothing written:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}

// --- write the module.
/**
 * A string literal: printable ASCII as it is, CJK and other East Asian letters (U+3000 and up,
 * outside the private use area) as themselves, everything else (Hebrew and Arabic, marks,
 * controls, private use) as \\u escapes, so the source shows no right-to-left text or loose marks.
 */
function literal(text) {
  let s = "'";
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (cp >= 0x20 && cp < 0x7f && ch !== "'" && ch !== '\\') s += ch;
    else if (cp >= 0x3000 && !(cp >= 0xe000 && cp <= 0xf8ff) && /^[\p{L}\p{N}]$/u.test(ch)) s += ch;
    else s += cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${hex(cp, 4).toLowerCase()}`;
  }
  return `${s}'`;
}

// Single-byte sets: 94 characters for 0x21-0x7E, '\u0000' where the set has none; every character
// of every set is one UTF-16 unit (checked here), so index = code - 0x21.
const lines = [];
for (const { set, chars } of single) {
  const multi = chars.find((found) => found && found.text.length !== 1);
  if (multi) throw new Error(`${set.name}: ${JSON.stringify(multi)} is not one UTF-16 unit; the module format needs changing`);
  const text = chars.map((found) => (found ? found.text : '\u0000')).join('');
  const combining = codes.filter((_, i) => chars[i]?.combining).map((c) => `0x${hex(c).toLowerCase()}`);
  lines.push(`  // ${set.name}: ${chars.filter(Boolean).length} characters, ${combining.length} combining`);
  lines.push(`  ${/^[A-Za-z_]\w*$/.test(set.key) ? set.key : `'${set.key}'`}: {`);
  lines.push(`    name: '${set.name}',`);
  lines.push(`    chars: ${literal(text)},`);
  lines.push(`    combining: [${combining.join(', ')}],`);
  lines.push('  },');
}

// EACC: codes in order, as runs. Each run is "gap length" in base 36, the gap counted from the end
// of the run before (from 0 for the first), "," between runs; the characters are one string, in
// the same order, one code point each.
const multiEacc = eacc.find(([, text]) => [...text].length !== 1);
if (multiEacc)
  throw new Error(
    `EACC 0x${hex(multiEacc[0], 6)} maps to ${JSON.stringify(multiEacc[1])}, more than one code point; the module format needs changing`,
  );
const runs = [];
for (const [code] of eacc) {
  const last = runs.at(-1);
  if (last && last[0] + last[1] === code) last[1]++;
  else runs.push([code, 1]);
}
const astral = eacc.filter(([, text]) => text.length === 2).length;
const eaccRuns = runs
  .map(([start, length], i) => `${(start - (i ? runs[i - 1][0] + runs[i - 1][1] : 0)).toString(36)} ${length.toString(36)}`)
  .join(',');
const eaccChars = eacc.map(([, text]) => text).join('');

const module = `// GENERATED by \`node scripts/marc8-tables.mjs\`: do not edit. Read from yaz-iconv ${yazVersion()} (yaz's
// MARC-8 decoder, built from the Library of Congress MARC-8 code tables), one probe per code, but
// for ${EACC_SUPPLEMENT.length} EACC codes yaz cannot read, taken from MARC::Charset's compilation of the same tables.
// Decoding logic is in marc8.ts.

export interface SingleByteSet {
  name: string;
  /** 94 characters for the codes 0x21-0x7E (as G1: 0xA1-0xFE); '\\u0000' where the set has none. */
  chars: string;
  /** The codes (0x21-0x7E) of combining marks, which MARC-8 writes before their base character. */
  combining: number[];
}

/**
 * The single-byte sets by final character of their escape sequence (technique 2: ESC ( F and the
 * like) or, for MARC's own technique 1 sets, the character after ESC ('g', 'b', 'p').
 */
export const SINGLE_BYTE_SETS: Record<string, SingleByteSet> = {
${lines.join('\n')}
};

/** The C1 controls of MARC-8 that have a Unicode mapping (0x80-0x9F), readable whatever G1 holds. */
export const C1_CONTROLS: Record<number, string> = {
${c1.map(([b, found]) => `  0x${hex(b).toLowerCase()}: ${literal(found.text)},`).join('\n')}
};

/**
 * EACC (East Asian Character Code, ESC $ 1): ${eacc.length} codes of three bytes, ${astral} of them outside the BMP.
 * EACC_RUNS lists the mapped codes in order as runs of consecutive codes, comma-separated, each
 * "gap length" in base 36: the gap from the end of the run before (the first run's from 0) to its
 * first code, then how many codes it has. EACC_CHARS holds their characters in the same order, one
 * code point each.
 */
export const EACC_RUNS =
  '${eaccRuns}';

export const EACC_CHARS =
  ${literal(eaccChars)};
`;
fs.writeFileSync(OUT, module);

console.error(`yaz-iconv ${yazVersion()}`);
for (const { set, chars } of single)
  console.error(`  ${set.name}: ${chars.filter(Boolean).length} characters, ${chars.filter((c) => c?.combining).length} combining`);
console.error(`  C1 controls: ${c1.length}`);
console.error(`  EACC: ${eacc.length} characters in ${runs.length} runs (${astral} outside the BMP)`);
console.error('every reading agreed (two runs; G0 and G1)');
if (notes.length) console.error(`combining per the LC tables but not a Unicode mark, or the other way round:\n  ${notes.join('\n  ')}`);
console.error(`wrote ${path.relative(ROOT, OUT)}`);
