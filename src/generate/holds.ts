// Holds for the synthetic catalogue, placed as the hold rules would have let patrons place them
// (src/holds/service.ts): by patrons not expired on the day they placed them, at most the hold
// limit each and never twice on one record, on bibs with an item that can fill a hold (or on such
// an item), for pickup at a pickup location. Bibs are wanted by popularity (a Zipf law: a best
// seller's queue runs to hundreds, most bibs have none); about one hold in twelve is on a
// particular item, one in twenty is frozen. Hold k of a seed is the same on every run given the
// same day, counts and rules: dates count back from `today` (a hold placed four weeks ago is
// still wanted now), so only which patrons have expired moves with the calendar.
import { addMonths } from '../shared/calendar.ts';
import { HOLDABLE_STATUSES } from '../holds/service.ts';
import { ITEM_STATUS } from '../items/statuses.ts';
import { generateRecord } from './catalogue.ts';
import { generatePatron } from './patrons.ts';
import { Random, Zipf } from './random.ts';

/** Holds per patron when not told: as in the patrons benchmark (300,000 for 100,000 patrons). */
export const HOLDS_PER_PATRON = 3;

export interface HoldsPlan {
  seed: number;
  /** Generated bibs 1..bibs and patrons 1..patrons of the seed are the ones held and holding. */
  bibs: number;
  patrons: number;
  holds: number;
  /** The day of generation (YYYY-MM-DD): holds are placed over the four weeks up to it. */
  today: string;
  /** The pickup location codes, ascending; a patron picks up at the home library when it is one. */
  pickupLocations: readonly string[];
  holdLimit: number;
  holdMonths: number;
}

export interface GeneratedHold {
  /** Placement order (1-based): hold ids are drawn in this order, as placement would draw them. */
  k: number;
  patron: number;
  bib: number;
  /** The copy (949 field, 1-based) for an item hold; null for a bib hold. */
  copy: number | null;
  pickupLocation: string;
  placed: string;
  notNeededAfter: string;
  frozen: boolean;
}

/** Days over which the holds were placed; shorter than the shortest hold period, so none has expired. */
const SPAN_DAYS = 28;
const ITEM_HOLD_SHARE = 0.08;
const FROZEN_SHARE = 0.05;
/** Draws for one hold before giving up on it (only when nearly every patron is at the limit). */
const ATTEMPTS = 50;

function daysBefore(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** A bijection of 0..size-1, so that the most popular ranks are spread over the catalogue rather than its first records. */
function spread(size: number): (rank: number) => number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let step = Math.max(1, Math.floor(size * 0.6180339887));
  while (gcd(step, size) !== 1) step++;
  return (rank) => Number((BigInt(rank) * BigInt(step) + 7n) % BigInt(size));
}

/** Bit c-1 set when copy c of the record can fill a hold (the generator's items are never suppressed). */
function holdableCopies(seed: number, bib: number): number {
  let mask = 0;
  let copy = 0;
  for (const field of generateRecord(seed, bib).fields) {
    if (field.tag !== '949' || !('subfields' in field)) continue;
    copy++;
    const status = field.subfields.find((s) => s.code === 's')?.value ?? ITEM_STATUS.available;
    if (HOLDABLE_STATUSES.includes(status)) mask |= 1 << (copy - 1);
  }
  return mask;
}

export function* generateHolds(plan: HoldsPlan): Generator<GeneratedHold> {
  if (plan.holds === 0 || plan.patrons === 0 || plan.bibs === 0 || plan.pickupLocations.length === 0) return;
  const popularity = new Zipf(plan.bibs, 0.6);
  const bibOfRank = spread(plan.bibs);
  const copies = new Map<number, number>();
  const copiesOf = (bib: number) => {
    let mask = copies.get(bib);
    if (mask === undefined) copies.set(bib, (mask = holdableCopies(plan.seed, bib)));
    return mask;
  };
  const patrons = new Map<number, { expires: string; home: string; held: Set<string> }>();
  const patronOf = (n: number) => {
    let p = patrons.get(n);
    if (!p) {
      const generated = generatePatron(plan.seed, n);
      patrons.set(n, (p = { expires: generated.expirationDate, home: generated.homeLibraryCode, held: new Set() }));
    }
    return p;
  };

  for (let k = 1; k <= plan.holds; k++) {
    const r = new Random(plan.seed, 0x401d, k);
    const placed = daysBefore(plan.today, Math.floor(((plan.holds - k) * SPAN_DAYS) / plan.holds));
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const n = r.int(1, plan.patrons);
      const patron = patronOf(n);
      const bib = 1 + bibOfRank(popularity.sample(r));
      const itemHold = r.chance(ITEM_HOLD_SHARE);
      const mask = copiesOf(bib);
      if (patron.expires < placed || patron.held.size >= plan.holdLimit || mask === 0) continue;
      let copy: number | null = null;
      if (itemHold) {
        const holdable = [1, 2, 3, 4, 5].filter((c) => mask & (1 << (c - 1)));
        copy = r.pick(holdable);
      }
      const record = copy === null ? `b${bib}` : `i${bib}.${copy}`;
      if (patron.held.has(record)) continue;
      patron.held.add(record);
      const home = plan.pickupLocations.includes(patron.home) && r.chance(0.85);
      yield {
        k,
        patron: n,
        bib,
        copy,
        pickupLocation: home ? patron.home : r.pick(plan.pickupLocations),
        placed,
        notNeededAfter: addMonths(placed, plan.holdMonths),
        frozen: r.chance(FROZEN_SHARE),
      };
      break;
    }
  }
}
