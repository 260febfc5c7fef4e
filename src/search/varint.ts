// Unsigned LEB128, the integer form of the index's byte formats (posting-blocks.ts, term-ids.ts):
// 7 bits a byte, lowest first, the top bit set on every byte but the last.

/** Writes `value` (0 to 2^32 - 1) at `p`; answers where it ends. */
export function writeVarint(out: Uint8Array, p: number, value: number): number {
  while (value >= 0x80) {
    out[p++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 0x80);
  }
  out[p++] = value;
  return p;
}
