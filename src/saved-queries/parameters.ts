// A saved query's named parameters: their declarations (name, type, required or a default) and
// the values a caller gives for them as text, checked against their types before the statement
// runs, so a bad value is the caller's 400 naming the parameter, not PostgreSQL's cast error.
import { fail } from '../shared/errors.ts';

export const PARAMETER_TYPES = ['text', 'integer', 'number', 'date', 'boolean'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

export interface ParameterDef {
  name: string;
  type: ParameterType;
  required: boolean;
  /** Used when the caller gives none (a parameter with a default is not required). */
  default?: string;
  description?: string;
}

/** Each type's PostgreSQL type, which the statement receives its value as. */
export const PG_TYPE: Record<ParameterType, string> = {
  text: 'text',
  integer: 'bigint',
  number: 'numeric',
  date: 'date',
  boolean: 'boolean',
};

/** Names the results URL takes for itself. */
export const RESERVED = new Set(['limit', 'offset', 'format']);
const NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const MAX_PARAMETERS = 20;
const MAX_TEXT = 1000;

function isDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** The value as the statement receives it (text), or why it is not one of its type. */
function checked(type: ParameterType, raw: string): { value: string } | { why: string } {
  switch (type) {
    case 'text':
      return raw.length <= MAX_TEXT ? { value: raw } : { why: `is longer than ${MAX_TEXT} characters` };
    case 'integer':
      return /^-?\d{1,18}$/.test(raw) ? { value: raw } : { why: 'is not a whole number' };
    case 'number':
      return /^-?(\d{1,30}(\.\d{0,30})?|\.\d{1,30})$/.test(raw) ? { value: raw } : { why: 'is not a number' };
    case 'date':
      return isDate(raw) ? { value: raw } : { why: 'is not a date (YYYY-MM-DD)' };
    case 'boolean':
      return /^(true|false)$/i.test(raw) ? { value: raw.toLowerCase() } : { why: 'is not true or false' };
  }
}

export interface ParameterInput {
  name: string;
  type: string;
  required?: boolean;
  default?: string | number | boolean;
  description?: string;
}

/** Declarations as given in a request body, checked; refused as invalid input naming the parameter. */
export function parseDefinitions(input: readonly ParameterInput[]): ParameterDef[] {
  if (input.length > MAX_PARAMETERS) throw fail.invalidInput(`parameters: at most ${MAX_PARAMETERS}`);
  const seen = new Set<string>();
  return input.map((p, i) => {
    const where = `parameters[${i}]`;
    if (!NAME.test(p.name)) throw fail.invalidInput(`${where}.name: a lower-case letter or _, then letters, digits or _ (at most 63)`);
    if (RESERVED.has(p.name)) throw fail.invalidInput(`${where}.name: ${p.name} is taken by the results URL (limit, offset, format)`);
    if (seen.has(p.name)) throw fail.invalidInput(`${where}.name: ${p.name} is declared twice`);
    seen.add(p.name);
    if (!(PARAMETER_TYPES as readonly string[]).includes(p.type))
      throw fail.invalidInput(`${where}.type: one of ${PARAMETER_TYPES.join(', ')}, not ${JSON.stringify(p.type)}`);
    const type = p.type as ParameterType;
    const def: ParameterDef = { name: p.name, type, required: p.default === undefined && p.required !== false };
    if (p.default !== undefined) {
      if (p.required === true) throw fail.invalidInput(`${where}: a parameter with a default is not required`);
      const value = checked(type, String(p.default));
      if ('why' in value) throw fail.invalidInput(`${where}.default: ${JSON.stringify(p.default)} ${value.why}`);
      def.default = value.value;
    }
    if (p.description !== undefined) {
      if (p.description.length > 500) throw fail.invalidInput(`${where}.description: at most 500 characters`);
      def.description = p.description;
    }
    return def;
  });
}

/**
 * The values for a run, in declaration order, from the caller's (text) values by name: each
 * checked against its type, a missing one its default or null; refused when a required one is
 * missing, a value is not of its type, or a name is not a parameter of the query.
 */
export function bindValues(defs: readonly ParameterDef[], given: Readonly<Record<string, string>>): (string | null)[] {
  const known = new Set(defs.map((d) => d.name));
  const unknown = Object.keys(given).find((name) => !known.has(name));
  if (unknown !== undefined)
    throw fail.unknownParameter(
      `${unknown} is not a parameter of this query${defs.length ? ` (its parameters: ${defs.map((d) => d.name).join(', ')})` : ''}`,
    );
  return defs.map((def) => {
    const raw = given[def.name];
    if (raw === undefined || raw === '') {
      if (def.required) throw fail.missingParameter(`${def.name} (${def.type}) is required`);
      return def.default ?? null;
    }
    const value = checked(def.type, raw);
    if ('why' in value) throw fail.invalidParameter(`${def.name}: ${JSON.stringify(raw)} ${value.why}`);
    return value.value;
  });
}
