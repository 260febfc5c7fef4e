// SQL for Sierra's JSON queries: a checked query tree (parse.ts) compiled into one parameterised
// condition over the live records of the endpoint's type. Each target is a value of the record
// (a fixed field by its number, a varField by its tag, a MARC field by tag, indicators and
// subfields); one that repeats (a bib's titles, a patron's barcodes) matches when any of its
// values does, the negative operators (not_equal, all_fields_not_have, not_within, not_exists) when
// none does, and at_least_one_field_not_have when one value does not. Text is compared without
// regard to case or surrounding spaces, as Create Lists compares it. Each refusal names the member
// of the body it is about (`queries[4].expr.op`).
import type { Queryable } from '../db/types.ts';
import { parameters } from '../db/list-filters.ts';
import { addDays, addMonths } from '../shared/calendar.ts';
import { fail } from '../shared/errors.ts';
import { RELATIVE_DATE_OPS, type Expr, type Joiner, type Op, type Query, type QueryRecord, type Target } from './parse.ts';

/** `instant`: a timestamp compared by its UTC day, written so that an index on the column serves a range. */
type ValueType = 'text' | 'number' | 'date' | 'instant';
/**
 * One value per record (`sql`), or several (`from`: a set of rows of one column `v`, written only
 * when used, as its parameters are added then). `keys`: the
 * values are also in an index of keys (`sql` gives the record's keys, each value after one of
 * `prefixes`), which answers equality without reading them.
 */
type Source = { type: ValueType; sql: string } | { type: ValueType; from: () => string; keys?: { sql: string; prefixes: string[] } };

const ALIAS: Record<QueryRecord, string> = { bib: 'b', item: 'i', patron: 'p' };
const TABLE: Record<QueryRecord, string> = { bib: 'bibs', item: 'items', patron: 'patrons' };

/** Fixed fields a query can name, per record type: what each reads. */
const FIXED: Record<QueryRecord, Record<number, (a: string) => Source>> = {
  bib: {
    24: (a) => ({ type: 'text', sql: `${a}.lang` }),
    26: (a) => ({
      type: 'text',
      from: () =>
        `(select i.location_code as v from item_bibs ib join items i on i.id = ib.item_id where ib.bib_id = ${a}.id and i.deleted_date is null)`,
    }),
    28: (a) => ({ type: 'date', sql: `${a}.catalog_date` }),
    29: (a) => ({ type: 'text', sql: `${a}.bib_level` }),
    30: (a) => ({ type: 'text', sql: `${a}.material_type` }),
    31: (a) => ({ type: 'text', sql: `(case when ${a}.suppressed then 'n' else '-' end)` }),
    81: (a) => ({ type: 'number', sql: `${a}.id` }),
    83: (a) => ({ type: 'instant', sql: `${a}.created_date` }),
    84: (a) => ({ type: 'instant', sql: `${a}.updated_date` }),
    89: (a) => ({ type: 'text', sql: `${a}.country` }),
  },
  item: {
    61: (a) => ({ type: 'text', sql: `${a}.item_type` }),
    65: (a) => ({ type: 'instant', sql: `${a}.due_date` }),
    76: (a) => ({ type: 'number', sql: `(select count(*) from checkouts c where c.item_id = ${a}.id)` }),
    79: (a) => ({ type: 'text', sql: `${a}.location_code` }),
    81: (a) => ({ type: 'number', sql: `${a}.id` }),
    83: (a) => ({ type: 'instant', sql: `${a}.created_date` }),
    84: (a) => ({ type: 'instant', sql: `${a}.updated_date` }),
    88: (a) => ({ type: 'text', sql: `${a}.status` }),
  },
  patron: {
    43: (a) => ({ type: 'date', sql: `${a}.expiration_date` }),
    47: (a) => ({ type: 'number', sql: `${a}.patron_type` }),
    51: (a) => ({ type: 'date', sql: `${a}.birth_date` }),
    53: (a) => ({ type: 'text', sql: `${a}.home_library_code` }),
    56: (a) => ({ type: 'text', sql: `${a}.block_code` }),
    81: (a) => ({ type: 'number', sql: `${a}.id` }),
    83: (a) => ({ type: 'instant', sql: `${a}.created_date` }),
    84: (a) => ({ type: 'instant', sql: `${a}.updated_date` }),
    96: (a) => ({ type: 'number', sql: `${a}.money_owed` }),
  },
};

/** A bib's varField groups (Sierra's field group tags) as the MARC tags they gather. */
export const BIB_TAGS: Record<string, string[]> = {
  a: ['100', '110', '111', '700', '710', '711'],
  t: ['245', '246', '130', '240', '730', '740'],
  d: Array.from({ length: 100 }, (_, i) => String(600 + i)),
  i: ['020', '022'],
  n: Array.from({ length: 100 }, (_, i) => String(500 + i)),
  s: ['490', '800', '810', '811', '830'],
  p: ['260', '264'],
  o: ['001'],
};

const ITEM_TAGS: Record<string, (a: string) => string> = {
  b: (a) => `(select ${a}.barcode as v)`,
  c: (a) => `(select ${a}.call_number as v)`,
};

const PATRON_TAGS: Record<string, (a: string) => string> = {
  b: (a) => `(select b.barcode as v from patron_barcodes b where b.patron_id = ${a}.id)`,
  n: (a) => `(select unnest(${a}.names) as v)`,
  z: (a) => `(select unnest(${a}.emails) as v)`,
  t: (a) => `(select ph->>'number' as v from jsonb_array_elements(${a}.phones) ph)`,
  a: (a) =>
    `(select (select string_agg(l, '$') from jsonb_array_elements_text(ad->'lines') l) as v from jsonb_array_elements(${a}.addresses) ad)`,
  u: (a) => `(select u.unique_id as v from patron_unique_ids u where u.patron_id = ${a}.id)`,
  x: (a) => `(select unnest(${a}.notes) as v)`,
  m: (a) => `(select ${a}.message as v)`,
};

type Add = (value: unknown) => string;

/**
 * What compiling a query needs: a parameter's placeholder, the library's today (YYYY-MM-DD) for
 * relative dates, and where the statement keeps the record's MARC fields when it reads them once
 * for all its conditions (querySql).
 */
interface Ctx {
  add: Add;
  today: string;
  fields?: () => string;
}

/**
 * A bib's MARC fields array, read as jsonb: bibs.marc is json (kept as written), parsed once per
 * read as jsonb, as the json functions parse each field again at every step, a hundred times slower
 * (migration 0028 says the same of its keys).
 */
const marcFields = (a: string) => `((${a}.marc::jsonb)->'fields')`;

/** Up to this many tags, a JSON path picks a record's fields of those tags (one test per tag for each field). */
const PATH_TAGS = 8;

/**
 * The MARC fields (`fields`, a bib's fields array) with these tags (and indicators), each as the text
 * of its chosen subfields. The fields of the tags are picked before anything is read of them: by a
 * JSON path for a few tags, otherwise by the fields' keys (`?|`), so that a condition does not
 * expand every field of the record. Over the fields of 2,000 bibs, five single-tag conditions took
 * 326 ms expanding every field, 58 ms by path; the 100 tags of 6XX 146 ms, 83 ms by keys.
 * Tags are three digits (parse.ts), so the path is well formed; it is a parameter all the same.
 */
function marcValues(fields: string, tags: string[], add: Add, t: { ind1?: string; ind2?: string; subfields?: string } = {}): string {
  const codes = t.subfields ? `and position(s.key in ${add(t.subfields)}) > 0` : '';
  const text = (f: string) => `case jsonb_typeof(${f}) when 'string' then ${f} #>> '{}'
      else (select string_agg(s.value, ' ') from jsonb_array_elements(${f}->'subfields') sf, jsonb_each_text(sf) s where true ${codes}) end`;
  const indicators = (f: string) =>
    [
      t.ind1 === undefined ? '' : `and ${f}->>'ind1' = ${add(t.ind1)}`,
      t.ind2 === undefined ? '' : `and ${f}->>'ind2' = ${add(t.ind2)}`,
    ].join(' ');
  if (tags.length <= PATH_TAGS) {
    const path = `$[*] ? (${tags.map((tag) => `exists(@."${tag}")`).join(' || ')}).*`;
    return `(select ${text('f')} as v from jsonb_path_query(${fields}, ${add(path)}::jsonpath) f where true ${indicators('f')})`;
  }
  const keys = add(tags);
  return `(select ${text('f.value')} as v
    from jsonb_array_elements(${fields}) fe, jsonb_each(fe) f where fe ?| ${keys}::text[] and f.key = any(${keys}::text[]) ${indicators('f.value')})`;
}

/** The MARC fields migration 0076's carrel_marc_keys indexes (derive.ts, marcKeys). */
const KEYED_TAGS = new Set(['001', '020', '022', '035']);

/**
 * The index keys of a bib's values for these tags and subfields, when carrel_marc_keys holds them:
 * control fields whatever subfields are asked for (they have none), the others' $a or all subfields.
 */
function marcKeys(a: string, tags: string[], t: { ind1?: string; ind2?: string; subfields?: string } = {}) {
  if (t.ind1 !== undefined || t.ind2 !== undefined || !tags.every((tag) => KEYED_TAGS.has(tag))) return undefined;
  const prefixes = tags.map((tag) =>
    tag === '001' ? '001:' : t.subfields === undefined ? `${tag}:` : t.subfields === 'a' ? `${tag}a:` : '',
  );
  if (prefixes.includes('')) return undefined;
  return { sql: `carrel_marc_keys(${a}.marc_keys)`, prefixes };
}

/** Whether a query can search this fixed field of this record type without the library defining it. */
export const searchableFixed = (record: QueryRecord, id: number): boolean => Object.hasOwn(FIXED[record], id);

/** `fields`: the SQL of the bib's MARC fields array, when the statement has it at hand (querySql). */
function source(record: QueryRecord, target: Target, a: string, add: Add, at: string, fields = () => marcFields(a)): Source {
  const named = (what: string) => fail.invalidParameter(`${at}.target: ${record} records have no ${what} a query can search`);
  if (target.kind === 'defined')
    return {
      type: 'text',
      sql: `(select fv.value from patron_fixed_values fv where fv.patron_id = ${a}.id and fv.field_number = ${add(target.id)}::int)`,
    };
  if (target.kind === 'fixed') {
    const read = FIXED[record][target.id];
    if (!read)
      throw named(
        `fixed field ${target.id}; those searchable are ${Object.keys(FIXED[record]).join(', ')}${record === 'patron' ? ' and those the library profile defines' : ''}`,
      );
    return read(a);
  }
  if (target.kind === 'marc') {
    if (record !== 'bib') throw named('MARC fields');
    return { type: 'text', from: () => marcValues(fields(), [target.marcTag], add, target), keys: marcKeys(a, [target.marcTag], target) };
  }
  if (record === 'bib') {
    const tags = BIB_TAGS[target.tag];
    if (!tags) throw named(`varField tag ${target.tag}; tags are ${Object.keys(BIB_TAGS).join(', ')}`);
    return { type: 'text', from: () => marcValues(fields(), tags, add, target), keys: marcKeys(a, tags, target) };
  }
  const tags = record === 'item' ? ITEM_TAGS : PATRON_TAGS;
  const from = Object.hasOwn(tags, target.tag) ? tags[target.tag] : undefined;
  if (!from) throw named(`varField tag ${target.tag}; tags are ${Object.keys(tags).join(', ')}`);
  if (target.subfields) throw named(`subfields in varField ${target.tag} (it is not a MARC field)`);
  return { type: 'text', from: () => from(a) };
}

const DATE = /^(?:(\d{2})[-/](\d{2})[-/](\d{4})|(\d{4})-(\d{2})-(\d{2}))$/;

/** An operand as the value of its SQL parameter: trimmed text, a number, a date as YYYY-MM-DD; refused, naming where it is, when it is none. */
function operandValue(type: ValueType, raw: string, where = 'query'): string {
  const value = raw.trim();
  if (type === 'number') {
    if (!/^-?\d{1,15}(\.\d{1,6})?$/.test(value)) throw fail.invalidParameter(`${where}: "${raw}" is not a number`);
    return value;
  }
  if (type === 'date' || type === 'instant') {
    const m = DATE.exec(value);
    if (!m) throw fail.invalidParameter(`${where}: "${raw}" is not a date (MM-DD-YYYY or YYYY-MM-DD)`);
    const [y, mo, d] = m[1] ? [m[3], m[1], m[2]] : [m[4], m[5], m[6]];
    const iso = `${y}-${mo}-${d}`;
    if (y === '0000') throw fail.invalidParameter(`${where}: "${raw}" is not a date (years start at 0001)`);
    if (Number.isNaN(Date.parse(`${iso}T00:00:00Z`)) || new Date(`${iso}T00:00:00Z`).toISOString().slice(0, 10) !== iso)
      throw fail.invalidParameter(`${where}: "${raw}" is not a date`);
    return iso;
  }
  return value;
}

/** An operand as the SQL parameter its comparison takes. */
function typed(type: ValueType, raw: string, add: Add): string {
  const value = operandValue(type, raw);
  if (type === 'number') return `${add(value)}::numeric`;
  if (type === 'date' || type === 'instant') return `${add(value)}::date`;
  return `lower(${add(value)})`;
}

/**
 * The operands of an `in` as one array, each read as `typed` reads it: the value compared is then
 * written once (`v = any(…)`), where an `or` of comparisons repeats it per operand and PostgreSQL
 * computes it again for each (a MARC value is a subquery over the record's fields: a scan per operand).
 */
function typedList(type: ValueType, raws: string[], add: Add): string {
  const values = add(raws.map((raw) => operandValue(type, raw)));
  if (type === 'number') return `${values}::numeric[]`;
  if (type === 'date' || type === 'instant') return `${values}::date[]`;
  // Lowered by PostgreSQL, as the value is, once per statement (a subquery of nothing outside it).
  return `array(select lower(o) from unnest(${values}::text[]) o)`;
}

const like = (raw: string, before: boolean, after: boolean) =>
  `${before ? '%' : ''}${raw
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, '\\$&')}${after ? '%' : ''}`;

/** The start of a day, and of the day after, in UTC: the bounds an instant is compared between. */
const dayStart = (day: string) => `(${day}::timestamp at time zone 'UTC')`;
const nextDayStart = (day: string) => `((${day} + 1)::timestamp at time zone 'UTC')`;

/** An instant's comparisons with days, as ranges of the column itself (an index on it serves them). */
function instantCondition(op: Op, operands: string[], v: string, add: Add): string | undefined {
  const [first = '', second = ''] = operands;
  const d = (raw: string) => typed('instant', raw, add);
  switch (op) {
    case 'equals':
      return `(${v} >= ${dayStart(d(first))} and ${v} < ${nextDayStart(d(first))})`;
    case 'in':
      return `(${operands.map((o) => `(${v} >= ${dayStart(d(o))} and ${v} < ${nextDayStart(d(o))})`).join(' or ')})`;
    case 'between':
      return `(${v} >= ${dayStart(d(first))} and ${v} < ${nextDayStart(d(second))})`;
    case 'greater_than':
      return `${v} >= ${nextDayStart(d(first))}`;
    case 'greater_than_or_equal':
      return `${v} >= ${dayStart(d(first))}`;
    case 'less_than':
      return `${v} < ${dayStart(d(first))}`;
    case 'less_than_or_equal':
      return `${v} < ${nextDayStart(d(first))}`;
    default:
      return undefined;
  }
}

/** The condition one value `v` meets for a positive operator. */
function positive(op: Op, operands: string[], type: ValueType, v: string, add: Add): string {
  if (type === 'instant') {
    const range = instantCondition(op, operands, v, add);
    if (range) return range;
    return positive(op, operands, 'date', `(${v} at time zone 'UTC')::date`, add);
  }
  const value = type === 'text' ? `lower(trim(${v}))` : v;
  const [first = '', second = ''] = operands;
  switch (op) {
    case 'equals':
      return `${value} = ${typed(type, first, add)}`;
    case 'in':
      return `${value} = any(${typedList(type, operands, add)})`;
    case 'has':
      return `${value}::text like ${add(like(first, true, true))}`;
    case 'starts_with':
      return `${value}::text like ${add(like(first, false, true))}`;
    case 'ends_with':
      return `${value}::text like ${add(like(first, true, false))}`;
    // Case aside, as the other text comparisons; parse.ts keeps the pattern to what matches in linear time.
    case 'regex':
      return `${value}::text ~* ${add(first)}`;
    case 'between':
      return `${value} between ${typed(type, first, add)} and ${typed(type, second, add)}`;
    case 'greater_than':
      return `${value} > ${typed(type, first, add)}`;
    case 'less_than':
      return `${value} < ${typed(type, first, add)}`;
    case 'greater_than_or_equal':
      return `${value} >= ${typed(type, first, add)}`;
    case 'less_than_or_equal':
      return `${value} <= ${typed(type, first, add)}`;
    case 'exists':
      return `${v} is not null`;
    default:
      throw new Error(`not a positive operator: ${op}`);
  }
}

/** The negative operators, and the positive one each denies. */
const NEGATION: Partial<Record<Op, Op>> = { not_equal: 'equals', all_fields_not_have: 'has', not_within: 'between', not_exists: 'exists' };

/**
 * A relative date operator as the days it names, counted back from the library's today T: today
 * [T, T], yesterday [T-1, T-1], days_ago N [T-N, T-N]; last_week [T-7, T-1] and weeks_ago N the
 * seven days N weeks back [T-7N, T-7N+6]; last_month [T less a month, T-1] and months_ago N the
 * month N months back, in the same way.
 */
function relativeDays(op: Op, operands: string[], today: string): [string, string] {
  const n = Number(operands[0] ?? 0);
  switch (op) {
    case 'today':
      return [today, today];
    case 'yesterday':
      return [addDays(today, -1), addDays(today, -1)];
    case 'days_ago':
      return [addDays(today, -n), addDays(today, -n)];
    case 'last_week':
      return [addDays(today, -7), addDays(today, -1)];
    case 'weeks_ago':
      return [addDays(today, -7 * n), addDays(today, -7 * n + 6)];
    case 'last_month':
      return [addMonths(today, -1), addDays(today, -1)];
    case 'months_ago':
      return [addMonths(today, -n), addDays(addMonths(today, 1 - n), -1)];
    default:
      throw new Error(`not a relative date operator: ${op}`);
  }
}

/** Operators whose values are text whatever the target (a date's or a number's text is searched as written). */
const TEXT_OPS = new Set<Op>(['has', 'all_fields_not_have', 'at_least_one_field_not_have', 'starts_with', 'ends_with', 'regex']);

/**
 * A comparison as the SQL writes it: a relative date as the range of days it names (YYYY-MM-DD).
 * Refused, naming the member, where it cannot apply to the target's type: a relative date to what
 * is not a date, a value that is not of the target's type.
 */
function resolved(expr: { op: Op; operands: string[]; at: string }, type: ValueType, today: string): { op: Op; operands: string[] } {
  if (RELATIVE_DATE_OPS.has(expr.op)) {
    if (type !== 'date' && type !== 'instant')
      throw fail.invalidParameter(`${expr.at}.op: ${expr.op} compares dates, and this target is not a date`);
    return { op: 'between', operands: relativeDays(expr.op, expr.operands, today) };
  }
  if (!TEXT_OPS.has(expr.op)) expr.operands.forEach((raw, i) => operandValue(type, raw, `${expr.at}.operands[${i}]`));
  return expr;
}

/** Parts joined by "and"/"or" left to right, as Create Lists reads them: ((a and b) or c). */
function joined<T>(parts: T[], joiners: Joiner[], each: (part: T) => string): string {
  return parts.slice(1).reduce((sql, part, i) => `(${sql} ${joiners[i]} (${each(part)}))`, `(${each(parts[0]!)})`);
}

function condition(whole: Expr, src: Source, c: Ctx): string {
  if ('parts' in whole) return joined(whole.parts, whole.joiners, (part) => condition(part, src, c));
  const { add } = c;
  const expr = resolved(whole, src.type, c.today);
  // "At least one field does not have": some value that does not have the text.
  if (expr.op === 'at_least_one_field_not_have') {
    const lacks = (v: string) => `(${v} is not null and not (${positive('has', expr.operands, src.type, v, add)}))`;
    return 'sql' in src ? lacks(src.sql) : `exists (select 1 from ${src.from()} as m where ${lacks('m.v')})`;
  }
  const denied = NEGATION[expr.op];
  const op = denied ?? expr.op;
  if ('sql' in src) {
    const met = positive(op, expr.operands, src.type, src.sql, add);
    // Only AND and OR join conditions, so an unknown (null) one counts as false as it is; left bare,
    // a range of an indexed column stays one the index serves.
    return denied ? `not coalesce(${met}, false)` : met;
  }
  if (src.keys && (op === 'equals' || op === 'in')) {
    const { sql, prefixes } = src.keys;
    const operands = op === 'equals' ? expr.operands.slice(0, 1) : expr.operands;
    // The key of a value is lower(trim(value)) after its prefix; an operand is compared as `typed`
    // compares it. The keys wanted are one array, made once per statement.
    const values = add(operands.map((o) => operandValue('text', o)));
    const wanted = `array(select p || lower(o) from unnest(${add(prefixes)}::text[]) p, unnest(${values}::text[]) o)`;
    const met = `${sql} && ${wanted}`;
    return denied ? `not (${met})` : met;
  }
  const any = `exists (select 1 from ${src.from()} as m where m.v is not null and ${positive(op, expr.operands, src.type, 'm.v', add)})`;
  return denied ? `not ${any}` : any;
}

function compile(q: Query, record: QueryRecord, c: Ctx): string {
  if ('parts' in q) return joined(q.parts, q.joiners, (part) => compile(part, record, c));
  const a = ALIAS[record];
  if (q.record === record) return condition(q.expr, source(record, q.target, a, c.add, q.at, c.fields), c);
  // A condition on the linked records: an item's bibs, a bib's live items.
  if (record === 'bib' && q.record === 'item')
    return `exists (select 1 from item_bibs qb join items qi on qi.id = qb.item_id where qb.bib_id = b.id and qi.deleted_date is null
      and ${condition(q.expr, source('item', q.target, 'qi', c.add, q.at), c)})`;
  if (record === 'item' && q.record === 'bib')
    return `exists (select 1 from item_bibs qb join bibs qbb on qbb.id = qb.bib_id where qb.item_id = i.id
      and ${condition(q.expr, source('bib', q.target, 'qbb', c.add, q.at), c)})`;
  throw fail.invalidParameter(`${q.at}.target.record.type: a ${record} query cannot search ${q.record} records`);
}

/** The most candidates an index lookup hands on as an id list (more: the query runs on its own). */
const CANDIDATES = 10_000;

/** A bib's fixed fields kept in an indexed column (cat. date, record number, created, updated): a range of one is an index scan. */
const INDEXED_FIXED = new Set([28, 81, 83, 84]);
const RANGE_OPS = new Set<Op>([
  'equals',
  'in',
  'between',
  'greater_than',
  'less_than',
  'greater_than_or_equal',
  'less_than_or_equal',
  ...RELATIVE_DATE_OPS,
]);

type Leaf = Extract<Query, { target: Target }>;

/** The conditions every match must meet: the query itself, or the parts of a chain joined only by "and". */
function required(q: Query): Leaf[] {
  if (!('parts' in q)) return [q];
  return q.joiners.every((j) => j === 'and') ? q.parts.flatMap(required) : [];
}

/**
 * A condition every match must meet that an index answers, as the statement that asks the index for
 * the candidates: a MARC key's equality first (a handful of records), else a range of an indexed
 * fixed field. The planner cannot know how rare a key is (every key is unique, so the statistics
 * hold none as common, and it assumes half a percent of the table), nor how many records the
 * query's other conditions leave, and under "order by id limit 50" it would rather walk the table
 * in id order, or read every record of a range, reading each record's MARC, than ask the index for
 * the few: so Carrel asks the index first.
 */
function candidateStatement(q: Query, today: string): { sql: string; params: unknown[] } | undefined {
  const leaves = required(q).filter((leaf) => leaf.record === 'bib' && !('parts' in leaf.expr));
  const keyed = leaves.find((leaf) => {
    const { op } = leaf.expr as { op: Op };
    if ((op !== 'equals' && op !== 'in') || leaf.target.kind === 'fixed') return false;
    const src = source('bib', leaf.target, 'b', () => '', leaf.at);
    return 'from' in src && src.keys !== undefined;
  });
  // A range alone is one statement the planner serves as well from the same index.
  const range = leaves.find(
    (leaf) =>
      leaf !== q && leaf.target.kind === 'fixed' && INDEXED_FIXED.has(leaf.target.id) && RANGE_OPS.has((leaf.expr as { op: Op }).op),
  );
  const chosen = keyed ?? range;
  if (!chosen) return undefined;
  const { params, add } = parameters();
  const where = condition(chosen.expr, source('bib', chosen.target, 'b', add, chosen.at), { add, today });
  // "offset 0" plans the lookup on its own: under the limit the planner could still prefer the walk.
  // One row of the ids in id order, joined: thousands of rows cost more to send and read than one
  // text. The ids are sorted before they are joined, an aggregate over a sorted subquery with nothing
  // else in the statement keeping its order: the aggregate's own "order by" cost 3.0 ms against
  // 1.8 ms for a month of 8,500 ids (fastest of 60 runs each, taking turns).
  return {
    sql: `select coalesce(string_agg(id::text, ','), '') as ids from (select id
      from (select b.id from bibs b where b.deleted_date is null and ${where} offset 0 limit ${CANDIDATES + 1}) k order by id) s`,
    params,
  };
}

/** Today as UTC sees it: for a statement compiled outside a request (tests, plans). */
const utcToday = () => new Date().toISOString().slice(0, 10);

/** The statement that finds one page of the ids of the live records of `record` the query matches, ascending. */
export function querySql(
  record: QueryRecord,
  q: Query,
  limit: number,
  offset: number,
  options: { today?: string; candidates?: string[] } = {},
): { sql: string; params: unknown[] } {
  const { params, add } = parameters();
  const a = ALIAS[record];
  const today = options.today ?? utcToday();
  // Among candidates (each of which the conditions are computed for), a bib's MARC is parsed once
  // for all the conditions that read it, where each would parse it again: worth it from two on.
  let reads = 0;
  if (options.candidates && record === 'bib') compile(q, record, { add: parameters().add, today, fields: () => (reads++, '') });
  const once = reads >= 2;
  const among = options.candidates ? `and ${a}.id = any(${add(options.candidates)}::bigint[])` : '';
  const where = compile(q, record, { add, today, ...(once ? { fields: () => 'm.fields' } : {}) });
  const from = once ? `bibs b cross join lateral (select ${marcFields('b')} as fields offset 0) m` : `${TABLE[record]} ${a}`;
  const sql = `select ${a}.id::text from ${from} where ${a}.deleted_date is null ${among} and ${where}
     order by ${a}.id limit ${add(limit)} offset ${add(offset)}`;
  return { sql, params };
}

/** The regular expressions of a query, each with where it is in the body. */
function patterns(q: Query): { pattern: string; at: string }[] {
  const inExpr = (e: Expr): { pattern: string; at: string }[] =>
    'parts' in e ? e.parts.flatMap(inExpr) : e.op === 'regex' ? [{ pattern: e.operands[0]!, at: `${e.at}.operands[0]` }] : [];
  return 'parts' in q ? q.parts.flatMap(patterns) : inExpr(q.expr);
}

/** A statement run with what is left of the query's time: PostgreSQL ends it (57014) past the deadline. */
type Run = <T>(sql: string, params: unknown[]) => Promise<T[]>;

function within(db: Queryable, timeoutMs: number): Run {
  const deadline = performance.now() + timeoutMs;
  let first = true;
  return async <T>(sql: string, params: unknown[]) => {
    const left = Math.trunc(deadline - performance.now());
    if (left <= 0) throw Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
    // JIT off: PostgreSQL's estimates of the functions that read MARC are far above their cost (a
    // hundred rows each, nested), so a query of several MARC conditions passes the JIT threshold,
    // and compiling it took 3 s for a statement that ran in 25 ms (ten conditions over 100 bibs).
    await db.exec(`${first ? 'set local jit = off; ' : ''}set local statement_timeout = ${left}`);
    first = false;
    return db.query<T>(sql, params);
  };
}

/** Refuses, naming it, a regular expression PostgreSQL cannot read, before it is matched against any record. */
async function checkPatterns(run: Run, q: Query): Promise<void> {
  for (const { pattern, at } of patterns(q)) {
    try {
      await run(`select '' ~* $1 as ok`, [pattern]);
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      if (code === '2201B' || code === '54000') throw fail.invalidParameter(`${at}: not a regular expression: ${message ?? code}`);
      throw error;
    }
  }
}

/**
 * One page of the matches among candidates (in id order), taken a slice at a time, each slice four
 * times the last, each asked for only the matches still wanted: PostgreSQL reads a slice in id order
 * and stops at the last match wanted, so the query's conditions (a MARC scan each) are computed for
 * the records up to the page's end, not for every candidate; when few candidates match, every one
 * is read once all the same. Over 1,000,000 bibs (a month of cataloguing, 8,500 candidates),
 * slices of 100, 200, 400… each read whole took three to five statements and read past the page.
 */
async function pageAmong(
  run: Run,
  record: QueryRecord,
  q: Query,
  candidates: string[],
  limit: number,
  offset: number,
  today: string,
): Promise<string[]> {
  const wanted = offset + limit;
  const found: string[] = [];
  for (let at = 0, size = Math.max(4 * wanted, 400); at < candidates.length && found.length < wanted; at += size, size *= 4) {
    const slice = candidates.slice(at, at + size);
    const { sql, params } = querySql(record, q, wanted - found.length, 0, { today, candidates: slice });
    found.push(...(await run<{ id: string }>(sql, params)).map((r) => r.id));
  }
  return found.slice(offset, wanted);
}

/**
 * Ids of the live records of `record` the query matches, ascending, one page of them; db is a
 * transaction, and the statements together end past timeoutMs; `today` (the library's, given when
 * the query names relative dates) is the day they count back from.
 */
export async function queryIds(
  db: Queryable,
  record: QueryRecord,
  q: Query,
  limit: number,
  offset: number,
  timeoutMs: number,
  today = utcToday(),
): Promise<string[]> {
  // Compiled first: a refusal comes before any statement.
  const whole = querySql(record, q, limit, offset, { today });
  const lookup = record === 'bib' ? candidateStatement(q, today) : undefined;
  const run = within(db, timeoutMs);
  await checkPatterns(run, q);
  if (lookup) {
    const [found] = await run<{ ids: string }>(lookup.sql, lookup.params);
    if (!found?.ids) return [];
    const ids = found.ids.split(',');
    if (ids.length <= CANDIDATES) return pageAmong(run, record, q, ids, limit, offset, today);
  }
  const rows = await run<{ id: string }>(whole.sql, whole.params);
  return rows.map((r) => r.id);
}
