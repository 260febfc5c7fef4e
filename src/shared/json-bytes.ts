// JSON answers written as UTF-8 bytes into one buffer: a harvest page of 2,000 bibs with their
// MARC is 7 MB, and as a JS string it was built from pieces, joined, then encoded again to be
// sent, which took more time than making its content.
import { ByteWriter } from './byte-writer.ts';

/** An answer member that writes its own JSON (already JSON: copied, not encoded again). */
export class RawJson {
  constructor(readonly write: (out: ByteWriter) => void) {}

  static text(json: string): RawJson {
    return new RawJson((out) => out.utf8(json));
  }
}

/**
 * A page `{…, entries: [...]}` as JSON bytes: each entry member that is a RawJson writes itself,
 * every other is written as JSON.stringify writes it (undefined members left out). The entries may
 * be made as they are written (an iterable), so that none outlives its writing: a page of
 * entries all kept until the end is what the garbage collector spent its time copying.
 */
export function pageJson(page: { entries: Iterable<Record<string, unknown>>; [member: string]: unknown }, size = 64 * 1024): Buffer {
  const out = new ByteWriter(size);
  out.byte(0x7b); // {
  let first = true;
  for (const [key, value] of Object.entries(page)) {
    if (value === undefined) continue;
    out.utf8(`${first ? '' : ','}${JSON.stringify(key)}:`);
    first = false;
    if (key === 'entries') {
      out.byte(0x5b); // [
      let firstEntry = true;
      for (const entry of page.entries) {
        if (!firstEntry) out.byte(0x2c); // ,
        firstEntry = false;
        writeEntry(entry, out);
      }
      out.byte(0x5d); // ]
    } else out.utf8(JSON.stringify(value));
  }
  out.byte(0x7d); // }
  return out.written();
}

// `"name":` for each member name seen (a page's entries share a few dozen).
const names = new Map<string, string>();
function memberName(key: string): string {
  let name = names.get(key);
  if (name === undefined) {
    name = `${JSON.stringify(key)}:`;
    if (names.size < 10_000) names.set(key, name);
  }
  return name;
}

// The members between two RawJson members are written as one string: encoding costs a call each.
function writeEntry(entry: Record<string, unknown>, out: ByteWriter): void {
  let text = '{';
  let first = true;
  for (const key in entry) {
    const value = entry[key];
    if (value === undefined || typeof value === 'function') continue;
    text += first ? memberName(key) : `,${memberName(key)}`;
    first = false;
    if (value instanceof RawJson) {
      out.utf8(text);
      value.write(out);
      text = '';
    } else text += JSON.stringify(value);
  }
  out.utf8(`${text}}`);
}
