// Reads patron request bodies into the fields a write sets. Every bad value is a 400 (code 126)
// naming the field; the PIN is checked here and hashed by the service, never echoed.
import { parseDay } from '../shared/calendar.ts';
import { fail } from '../shared/errors.ts';
import { formatMoney, parseMoney } from '../shared/money.ts';
import type { Address, PatronFields, Phone } from './repository.ts';

export const BLOCK_CODES: Record<string, string> = {
  '-': 'No block',
  m: 'Manual block',
  c: 'Sent to collection agency',
  l: 'Card reported lost',
  x: 'Excessive fines',
};
export const PHONE_TYPES: Record<string, string> = { t: 'Telephone', p: 'Second telephone' };
export const ADDRESS_TYPES: Record<string, string> = { a: 'Address', h: 'Second address' };

export interface PatronInput {
  names?: string[];
  barcodes?: string[];
  pin?: string;
  emails?: string[];
  phones?: { number: string; type?: string }[];
  addresses?: { lines: string[]; type?: string }[];
  patronType?: number;
  homeLibraryCode?: string | null;
  expirationDate?: string | null;
  birthDate?: string | null;
  blockInfo?: { code: string };
  moneyOwed?: string | number;
  message?: string | null;
  suppressed?: boolean;
}

export interface ParsedPatron {
  fields: PatronFields;
  barcodes?: string[];
  /** The new PIN, to be hashed (never stored or logged as given). */
  pin?: string;
}

const bad = (field: string, why: string) => fail.invalidInput(`${field} ${why}`);
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function text(field: string, raw: string, max: number): string {
  const value = raw.trim();
  if (value === '') throw bad(field, 'must not be empty');
  if (value.length > max) throw bad(field, `must have at most ${max} characters`);
  if (CONTROL.test(value)) throw bad(field, 'must not hold control characters');
  return value;
}

function list<T, U>(field: string, raw: T[], max: number, each: (name: string, item: T) => U): U[] {
  if (raw.length > max) throw bad(field, `may hold at most ${max} entries`);
  return raw.map((item, i) => each(`${field}[${i}]`, item));
}

function code(field: string, raw: string | undefined, codes: Record<string, string>, fallback: string): string {
  if (raw === undefined) return fallback;
  if (!Object.hasOwn(codes, raw)) throw bad(field, `must be one of ${Object.keys(codes).join(', ')}`);
  return raw;
}

function barcodes(raw: string[]): string[] {
  const values = list('barcodes', raw, 10, (name, b) => text(name, b, 64));
  if (values.some((b) => /\s/.test(b))) throw bad('barcodes', 'must not hold spaces');
  if (new Set(values).size !== values.length) throw bad('barcodes', 'lists a barcode twice');
  return values;
}

export function checkPin(raw: string): string {
  if (raw.length < 4 || raw.length > 64) throw bad('pin', 'must have 4 to 64 characters');
  if (CONTROL.test(raw)) throw bad('pin', 'must not hold control characters');
  return raw;
}

export function parsePatronInput(input: PatronInput, creating: boolean): ParsedPatron {
  const f: PatronFields = {};
  if (input.names !== undefined) f.names = list('names', input.names, 10, (n, v) => text(n, v, 200));
  if (creating && !f.names?.length) throw bad('names', 'must hold at least one name');
  if (!creating && f.names?.length === 0) throw bad('names', 'must hold at least one name');
  if (input.emails !== undefined) {
    f.emails = list('emails', input.emails, 10, (n, v) => {
      const email = text(n, v, 200);
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw bad(n, `"${email}" is not an email address`);
      return email;
    });
  }
  if (input.phones !== undefined) {
    f.phones = list('phones', input.phones, 10, (n, p): Phone => ({
      number: text(`${n}.number`, p.number, 100),
      type: code(`${n}.type`, p.type, PHONE_TYPES, 't'),
    }));
  }
  if (input.addresses !== undefined) {
    f.addresses = list('addresses', input.addresses, 5, (n, a): Address => {
      if (a.lines.length === 0) throw bad(`${n}.lines`, 'must hold at least one line');
      return {
        lines: list(`${n}.lines`, a.lines, 6, (ln, line) => text(ln, line, 200)),
        type: code(`${n}.type`, a.type, ADDRESS_TYPES, 'a'),
      };
    });
  }
  if (input.patronType !== undefined) f.patronType = input.patronType;
  if (input.homeLibraryCode !== undefined) f.homeLibraryCode = input.homeLibraryCode?.trim() || null; // blank clears, as empty does
  if (input.expirationDate !== undefined) f.expirationDate = parseDay('expirationDate', input.expirationDate);
  if (input.birthDate !== undefined) f.birthDate = parseDay('birthDate', input.birthDate);
  if (input.blockInfo !== undefined) f.blockCode = code('blockInfo.code', input.blockInfo.code, BLOCK_CODES, '-');
  if (input.moneyOwed !== undefined) {
    // A JSON number is read by its shortest text, as invoice amounts are (README, "Money").
    f.moneyOwed = formatMoney(parseMoney('moneyOwed', typeof input.moneyOwed === 'number' ? String(input.moneyOwed) : input.moneyOwed));
  }
  if (input.message !== undefined)
    f.message = input.message === null || input.message.trim() === '' ? null : text('message', input.message, 500);
  if (input.suppressed !== undefined) f.suppressed = input.suppressed;
  const out: ParsedPatron = { fields: f };
  if (input.barcodes !== undefined) out.barcodes = barcodes(input.barcodes);
  if (input.pin !== undefined) out.pin = checkPin(input.pin);
  return out;
}
