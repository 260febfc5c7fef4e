// JSON text placed inside an answer as it is, not encoded again: a harvest page's MARC, written
// from the stored text (src/bibs/var-fields.ts).
import { randomBytes } from 'node:crypto';

export class RawJson {
  constructor(readonly json: string) {}
}

/**
 * A page `{…, entries: [...]}` as JSON, each entry member that is a RawJson written as its text.
 * The members are swapped for a marker and the page goes through JSON.stringify untouched (a
 * replacer function would be called for every value of every entry), then each marker is replaced,
 * in order, by its text.
 */
export function stringifyPage(page: { entries: Record<string, unknown>[] }): string {
  // A marker no value can hold: a NUL (which JSON.stringify always escapes, so no string it writes
  // holds a bare one) and a random nonce of this answer.
  const marker = `\u0000${randomBytes(8).toString('hex')}`;
  const pieces: string[] = [];
  const entries = page.entries.map((entry) => {
    let copy: Record<string, unknown> | undefined;
    for (const key in entry) {
      const value = entry[key];
      if (value instanceof RawJson) {
        copy ??= { ...entry };
        copy[key] = marker;
        pieces.push(value.json);
      }
    }
    return copy ?? entry;
  });
  const text = JSON.stringify({ ...page, entries });
  if (pieces.length === 0) return text;
  const parts = text.split(JSON.stringify(marker));
  let out = parts[0]!;
  for (let i = 1; i < parts.length; i++) out += pieces[i - 1]! + parts[i]!;
  return out;
}
