// Bytes written into one growing buffer: COPY rows for bulk loads (src/db/copy-text.ts), MARC read
// into MARC-in-JSON, harvest pages written as JSON (src/shared/json-bytes.ts). Writing bytes where
// they go, instead of joining strings and encoding the whole as UTF-8 afterwards, is what made
// those fast: the strings and their encoding were most of the time and the garbage.

export class ByteWriter {
  buf: Buffer;
  pos = 0;

  // allocUnsafeSlow: a buffer of its own (never a slice of Node's pool), so it can be moved to
  // another thread, and what was written is at the same places in any buffer it grows into.
  constructor(capacity = 64 * 1024) {
    this.buf = Buffer.allocUnsafeSlow(capacity);
  }

  /** Room for n more bytes. Bytes taken (subarray) before a growth stay valid in the old buffer. */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  /** Text known to be ASCII (numbers, dates, ids, fixed punctuation). */
  ascii(text: string): void {
    this.ensure(text.length);
    this.pos += this.buf.write(text, this.pos, 'latin1');
  }

  /** Any text, as UTF-8 (at most 3 bytes a UTF-16 unit). */
  utf8(text: string): void {
    this.ensure(text.length * 3);
    this.pos += this.buf.write(text, this.pos, 'utf8');
  }

  /** Bytes [start, end) of src. Short runs are copied by hand: a subarray costs more than they do. */
  bytes(src: Uint8Array, start = 0, end = src.length): void {
    const n = end - start;
    this.ensure(n);
    if (n > 64) {
      this.buf.set(src.subarray(start, end), this.pos);
      this.pos += n;
      return;
    }
    const buf = this.buf;
    let p = this.pos;
    for (let i = start; i < end; i++) buf[p++] = src[i]!;
    this.pos = p;
  }

  /** The bytes written so far (a view, not a copy). */
  written(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}
