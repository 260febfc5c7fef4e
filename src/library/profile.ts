// The library profile: one file (YAML or JSON) describing the library — branches and locations,
// item and patron types, the circulation rules matrix, hold rules, blocks and time zone. This
// module reads and checks one and writes one back; it knows nothing of the database.
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import YAML from 'yaml';
import { CIRCULATION_STATUSES, defaultSip2Status, STANDARD_ITEM_STATUSES, type ItemStatusSpec } from '../items/statuses.ts';
import { parseDay } from '../shared/calendar.ts';
import { DomainError, fail } from '../shared/errors.ts';
import { CARREL_PATRON_FIXED_FIELDS, FIXED_FIELDS } from '../shared/fixed-fields.ts';

/** The library's own codes: Sierra's five characters are the common case, up to 20 are kept as written. */
export const CODE_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$';
const MONEY_PATTERN = /^\d{1,15}(\.\d{1,2})?$/;
/** A SIP2 media type (CK): three digits (3M SIP2 2.00 lists 000 to 010). */
const SIP2_MEDIA_TYPE = '^[0-9]{3}$';
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const Code = (description: string) => Type.String({ pattern: CODE_PATTERN, description });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Money = (description: string) =>
  Type.Union([Type.String(), Type.Number({ minimum: 0 })], { description: `${description} Money: a decimal with at most two places.` });

const LocationSchema = Type.Object(
  {
    code: Code('The location code, as items, holds and patrons name it (up to 20 characters).'),
    name: Name,
    pickup: Type.Optional(Type.Boolean({ description: 'Patrons may collect holds here (default false).' })),
    holdShelfDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, description: 'Days a ready hold waits (default 7).' })),
    openDays: Type.Optional(
      // A pattern, not a union of literals: TypeBox stops listing a file's problems after a failed union.
      Type.Array(Type.String({ pattern: `^(${WEEKDAYS.join('|')})$` }), {
        uniqueItems: true,
        description: 'The weekdays it is open (default all seven); due and pickup-by dates move past the others.',
      }),
    ),
    closedDates: Type.Optional(Type.Array(Type.String(), { description: 'Dates it is closed, YYYY-MM-DD.' })),
  },
  { additionalProperties: false },
);

const BranchSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1, maximum: 99999, description: 'The branch number, as GET /branches answers it.' }),
    name: Name,
    address: Type.Optional(Type.String({ maxLength: 500 })),
    institution: Type.Optional(
      Type.String({
        // What a SIP2 field can carry: printable characters, no "|".
        pattern: '^[\\x20-\\x7b\\x7d\\x7e]{1,64}$',
        description:
          'The SIP2 institution id (AO) this branch belongs to: patrons whose home library is one of its locations are that institution\'s, and its kiosks act on them (README, "SIP2"). Absent: none.',
      }),
    ),
    locations: Type.Optional(Type.Array(LocationSchema)),
  },
  { additionalProperties: false },
);

const RuleSchema = Type.Object(
  {
    patronType: Type.Optional(Type.Integer({ minimum: 0, maximum: 255, description: 'Absent: any patron type.' })),
    itemType: Type.Optional(Code('Absent: any item type.')),
    location: Type.Optional(Code("The item's location. Absent: any location.")),
    loanDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
    renewals: Type.Optional(Type.Integer({ minimum: 0, maximum: 999, description: 'How many times a loan may be renewed.' })),
    holdable: Type.Optional(Type.Boolean({ description: 'Items under this rule may fill holds.' })),
    holdLimit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, description: 'Most active holds (default: holds.limit).' })),
    finePerDay: Type.Optional(Money('Overdue fine per day.')),
    maxFine: Type.Optional(Money('Largest overdue fine for one loan (default: none).')),
    graceDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 365, description: 'Days overdue before a fine starts.' })),
  },
  { additionalProperties: false },
);

const ItemStatusSchema = Type.Object(
  {
    // One printable character, as Sierra's status codes are ('-', '!', '$' among them).
    code: Type.String({
      pattern: '^[\\x21-\\x7e]$',
      description: 'The status code: one character, as items.status and fixedFields 88 carry it.',
    }),
    name: Name,
    available: Type.Optional(Type.Boolean({ description: 'An item in this status may be checked out (default false).' })),
    holdable: Type.Optional(Type.Boolean({ description: 'An item in this status may fill a hold (default false).' })),
    onShelf: Type.Optional(Type.Boolean({ description: 'An item in this status is on the shelf (default false).' })),
    sip2Status: Type.Optional(
      Type.String({
        pattern: '^(0[1-9]|1[0-3])$',
        description:
          'The SIP2 circulation status a kiosk is told (01 other … 13 missing); default 03 when available, else 01. An item on loan is 04 whatever its status.',
      }),
    ),
  },
  { additionalProperties: false },
);

const PatronFixedFieldSchema = Type.Object(
  {
    number: Type.Integer({ minimum: 1, maximum: 999, description: "Sierra's field number (44 Patron Code 1, 268 Notice Preference, …)." }),
    label: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: "The label in REST answers (default Sierra's for the number; required for another).",
      }),
    ),
    short: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20,
        description: "The short label of the Patron API dump (default Sierra's, else the label in capitals).",
      }),
    ),
    codes: Type.Optional(
      Type.Array(
        Type.Object(
          {
            code: Type.String({
              pattern: '^[\\x21-\\x7e]{1,20}$',
              description: 'A value the field may hold: 1 to 20 printable characters, no spaces.',
            }),
            name: Name,
          },
          { additionalProperties: false },
        ),
        { minItems: 1, description: 'The values the field may hold. Absent: any text up to 255 characters.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const ProfileSchema = Type.Object(
  {
    timeZone: Type.Optional(Type.String({ description: 'IANA time zone of the library (default UTC): "today" is the day there.' })),
    branches: Type.Array(BranchSchema, { minItems: 1 }),
    itemTypes: Type.Array(
      Type.Object(
        {
          code: Code('The item type code.'),
          name: Name,
          sip2MediaType: Type.Optional(
            // Three digits, and a YAML 001 read as the number 1 taken as 001.
            Type.Union([Type.String({ pattern: SIP2_MEDIA_TYPE }), Type.Integer({ minimum: 0, maximum: 999 })], {
              description:
                "SIP2's media type (CK) that kiosks are told for items of this type: '000' other, '001' book, '002' magazine, '003' bound journal, '004' audio tape, '005' video tape, '006' CD/CDROM, '007' diskette, '008' book with diskette, '009' book with CD, '010' book with audio tape. Absent: none is sent.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
      {
        minItems: 1,
        description: 'Every item type: one left out is removed (refused while items have it).',
      },
    ),
    patronTypes: Type.Array(
      Type.Object({ code: Type.Integer({ minimum: 0, maximum: 255 }), name: Name }, { additionalProperties: false }),
      {
        minItems: 1,
        description: 'Every patron type, 0 among them (a patron made without a patronType has it).',
      },
    ),
    itemStatuses: Type.Optional(
      Type.Array(ItemStatusSchema, {
        minItems: 1,
        description:
          "Every item status, Sierra's standard ones among them (absent: those). One left out is removed (refused while items have it); -, t and ! stay, as circulation sets them.",
      }),
    ),
    patronFixedFields: Type.Optional(
      Type.Array(PatronFixedFieldSchema, {
        description:
          'Patron fixed fields the library defines (patron codes 1-4, notice preference, its own): patron writes take them in fixedFields. One left out is removed (refused while patrons have a value).',
      }),
    ),
    circulationRules: Type.Array(RuleSchema, {
      minItems: 1,
      description:
        'Patron type × item type × location. Each value comes from the most specific matching rule that sets it (location first, then item type, then patron type); one default rule, with none of the three, sets loanDays, renewals, holdable, finePerDay and graceDays.',
    }),
    holds: Type.Optional(
      Type.Object(
        {
          limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, description: 'Most active holds per patron (default 50).' })),
          neededByMonths: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, description: 'A hold without neededBy (default 3).' })),
        },
        { additionalProperties: false },
      ),
    ),
    blocks: Type.Optional(
      Type.Object(
        {
          moneyOwed: Type.Optional(Money('A patron owing more than this may not borrow or place holds.')),
          overdueItems: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, description: 'Nor one with this many overdue items.' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: 'Carrel library profile' },
);
export type ProfileInput = Static<typeof ProfileSchema>;

export interface LocationSpec {
  code: string;
  name: string;
  pickup: boolean;
  holdShelfDays: number;
  /** In week order, Sunday first. */
  openDays: Weekday[];
  /** Sorted. */
  closedDates: string[];
}

export interface BranchSpec {
  id: number;
  name: string;
  address: string | null;
  /** The SIP2 institution id its patrons (by home library) belong to; null: none. */
  institution: string | null;
  locations: LocationSpec[];
}

export interface ItemTypeSpec {
  code: string;
  name: string;
  sip2MediaType: string | null;
}

export interface RuleSpec {
  patronType: number | null;
  itemType: string | null;
  location: string | null;
  loanDays: number | null;
  renewals: number | null;
  holdable: boolean | null;
  holdLimit: number | null;
  /** Money as text with two places. */
  finePerDay: string | null;
  maxFine: string | null;
  graceDays: number | null;
}

export interface PatronFixedFieldSpec {
  number: number;
  label: string;
  short: string;
  /** In code order; null: any text. */
  codes: { code: string; name: string }[] | null;
}

/** A library profile with every default filled in and every list in one order: two equal libraries compare equal. */
export interface Profile {
  timeZone: string;
  branches: BranchSpec[];
  /** sip2MediaType: SIP2's media type (CK) of items of the type, three digits; null: none. */
  itemTypes: ItemTypeSpec[];
  patronTypes: { code: number; name: string }[];
  /** In code order ("C" collation). */
  itemStatuses: ItemStatusSpec[];
  /** In number order. */
  patronFixedFields: PatronFixedFieldSpec[];
  circulationRules: RuleSpec[];
  holds: { limit: number; neededByMonths: number };
  blocks: { moneyOwed: string | null; overdueItems: number | null };
}

export const RULE_VALUES = ['loanDays', 'renewals', 'holdable', 'holdLimit', 'finePerDay', 'maxFine', 'graceDays'] as const;
/** What the default rule must set (holdLimit and maxFine may stay unset: the library's limit, no maximum). */
const DEFAULT_RULE_VALUES = ['loanDays', 'renewals', 'holdable', 'finePerDay', 'graceDays'] as const;

export const ruleKey = (r: Pick<RuleSpec, 'patronType' | 'itemType' | 'location'>): string =>
  `patronType ${r.patronType ?? '*'} × itemType ${r.itemType ?? '*'} × location ${r.location ?? '*'}`;

/** A profile's problems, each naming where in the file it is. */
export class ProfileError extends DomainError {
  constructor(readonly problems: string[]) {
    super(
      'invalidInput',
      `the library profile has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}:\n  ${problems.join('\n  ')}`,
    );
  }
}

/** `/branches/0/locations/1/code` → `branches[0].locations[1].code`. */
function where(pointer: string): string {
  const parts = pointer.split('/').slice(1);
  return parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : `${i ? '.' : ''}${p}`)).join('') || '(the whole file)';
}

function schemaProblems(input: unknown): string[] {
  const problems: string[] = [];
  for (const e of Value.Errors(ProfileSchema, input)) {
    if (e.keyword === 'boolean') continue; // the same unknown member, said again by additionalProperties
    if (e.keyword === 'additionalProperties') {
      const names = e.params.additionalProperties;
      problems.push(`${where(e.instancePath)}: unknown member${names.length > 1 ? 's' : ''} ${names.join(', ')}`);
    } else if (/\/openDays\/\d+$/.test(e.instancePath)) {
      problems.push(`${where(e.instancePath)}: must be one of ${WEEKDAYS.join(', ')}`);
    } else if (e.keyword === 'pattern' && /^\/itemStatuses\/\d+\/code$/.test(e.instancePath)) {
      problems.push(`${where(e.instancePath)}: must be one printable character (an item status code)`);
    } else if (e.keyword === 'pattern' && /^\/patronFixedFields\/.*\/code$/.test(e.instancePath)) {
      problems.push(`${where(e.instancePath)}: must be 1 to 20 printable characters, no spaces`);
    } else if (e.keyword === 'pattern' && e.instancePath.endsWith('/sip2Status')) {
      problems.push(`${where(e.instancePath)}: must be a SIP2 circulation status, 01 to 13`);
    } else if (e.keyword === 'pattern' && e.instancePath.endsWith('code')) {
      problems.push(
        `${where(e.instancePath)}: must be a code of 1 to 20 letters, digits, '.', '_' or '-', starting with a letter or digit`,
      );
    } else if (e.instancePath.endsWith('/sip2MediaType')) {
      problems.push(`${where(e.instancePath)}: must be a SIP2 media type: three digits, such as '001' (book) or '006' (CD/CDROM)`);
    } else if (e.keyword === 'pattern' && e.instancePath.endsWith('/institution')) {
      problems.push(`${where(e.instancePath)}: must be a SIP2 institution id: 1 to 64 printable characters, no '|'`);
    } else {
      problems.push(`${where(e.instancePath)}: ${e.message}`);
    }
  }
  // A union reports each member's failure too: keep one line per place.
  return [...new Set(problems)].filter(
    (p, _, all) => !(p.endsWith(': must be string') && all.some((q) => q !== p && q.startsWith(p.split(':')[0]!))),
  );
}

function money(field: string, raw: string | number | undefined, problems: string[]): string | null {
  if (raw === undefined) return null;
  const text = typeof raw === 'number' ? String(raw) : raw.trim();
  if (!MONEY_PATTERN.test(text)) {
    problems.push(`${field}: ${JSON.stringify(raw)} is not an amount such as 0.25 (digits, at most two decimals, not negative)`);
    return null;
  }
  const [whole, cents = ''] = text.split('.');
  return `${BigInt(whole!)}.${cents.padEnd(2, '0')}`;
}

export function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A SIP2 media type as three digits (a YAML 001 arrives as the number 1); null when absent. */
function mediaType(value: string | number | undefined): string | null {
  if (value === undefined) return null;
  return typeof value === 'number' ? String(value).padStart(3, '0') : value;
}

function duplicates<T>(values: T[]): T[] {
  const seen = new Set<T>();
  return [...new Set(values.filter((v) => seen.has(v) || !seen.add(v)))];
}

/** Checks a parsed file and fills in every default; all of its problems at once, or the profile. */
export function checkProfile(input: unknown): Profile {
  const problems = schemaProblems(input);
  if (problems.length) throw new ProfileError(problems);
  const p = input as ProfileInput;
  const timeZone = p.timeZone ?? 'UTC';
  if (!validTimeZone(timeZone)) problems.push(`timeZone: "${timeZone}" is not an IANA time zone such as Europe/London or America/Chicago`);
  const branches: BranchSpec[] = p.branches
    .map((b, bi) => ({
      id: b.id,
      name: b.name.trim(),
      address: b.address?.trim() || null,
      institution: b.institution ?? null,
      locations: (b.locations ?? [])
        .map((l, li) => {
          const closedDates = (l.closedDates ?? []).flatMap((d, di) => {
            try {
              return [parseDay('date', d)!];
            } catch (error) {
              problems.push(`branches[${bi}].locations[${li}].closedDates[${di}]: ${(error as Error).message}`);
              return [];
            }
          });
          return {
            code: l.code,
            name: l.name.trim(),
            pickup: l.pickup ?? false,
            holdShelfDays: l.holdShelfDays ?? 7,
            openDays: WEEKDAYS.filter((d) => ((l.openDays ?? WEEKDAYS) as readonly string[]).includes(d)),
            closedDates: [...new Set(closedDates)].sort(),
          };
        })
        .sort((a, b) => (a.code < b.code ? -1 : 1)),
    }))
    .sort((a, b) => a.id - b.id);
  const itemTypes: ItemTypeSpec[] = [...p.itemTypes]
    .map((t) => ({ code: t.code, name: t.name.trim(), sip2MediaType: mediaType(t.sip2MediaType) }))
    .sort((a, b) => (a.code < b.code ? -1 : 1));
  const patronTypes = [...p.patronTypes].map((t) => ({ code: t.code, name: t.name.trim() })).sort((a, b) => a.code - b.code);
  const locationCodes = branches.flatMap((b) => b.locations.map((l) => l.code));
  for (const id of duplicates(branches.map((b) => b.id))) problems.push(`branches: branch ${id} is listed twice`);
  for (const code of duplicates(locationCodes)) problems.push(`branches: location ${code} is listed twice`);
  for (const code of duplicates(itemTypes.map((t) => t.code))) problems.push(`itemTypes: ${code} is listed twice`);
  for (const code of duplicates(patronTypes.map((t) => t.code))) problems.push(`patronTypes: ${code} is listed twice`);
  if (!patronTypes.some((t) => t.code === 0)) problems.push('patronTypes: 0 is missing (a patron made without a patronType has it)');

  const itemStatuses = checkItemStatuses(p.itemStatuses, problems);
  const patronFixedFields = checkPatronFixedFields(p.patronFixedFields ?? [], problems);

  const rules: RuleSpec[] = p.circulationRules.map((r, i) => {
    const at = `circulationRules[${i}]`;
    if (r.patronType !== undefined && !patronTypes.some((t) => t.code === r.patronType)) {
      problems.push(`${at}.patronType: ${r.patronType} is not one of the profile's patronTypes`);
    }
    if (r.itemType !== undefined && !itemTypes.some((t) => t.code === r.itemType)) {
      problems.push(`${at}.itemType: ${r.itemType} is not one of the profile's itemTypes`);
    }
    if (r.location !== undefined && !locationCodes.includes(r.location)) {
      problems.push(`${at}.location: ${r.location} is not one of the profile's locations`);
    }
    return {
      patronType: r.patronType ?? null,
      itemType: r.itemType ?? null,
      location: r.location ?? null,
      loanDays: r.loanDays ?? null,
      renewals: r.renewals ?? null,
      holdable: r.holdable ?? null,
      holdLimit: r.holdLimit ?? null,
      finePerDay: money(`${at}.finePerDay`, r.finePerDay, problems),
      maxFine: money(`${at}.maxFine`, r.maxFine, problems),
      graceDays: r.graceDays ?? null,
    };
  });
  for (const key of duplicates(rules.map(ruleKey))) problems.push(`circulationRules: more than one rule for ${key}`);
  const defaults = rules.filter((r) => r.patronType === null && r.itemType === null && r.location === null);
  if (defaults.length === 0) problems.push('circulationRules: no default rule (one with no patronType, itemType or location)');
  for (const d of defaults.slice(0, 1)) {
    const unset = DEFAULT_RULE_VALUES.filter((v) => d[v] === null);
    if (unset.length) problems.push(`circulationRules: the default rule must set ${unset.join(', ')}`);
  }
  rules.forEach((r, i) => {
    if (RULE_VALUES.every((v) => r[v] === null)) problems.push(`circulationRules[${i}]: sets nothing (${ruleKey(r)})`);
  });
  const blocks = { moneyOwed: money('blocks.moneyOwed', p.blocks?.moneyOwed, problems), overdueItems: p.blocks?.overdueItems ?? null };
  if (problems.length) throw new ProfileError(problems);
  return {
    timeZone,
    branches,
    itemTypes,
    patronTypes,
    itemStatuses,
    patronFixedFields,
    circulationRules: rules.sort((a, b) => (ruleKey(a) < ruleKey(b) ? -1 : ruleKey(a) > ruleKey(b) ? 1 : 0)),
    holds: { limit: p.holds?.limit ?? 50, neededByMonths: p.holds?.neededByMonths ?? 3 },
    blocks,
  };
}

const byCode = <T extends { code: string }>(a: T, b: T) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);

function checkItemStatuses(given: ProfileInput['itemStatuses'], problems: string[]): ItemStatusSpec[] {
  if (given === undefined) return STANDARD_ITEM_STATUSES.map((s) => ({ ...s }));
  const statuses = given
    .map((s): ItemStatusSpec => {
      const flags = { available: s.available ?? false, holdable: s.holdable ?? false, onShelf: s.onShelf ?? false };
      return { code: s.code, name: s.name.trim(), ...flags, sip2Status: s.sip2Status ?? defaultSip2Status(flags) };
    })
    .sort(byCode);
  for (const code of duplicates(statuses.map((s) => s.code))) problems.push(`itemStatuses: ${code} is listed twice`);
  for (const code of CIRCULATION_STATUSES)
    if (!statuses.some((s) => s.code === code)) problems.push(`itemStatuses: ${code} is missing (circulation sets it)`);
  return statuses;
}

function checkPatronFixedFields(given: NonNullable<ProfileInput['patronFixedFields']>, problems: string[]): PatronFixedFieldSpec[] {
  const known = FIXED_FIELDS.patron as Record<number, { label: string; short: string } | undefined>;
  const fields = given.map((f, i): PatronFixedFieldSpec => {
    const at = `patronFixedFields[${i}]`;
    if (CARREL_PATRON_FIXED_FIELDS.has(f.number))
      problems.push(
        `${at}.number: ${f.number} (${known[f.number]?.label ?? 'a record field'}) is Carrel's own; a patron write sets it through its member`,
      );
    const label = f.label?.trim() || known[f.number]?.label;
    if (!label) problems.push(`${at}.label: field ${f.number} is not one of Sierra's standard fields: give it a label`);
    const codes = f.codes ? [...f.codes].map((c) => ({ code: c.code, name: c.name.trim() })).sort(byCode) : null;
    for (const code of duplicates((codes ?? []).map((c) => c.code))) problems.push(`${at}.codes: ${code} is listed twice`);
    return {
      number: f.number,
      label: label ?? '',
      short: f.short?.trim() || known[f.number]?.short || (label ?? '').toUpperCase().slice(0, 20),
      codes,
    };
  });
  for (const n of duplicates(fields.map((f) => f.number))) problems.push(`patronFixedFields: ${n} is listed twice`);
  return fields.sort((a, b) => a.number - b.number);
}

/** Reads a profile file's text: JSON when it looks like JSON, else YAML (of which JSON is a part). */
export function parseProfile(text: string, source = 'the profile'): Profile {
  const doc = YAML.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length) {
    throw new ProfileError(doc.errors.map((e) => `${source}: ${e.message.split('\n')[0]}`));
  }
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw fail.invalidInput(`${source} must be a mapping (branches:, itemTypes:, …), not ${value === null ? 'empty' : typeof value}`);
  }
  return checkProfile(value);
}

/** The file form of a profile: defaults left out, so what a library wrote reads back the same. */
export function profileDocument(p: Profile): ProfileInput {
  const some = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));
  // A number where it reads back exactly (0.25), else the decimal text.
  const amount = (m: string | null) => (m === null ? null : Number(m).toFixed(2) === m ? Number(m) : m);
  return {
    timeZone: p.timeZone,
    branches: p.branches.map((b) => ({
      id: b.id,
      name: b.name,
      ...(b.address ? { address: b.address } : {}),
      ...(b.institution ? { institution: b.institution } : {}),
      locations: b.locations.map((l) => ({
        code: l.code,
        name: l.name,
        ...(l.pickup ? { pickup: true } : {}),
        ...(l.holdShelfDays !== 7 ? { holdShelfDays: l.holdShelfDays } : {}),
        ...(l.openDays.length !== 7 ? { openDays: l.openDays } : {}),
        ...(l.closedDates.length ? { closedDates: l.closedDates } : {}),
      })),
    })),
    itemTypes: p.itemTypes.map((t) => ({ code: t.code, name: t.name, ...(t.sip2MediaType ? { sip2MediaType: t.sip2MediaType } : {}) })),
    patronTypes: p.patronTypes,
    itemStatuses: p.itemStatuses.map((s) => ({
      code: s.code,
      name: s.name,
      ...(s.available ? { available: true } : {}),
      ...(s.holdable ? { holdable: true } : {}),
      ...(s.onShelf ? { onShelf: true } : {}),
      ...(s.sip2Status !== defaultSip2Status(s) ? { sip2Status: s.sip2Status } : {}),
    })),
    patronFixedFields: p.patronFixedFields.map((f) => ({
      number: f.number,
      label: f.label,
      short: f.short,
      ...(f.codes ? { codes: f.codes } : {}),
    })),
    circulationRules: p.circulationRules.map((r) => some({ ...r, finePerDay: amount(r.finePerDay), maxFine: amount(r.maxFine) })),
    holds: p.holds,
    blocks: some({ moneyOwed: amount(p.blocks.moneyOwed), overdueItems: p.blocks.overdueItems }),
  };
}

export function formatProfile(p: Profile, as: 'yaml' | 'json'): string {
  const doc = profileDocument(p);
  if (as === 'json') return `${JSON.stringify(doc, null, 2)}\n`;
  return `# Carrel library profile: apply with \`carrel profile apply FILE\` (README, "Your own library").\n${YAML.stringify(doc, { lineWidth: 0 })}`;
}
