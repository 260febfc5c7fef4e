// Reads patron request bodies into the fields a write sets. Every bad value is a 400 (code 126)
// naming the field; the PIN is checked here and hashed by the service, never echoed.
import { parseDay } from '../shared/calendar.ts';
import { fail } from '../shared/errors.ts';
import { CARREL_PATRON_FIXED_FIELDS } from '../shared/fixed-fields.ts';
import { formatMoney, parseMoney } from '../shared/money.ts';
import type { Address, PatronFields, Phone } from './repository.ts';
import { marcChange, PIN_FIELD, readVarField, type StoredMarcField, type VarFieldInput } from './var-fields.ts';

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
  message?: string | null | { code?: string; accountMessages?: string[] };
  suppressed?: boolean;
  uniqueIds?: string[];
  /** Sierra's varFields, plain or in MARC form: each tag given replaces that field's values (see VAR_FIELD_TAGS). */
  varFields?: VarFieldInput[];
  /** Sierra's fixedFields by number: those Carrel keeps (WRITABLE_FIXED_FIELDS). */
  fixedFields?: Record<string, { label?: string; value: unknown }>;
}

export interface ParsedPatron {
  fields: PatronFields;
  barcodes?: string[];
  uniqueIds?: string[];
  /** Phones or addresses of only some types (varFields t, p, a, h): the others are kept as they are. */
  keepOtherTypes?: { phones?: string[]; addresses?: string[] };
  /** The new PIN, to be hashed (never stored or logged as given). */
  pin?: string;
  /** The varField tags whose MARC forms this write replaces, and the MARC forms it gives. */
  marc: { tags: string[]; fields: StoredMarcField[] };
  /** Values of the library's own fixed fields, by number (null clears one): the library service checks them. */
  fixedValues?: Map<number, string | null>;
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

/** How long a PIN may be, in characters (UTF-16 code units, as `pin` is read). */
export const PIN_LENGTH = { min: 4, max: 64 } as const;

export function checkPin(raw: string): string {
  if (raw.length < PIN_LENGTH.min || raw.length > PIN_LENGTH.max)
    throw bad('pin', `must have ${PIN_LENGTH.min} to ${PIN_LENGTH.max} characters`);
  if (CONTROL.test(raw)) throw bad('pin', 'must not hold control characters');
  return raw;
}

export function parsePatronInput(raw: PatronInput, creating: boolean): ParsedPatron {
  const { input, keepOtherTypes, marc, fixedValues } = fromSierraFields(raw);
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
  if (input.message !== undefined) {
    const message =
      typeof input.message === 'object' && input.message !== null ? (input.message.accountMessages ?? []).join('; ') : input.message;
    f.message = message === null || message.trim() === '' ? null : text('message', message, 500);
  }
  if (input.notes !== undefined) f.notes = list('varFields x', input.notes, 20, (n, v) => text(n, v, 500));
  if (input.suppressed !== undefined) f.suppressed = input.suppressed;
  const out: ParsedPatron = { fields: f, marc };
  if (input.barcodes !== undefined) out.barcodes = barcodes(input.barcodes);
  if (input.uniqueIds !== undefined) {
    out.uniqueIds = list('uniqueIds', input.uniqueIds, 10, (n, v) => text(n, v, 200));
    if (new Set(out.uniqueIds).size !== out.uniqueIds.length) throw bad('uniqueIds', 'lists an id twice');
  }
  if (keepOtherTypes) out.keepOtherTypes = keepOtherTypes;
  if (fixedValues.size) out.fixedValues = fixedValues;
  if (input.pin !== undefined) out.pin = checkPin(input.pin);
  return out;
}

/**
 * Sierra's varField tags a patron write takes, and the member each fills. Each tag given replaces
 * that member's values; for phones (t, p) and addresses (a, h), only those of the types given.
 */
export const VAR_FIELD_TAGS: Record<string, string> = {
  n: 'names',
  b: 'barcodes',
  z: 'emails',
  t: 'phones (telephone)',
  p: 'phones (second telephone)',
  a: 'addresses (address; lines separated by $)',
  h: 'addresses (second address)',
  u: 'uniqueIds',
  x: 'notes',
  m: 'message',
};

/** Sierra's fixed fields a patron write takes, and the member each sets. */
export const WRITABLE_FIXED_FIELDS: Record<string, keyof PatronInput> = {
  '43': 'expirationDate',
  '47': 'patronType',
  '51': 'birthDate',
  '53': 'homeLibraryCode',
  '56': 'blockInfo',
  '96': 'moneyOwed',
};

type Expanded = PatronInput & { notes?: string[] };

/**
 * A value given to one of the library's own fixed fields: text or a number (Sierra answers PCODE3
 * as one), trimmed; empty or null clears it.
 */
function definedFixedValue(name: string, value: unknown): string | null {
  if (value === null) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') throw bad(name, 'must be text or a number');
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (trimmed.length > 255) throw bad(name, 'must have at most 255 characters');
  if (CONTROL.test(trimmed)) throw bad(name, 'must not hold control characters');
  return trimmed;
}

/** The write with its varFields and fixedFields read into the members they stand for. */
function fromSierraFields(raw: PatronInput): Pick<ParsedPatron, 'keepOtherTypes' | 'marc'> & {
  input: Expanded;
  fixedValues: Map<number, string | null>;
} {
  const fixedValues = new Map<number, string | null>();
  const input: Expanded = { ...raw };
  delete input.varFields;
  delete input.fixedFields;
  const given = (member: keyof Expanded, from: string) => {
    if (raw[member as keyof PatronInput] !== undefined) throw bad(from, `sets ${member}, which the request also gives: give one of them`);
  };
  let keepOtherTypes: ParsedPatron['keepOtherTypes'];
  const byTag = new Map<string, string[]>();
  const marcFields: StoredMarcField[] = [];
  if (raw.varFields !== undefined) {
    raw.varFields.forEach((given, i) => {
      // (The PIN field is refused by readVarField, saying how a PIN is set.)
      if (!Object.hasOwn(VAR_FIELD_TAGS, given.fieldTag) && given.fieldTag !== PIN_FIELD.fieldTag)
        throw bad(
          `varFields[${i}].fieldTag`,
          `"${given.fieldTag}" is not a patron field Carrel keeps; tags are ${Object.keys(VAR_FIELD_TAGS).join(', ')}`,
        );
      const field = readVarField(given, `varFields[${i}]`);
      const values = [...(byTag.get(field.fieldTag) ?? []), field.content];
      byTag.set(field.fieldTag, values);
      if (field.marc) marcFields.push({ ...field.marc, index: values.length - 1 });
    });
    const take = (tag: string, member: keyof Expanded) => {
      const values = byTag.get(tag);
      if (values === undefined) return undefined;
      given(member, `varFields ${tag}`);
      return values;
    };
    const set = <K extends keyof Expanded>(member: K, value: Expanded[K] | undefined) => {
      if (value !== undefined) input[member] = value;
    };
    set('names', take('n', 'names'));
    set('barcodes', take('b', 'barcodes'));
    set('emails', take('z', 'emails'));
    set('uniqueIds', take('u', 'uniqueIds'));
    set('notes', take('x', 'notes'));
    const message = take('m', 'message');
    if (message !== undefined) {
      if (message.length > 1) throw bad('varFields m', 'may be given once: a patron has one message');
      input.message = message[0] ?? null;
    }
    const phoneTypes = ['t', 'p'].filter((t) => byTag.has(t));
    if (phoneTypes.length) {
      given('phones', 'varFields t/p');
      input.phones = phoneTypes.flatMap((type) => byTag.get(type)!.map((number) => ({ number, type })));
      keepOtherTypes = { ...keepOtherTypes, phones: ['t', 'p'].filter((t) => !byTag.has(t)) };
    }
    const addressTypes = ['a', 'h'].filter((t) => byTag.has(t));
    if (addressTypes.length) {
      given('addresses', 'varFields a/h');
      input.addresses = addressTypes.flatMap((type) => byTag.get(type)!.map((content) => ({ lines: content.split('$'), type })));
      keepOtherTypes = { ...keepOtherTypes, addresses: ['a', 'h'].filter((t) => !byTag.has(t)) };
    }
  }
  for (const [number, field] of Object.entries(raw.fixedFields ?? {})) {
    const member = Object.hasOwn(WRITABLE_FIXED_FIELDS, number) ? WRITABLE_FIXED_FIELDS[number] : undefined;
    const name = `fixedFields.${number}`;
    if (!member) {
      if (!/^[1-9]\d{0,2}$/.test(number)) throw bad(name, 'is not a fixed-field number (1 to 999)');
      if (CARREL_PATRON_FIXED_FIELDS.has(Number(number)))
        throw bad(name, `cannot be written; of Carrel's own fields a patron write takes ${Object.keys(WRITABLE_FIXED_FIELDS).join(', ')}`);
      fixedValues.set(Number(number), definedFixedValue(name, field?.value));
      continue;
    }
    given(member, name);
    const value = field?.value;
    if (member === 'patronType') {
      const code = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
      if (typeof code !== 'number' || !Number.isInteger(code) || code < 0 || code > 255) throw bad(name, 'must be a patron type, 0 to 255');
      input.patronType = code;
    } else if (member === 'blockInfo') {
      if (typeof value !== 'string') throw bad(name, 'must be a block code');
      input.blockInfo = { code: value.trim() || '-' };
    } else if (member === 'moneyOwed') {
      if (typeof value !== 'string' && typeof value !== 'number') throw bad(name, 'must be an amount');
      input.moneyOwed = value;
    } else {
      if (typeof value !== 'string' && value !== null) throw bad(name, 'must be text');
      // Dates come as YYYY-MM-DD or as an instant (Sierra answers 43 so): the day is what is kept.
      const textValue =
        value === null ? null : member === 'homeLibraryCode' ? value.trim() : value.trim().replace(/^(\d{4}-\d\d-\d\d)T.*$/, '$1');
      (input as Record<string, unknown>)[member] = textValue;
    }
  }
  const marc = marcChange(
    Object.keys(raw).filter((m) => raw[m as keyof PatronInput] !== undefined),
    [...byTag.keys()],
    marcFields,
  );
  return keepOtherTypes ? { input, keepOtherTypes, marc, fixedValues } : { input, marc, fixedValues };
}
