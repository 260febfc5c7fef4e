// Deterministic randomness for the generator: record n of seed s is the same on every run and on
// every machine, and does not depend on the records before it (so any slice can be regenerated).

/** A small, fast 32-bit generator (mulberry32): plenty for synthetic data, not for secrets. */
export class Random {
  private state: number;

  constructor(...keys: number[]) {
    // Mixes the keys (seed, record number, …) into one starting state.
    let h = 0x9e3779b9;
    for (const key of keys) {
      h = Math.imul(h ^ (key >>> 0), 0x85ebca6b);
      h = Math.imul(h ^ Math.floor(key / 2 ** 32), 0xc2b2ae35);
      h ^= h >>> 15;
    }
    this.state = h >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)]!;
  }

  /** One key of a table of weights, in proportion to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    let roll = this.next() * entries.reduce((sum, [, w]) => sum + w, 0);
    for (const [key, weight] of entries) if ((roll -= weight) < 0) return key;
    return entries[entries.length - 1]![0];
  }
}

/**
 * Ranks 0..size-1 drawn with probability proportional to 1/(rank+1)^exponent: word frequencies in
 * real text follow this law (a few words everywhere, a long tail of rare ones).
 */
export class Zipf {
  private readonly cdf: Float64Array;

  constructor(size: number, exponent = 1.05) {
    this.cdf = new Float64Array(size);
    let total = 0;
    for (let rank = 0; rank < size; rank++) this.cdf[rank] = total += 1 / (rank + 1) ** exponent;
    for (let rank = 0; rank < size; rank++) this.cdf[rank]! /= total;
  }

  sample(random: Random): number {
    const u = random.next();
    let lo = 0;
    let hi = this.cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
