// A key's whole list joined from its segments: what the tests compare a list's segments with.
import { decodePostings } from '../../src/search/posting-blocks.ts';

/** A key's whole list from its segments (in any order). */
export function joinSegments(segments: readonly Uint8Array[]): { bibs: Int32Array; weights: Float32Array } {
  const parts = segments.map(decodePostings).sort((a, b) => (a.bibs[0] ?? 0) - (b.bibs[0] ?? 0));
  const length = parts.reduce((n, p) => n + p.bibs.length, 0);
  const bibs = new Int32Array(length);
  const weights = new Float32Array(length);
  let at = 0;
  for (const part of parts) {
    bibs.set(part.bibs, at);
    weights.set(part.weights, at);
    at += part.bibs.length;
  }
  return { bibs, weights };
}
