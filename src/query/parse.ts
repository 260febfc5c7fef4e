// Sierra's JSON query language (the one its Create Lists and POST /{bibs,items,patrons}/query take),
// read into a checked tree. Every problem is a 400 code 108 naming where it is in the body
// (`queries[2].expr.op`), so a client's mistake is never a 500 or an empty answer. A query's cost
// is bounded by its shape as it is read, before any statement: so many conditions, so many values
// in all, so many conditions that read every record's MARC (QueryLimits). The grammar is the one
// Create Lists exports: groups as {"queries": [...]} or as plain nested arrays, a target's field
// group as {"field": {"tag"}} or a bare "tag", "?" for any indicator, the editor's "" padding.
import type { QueryLimits } from '../config.ts';
import { fail } from '../shared/errors.ts';
import type { RecordKind } from '../shared/fixed-fields.ts';

/** The record types a JSON query searches (Sierra's query endpoints: bibs, items, patrons). */
export type QueryRecord = Exclude<RecordKind, 'holding' | 'order'>;

export const OPS = {
  equals: 1,
  not_equal: 1,
  in: -1,
  has: 1,
  all_fields_not_have: 1,
  at_least_one_field_not_have: 1,
  regex: 1,
  starts_with: 1,
  ends_with: 1,
  between: 2,
  not_within: 2,
  greater_than: 1,
  less_than: 1,
  greater_than_or_equal: 1,
  less_than_or_equal: 1,
  exists: 0,
  not_exists: 0,
  // Days counted back from the library's today: a date field only (repository.ts, relativeDays).
  today: 0,
  yesterday: 0,
  last_week: 0,
  last_month: 0,
  days_ago: 1,
  weeks_ago: 1,
  months_ago: 1,
} as const satisfies Record<string, number>;
export type Op = keyof typeof OPS;

/** The operators that name days relative to today, each answered as a range of days. */
export const RELATIVE_DATE_OPS = new Set<Op>(['today', 'yesterday', 'last_week', 'last_month', 'days_ago', 'weeks_ago', 'months_ago']);
/** The most days, weeks or months back a relative date operator counts: a century. */
const MAX_BACK: Partial<Record<Op, number>> = { days_ago: 36_500, weeks_ago: 5_200, months_ago: 1_200 };
/** The longest regular expression a query may hold: with no back-references, matching is linear in the text for a bounded pattern. */
export const MAX_PATTERN = 200;

export type Joiner = 'and' | 'or';
export type Target =
  | { kind: 'fixed'; id: number }
  /** A patron fixed field the library defines (its profile's patronFixedFields). */
  | { kind: 'defined'; id: number }
  | { kind: 'tag'; tag: string; subfields?: string }
  | { kind: 'marc'; marcTag: string; ind1?: string; ind2?: string; subfields?: string };
/** A comparison, and where it is in the body (`queries[4].expr`), for the refusals only the records' types can tell. */
export type Expr = { op: Op; operands: string[]; at: string } | { parts: Expr[]; joiners: Joiner[] };
export type Query = { record: QueryRecord; target: Target; expr: Expr; at: string } | { parts: Query[]; joiners: Joiner[] };

/** The query with each patron fixed-field target in `defined` read as the library's own field. */
export function withDefinedFields(q: Query, defined: ReadonlySet<number>): Query {
  if ('parts' in q) return { parts: q.parts.map((p) => withDefinedFields(p, defined)), joiners: q.joiners };
  if (q.record !== 'patron' || q.target.kind !== 'fixed' || !defined.has(q.target.id)) return q;
  return { ...q, target: { kind: 'defined', id: q.target.id } };
}

/** The numbers of the patron fixed fields a query names. */
export function patronFixedTargets(q: Query): number[] {
  if ('parts' in q) return q.parts.flatMap(patronFixedTargets);
  return q.record === 'patron' && q.target.kind === 'fixed' ? [q.target.id] : [];
}

// Deeper nesting adds no meaning a client needs, and each level is a level of the statement's parentheses.
const MAX_DEPTH = 16;

const bad = (path: string, why: string) => fail.invalidParameter(`${path || 'query'}: ${why}`);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What a query has cost so far as it is read, checked against the limits at each condition, so the
 * refusal names the condition that passes one. A condition is one comparison ({"op", "operands"});
 * one on a MARC field or a bib's field group is a MARC scan, as its statement reads every field of
 * each record it is asked about (repository.ts, marcValues).
 */
class Cost {
  private parts = 0;
  private operands = 0;
  private marcScans = 0;

  constructor(private readonly limits: QueryLimits) {}

  condition(path: string, operands: number, marcScan: boolean): void {
    const { maxParts, maxOperands, maxMarcScans } = this.limits;
    if (++this.parts > maxParts) throw bad(path, `a query may hold at most ${maxParts} conditions`);
    this.operands += operands;
    if (this.operands > maxOperands)
      throw bad(`${path}.operands`, `brings the query to ${this.operands} values; a query may hold at most ${maxOperands} in all`);
    if (marcScan && ++this.marcScans > maxMarcScans)
      throw bad(path, `a query may hold at most ${maxMarcScans} conditions on MARC fields (each reads every record's MARC)`);
  }
}

/** [a, "and", b, "or", c]: the parts and the joiners between them, each checked by `each`. */
function alternating<T>(raw: unknown[], path: string, each: (v: unknown, path: string) => T): { parts: T[]; joiners: Joiner[] } {
  if (raw.length === 0 || raw.length % 2 === 0) throw bad(path, 'must alternate parts and "and"/"or", starting and ending with a part');
  const parts: T[] = [];
  const joiners: Joiner[] = [];
  raw.forEach((v, i) => {
    if (i % 2 === 0) parts.push(each(v, `${path}[${i}]`));
    else {
      const joiner = typeof v === 'string' ? v.toLowerCase() : v;
      if (joiner !== 'and' && joiner !== 'or') throw bad(`${path}[${i}]`, 'must be "and" or "or"');
      joiners.push(joiner);
    }
  });
  return { parts, joiners };
}

function operand(v: unknown, path: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw bad(path, 'must be a string (or a number)');
}

function expression(raw: unknown, path: string, depth: number, cost: Cost, marcScan: boolean): Expr {
  if (depth > MAX_DEPTH) throw bad(path, `nests more than ${MAX_DEPTH} deep`);
  if (Array.isArray(raw)) {
    const { parts, joiners } = alternating(raw, path, (v, p) => expression(v, p, depth + 1, cost, marcScan));
    return parts.length === 1 ? parts[0]! : { parts, joiners };
  }
  if (!isObject(raw)) throw bad(path, 'must be an expression {"op", "operands"} or a list of them joined by "and"/"or"');
  const op = raw.op;
  if (typeof op !== 'string' || !Object.hasOwn(OPS, op)) throw bad(`${path}.op`, `must be one of ${Object.keys(OPS).join(', ')}`);
  // One published client sends a single "operand" where Sierra documents "operands".
  const given = raw.operands ?? (raw.operand === undefined ? [] : [raw.operand]);
  if (!Array.isArray(given)) throw bad(`${path}.operands`, 'must be a list');
  // Counted before the values are read: a list past the limit is not read at all.
  cost.condition(path, given.length, marcScan);
  const unknown = Object.keys(raw).filter((k) => !['op', 'operands', 'operand'].includes(k));
  if (unknown.length) throw bad(`${path}.${unknown[0]}`, 'is not part of an expression');
  let operands = given.map((v, i) => operand(v, `${path}.operands[${i}]`));
  const arity: number = OPS[op as Op];
  // The Create Lists editor pads one-value operators with "" as a second operand (and a list with a last "").
  if (arity >= 0) operands = arity === 2 ? operands : operands.filter((v, i) => i < arity || v !== '');
  else if (operands.length > 1 && operands.at(-1) === '') operands = operands.slice(0, -1);
  if (arity >= 0 && operands.length !== arity)
    throw bad(`${path}.operands`, `${op} takes ${arity === 0 ? 'no values' : arity === 1 ? 'one value' : 'two values'}`);
  if (arity < 0 && operands.length === 0) throw bad(`${path}.operands`, `${op} takes at least one value`);
  const most = MAX_BACK[op as Op];
  if (most !== undefined && !(/^\d{1,5}$/.test(operands[0]!.trim()) && Number(operands[0]) <= most))
    throw bad(`${path}.operands[0]`, `${op} takes a whole number of ${op.split('_')[0]} back, 0 to ${most}`);
  if (op === 'regex') checkPattern(operands[0]!, `${path}.operands[0]`);
  return { op: op as Op, operands, at: path };
}

/**
 * A regular expression is matched by PostgreSQL, whose engine runs one without back-references as
 * an automaton: time linear in the text for a pattern of bounded size. So a pattern is refused when
 * it holds what would leave that (a back-reference, a lookaround, options, a long or deeply counted
 * repetition), and when it is longer than MAX_PATTERN. What PostgreSQL cannot read is refused
 * before the query runs (repository.ts, checkPatterns).
 */
function checkPattern(pattern: string, path: string): void {
  if (pattern.length > MAX_PATTERN) throw bad(path, `a regular expression may be at most ${MAX_PATTERN} characters`);
  if (/\\[1-9]/.test(pattern)) throw bad(path, 'back-references are not allowed in a regular expression');
  if (/\(\?(?!:)|^\*\*\*/.test(pattern)) throw bad(path, 'only (?: ) groups are allowed: no lookaround, options or directors');
  for (const m of pattern.matchAll(/\{(\d*)(?:,(\d*))?\}/g)) {
    if (Number(m[1] || 0) > 50 || Number(m[2] || 0) > 50) throw bad(path, 'a counted repetition may count at most 50');
  }
}

function target(raw: unknown, path: string): { record: QueryRecord; target: Target } {
  if (!isObject(raw)) throw bad(path, 'must be an object {"record": {"type"}, and "id", "field", "tag" or "specialField"}');
  const record = raw.record;
  const type = isObject(record) ? record.type : undefined;
  if (type !== 'bib' && type !== 'item' && type !== 'patron') throw bad(`${path}.record.type`, 'must be bib, item or patron');
  const found = ['id', 'field', 'tag', 'specialField'].filter((k) => raw[k] !== undefined);
  if (found.length !== 1)
    throw bad(path, 'must name the data by exactly one of "id" (a fixed field), "field" or "tag" (a varField) or "specialField"');
  if (raw.specialField !== undefined)
    throw bad(`${path}.specialField`, 'special fields are not searchable here; search the MARC field instead');
  if (raw.id !== undefined) {
    if (typeof raw.id !== 'number' || !Number.isInteger(raw.id)) throw bad(`${path}.id`, 'must be a fixed-field number');
    return { record: type, target: { kind: 'fixed', id: raw.id } };
  }
  // Create Lists writes a field group either inside "field" or as the target's own "tag".
  const field = raw.tag !== undefined ? { tag: raw.tag } : raw.field;
  const at = raw.tag !== undefined ? path : `${path}.field`;
  if (!isObject(field)) throw bad(at, 'must be {"tag"} or {"marcTag", "ind1", "ind2", "subfields"}');
  const subfields = field.subfields;
  if (subfields !== undefined && (typeof subfields !== 'string' || !/^[a-z0-9]*$/.test(subfields)))
    throw bad(`${at}.subfields`, 'must be subfield codes, such as "ab"');
  if (field.marcTag === undefined) {
    if (typeof field.tag !== 'string' || !/^[a-z0-9=^]$/i.test(field.tag)) throw bad(`${at}.tag`, 'must be one field tag letter');
    const out: Target = { kind: 'tag', tag: field.tag };
    if (subfields) out.subfields = subfields;
    return { record: type, target: out };
  }
  if (typeof field.marcTag !== 'string' || !/^\d{3}$/.test(field.marcTag))
    throw bad(`${path}.field.marcTag`, 'must be a three-digit MARC tag');
  // "?" is Create Lists' wildcard: any indicator, as when none is given; "" is a blank.
  const one = (name: 'ind1' | 'ind2') => {
    const v = field[name];
    if (v === undefined || v === '?') return undefined;
    if (typeof v !== 'string' || v.length > 1) throw bad(`${path}.field.${name}`, 'must be one character, or "?" for any');
    return v === '' ? ' ' : v;
  };
  const out: Target = { kind: 'marc', marcTag: field.marcTag };
  const ind1 = one('ind1');
  const ind2 = one('ind2');
  if (ind1 !== undefined) out.ind1 = ind1;
  if (ind2 !== undefined) out.ind2 = ind2;
  if (subfields) out.subfields = subfields;
  return { record: type, target: out };
}

function query(raw: unknown, path: string, depth: number, cost: Cost): Query {
  if (depth > MAX_DEPTH) throw bad(path, `nests more than ${MAX_DEPTH} deep`);
  // A group written as a plain array [q, "and", q], as Create Lists exports a parenthesised group.
  if (Array.isArray(raw)) {
    const { parts, joiners } = alternating(raw, path, (v, p) => query(v, p, depth + 1, cost));
    return parts.length === 1 ? parts[0]! : { parts, joiners };
  }
  if (!isObject(raw)) throw bad(path, 'must be a query {"target", "expr"}, {"queries": [...]} or a group [q, "and", q]');
  if (raw.queries !== undefined) {
    if (!Array.isArray(raw.queries)) throw bad(`${path}.queries`, 'must be a list');
    const { parts, joiners } = alternating(raw.queries, `${path ? `${path}.` : ''}queries`, (v, p) => query(v, p, depth + 1, cost));
    return parts.length === 1 ? parts[0]! : { parts, joiners };
  }
  const at = (name: string) => (path ? `${path}.${name}` : name);
  const unknown = Object.keys(raw).filter((k) => !['target', 'expr'].includes(k));
  if (unknown.length) throw bad(at(unknown[0]!), 'is not part of a query');
  const read = target(raw.target, at('target'));
  // A bib's MARC field, or one of its field groups (read from the MARC): the conditions on it read the MARC.
  const marcScan = read.target.kind === 'marc' || (read.record === 'bib' && read.target.kind === 'tag');
  return { ...read, expr: expression(raw.expr, at('expr'), depth + 1, cost, marcScan), at: path || 'query' };
}

/** The body of a query request, checked, and refused when its shape passes the limits. */
export function parseQuery(body: unknown, limits: QueryLimits): Query {
  return query(body, '', 0, new Cost(limits));
}

/** Whether a query names days relative to today (which the library's settings then give). */
export function usesRelativeDates(q: Query): boolean {
  const inExpr = (e: Expr): boolean => ('parts' in e ? e.parts.some(inExpr) : RELATIVE_DATE_OPS.has(e.op));
  return 'parts' in q ? q.parts.some(usesRelativeDates) : inExpr(q.expr);
}
