// The Patron API's lookups (src/patron-api): a patron by any of the ids Sierra's Patron API takes,
// its dump, and its PIN test, all through the patron and hold services the REST API uses.
import type { HoldService } from '../holds/service.ts';
import type { PatronService } from '../patrons/service.ts';
import { DomainError } from '../shared/errors.ts';
import { dumpLines } from './dump.ts';
import type { Line } from './body.ts';

/** Sierra's check digit of a record number: its digits right to left weighted 2, 3, 4 …, the sum mod 11, 10 written x. */
export function checkDigit(recordNumber: string): string {
  let sum = 0;
  for (let i = 0; i < recordNumber.length; i++) sum += Number(recordNumber[recordNumber.length - 1 - i]) * (i + 2);
  const digit = sum % 11;
  return digit === 10 ? 'x' : String(digit);
}

const missing = (error: unknown) => error instanceof DomainError && (error.kind === 'notFound' || error.kind === 'multipleRecords');

export class PatronApiService {
  constructor(
    private readonly patrons: PatronService,
    private readonly holds: HoldService,
  ) {}

  /**
   * The patron an id names: `.p` and its record number (with or without its check digit), else a
   * barcode, else a unique id. Undefined when none, or when several patrons share it.
   */
  async resolve(raw: string): Promise<string | undefined> {
    const id = raw.trim();
    const record = /^\.p(\d{1,18})(x)?$/i.exec(id);
    if (record) {
      const [, digits = '', last] = record;
      const candidates = last === undefined ? [digits] : [`${digits}${last}`];
      // The last character may be the check digit of the number before it.
      if (last !== undefined && checkDigit(digits) === last.toLowerCase()) candidates.push(digits);
      else if (last === undefined && digits.length > 1 && checkDigit(digits.slice(0, -1)) === digits.slice(-1))
        candidates.push(digits.slice(0, -1));
      for (const candidate of candidates) if (/^\d+$/.test(candidate) && (await this.patrons.exists(candidate))) return candidate;
      return undefined;
    }
    if (!id) return undefined;
    for (const kind of ['barcode', 'uniqueId'] as const) {
      try {
        return (await this.patrons.find({ kind, value: id })).id;
      } catch (error) {
        if (!missing(error)) throw error;
      }
    }
    return undefined;
  }

  /** The dump's fields of the patron an id names; undefined when there is none. */
  async dump(raw: string): Promise<Line[] | undefined> {
    const id = await this.resolve(raw);
    if (id === undefined) return undefined;
    const { extras, timeZone } = await this.patrons.circulation();
    try {
      const [row, holds] = await Promise.all([
        this.patrons.get(id, extras),
        this.holds.listOfPatron(id, { inactive: false, limit: 2000, offset: 0 }),
      ]);
      return dumpLines(row, holds, timeZone);
    } catch (error) {
      if (missing(error)) return undefined; // deleted since it was found
      throw error;
    }
  }

  /**
   * A PIN against the patron an id names: a barcode first (one statement, as validate), then a
   * unique id or `.p` record number; the patron service counts the attempt.
   */
  async pinTest(raw: string, pin: string, client: string): Promise<'ok' | 'wrongPin' | 'noPin' | 'notFound'> {
    const id = raw.trim();
    if (id && !id.startsWith('.')) {
      const byBarcode = await this.patrons.pinTest({ barcode: id }, pin, client);
      if (byBarcode !== 'notFound') return byBarcode;
    }
    const patronId = await this.resolve(raw);
    return patronId === undefined ? 'notFound' : this.patrons.pinTest({ id: patronId }, pin, client);
  }
}
