// MARC-in-JSON (https://github.com/marc4j/marc4j/wiki/MARC-in-JSON-Description):
// {"leader": "...", "fields": [{"001": "..."}, {"245": {"ind1": "1", "ind2": "0", "subfields": [{"a": "..."}]}}]}
import { isControlField, MarcError, type Field, type MarcRecord } from './record.ts';

export interface MarcInJson {
  leader: string;
  fields: Record<string, string | { ind1: string; ind2: string; subfields: Record<string, string>[] }>[];
}

function indicator(value: unknown, tag: string, which: string): string {
  if (value === undefined || value === null || value === '') return ' ';
  if (typeof value !== 'string') throw new MarcError(`field ${tag}: ${which} must be a string`);
  return value;
}

/**
 * One record from its parsed JSON; throws MarcError naming what is wrong with its shape. What the
 * record may hold (tags, indicators, subfield codes, lengths) is checked by validate.ts.
 */
export function fromMarcInJson(json: unknown): MarcRecord {
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new MarcError('a MARC-in-JSON record must be an object');
  const { leader, fields } = json as { leader?: unknown; fields?: unknown };
  if (typeof leader !== 'string') throw new MarcError('leader must be a string');
  if (!Array.isArray(fields)) throw new MarcError('fields must be an array');
  const out: Field[] = fields.map((entry: unknown, i) => {
    if (!entry || typeof entry !== 'object') throw new MarcError(`fields[${i}] must be an object`);
    const keys = Object.keys(entry);
    if (keys.length !== 1) throw new MarcError(`fields[${i}] must have exactly one key, its tag`);
    const tag = keys[0]!;
    const body = (entry as Record<string, unknown>)[tag];
    if (typeof body === 'string') return { tag, value: body };
    if (!body || typeof body !== 'object') throw new MarcError(`field ${tag} must be a string or an object`);
    const { ind1, ind2, subfields } = body as { ind1?: unknown; ind2?: unknown; subfields?: unknown };
    if (!Array.isArray(subfields)) throw new MarcError(`field ${tag}: subfields must be an array`);
    return {
      tag,
      ind1: indicator(ind1, tag, 'ind1'),
      ind2: indicator(ind2, tag, 'ind2'),
      subfields: subfields.map((sf: unknown) => {
        const pairs = sf && typeof sf === 'object' ? Object.entries(sf) : [];
        const [code, value] = pairs[0] ?? [];
        if (pairs.length !== 1 || code === undefined || typeof value !== 'string') {
          throw new MarcError(`field ${tag}: each subfield must be {"code": "value"}`);
        }
        return { code, value };
      }),
    };
  });
  return { leader, fields: out };
}

export function toMarcInJson(record: MarcRecord): MarcInJson {
  return {
    leader: record.leader,
    fields: record.fields.map((field) =>
      isControlField(field)
        ? { [field.tag]: field.value }
        : { [field.tag]: { ind1: field.ind1, ind2: field.ind2, subfields: field.subfields.map((sf) => ({ [sf.code]: sf.value })) } },
    ),
  };
}

/**
 * The same document as JSON.stringify(toMarcInJson(record)), written straight to text: bulk
 * imports send thousands of records at a time, and skipping the intermediate objects halves the
 * garbage they make.
 */
export function marcInJsonText(record: MarcRecord): string {
  let out = `{"leader":${JSON.stringify(record.leader)},"fields":[`;
  for (let i = 0; i < record.fields.length; i++) {
    const field = record.fields[i]!;
    if (i > 0) out += ',';
    if (isControlField(field)) {
      out += `{${JSON.stringify(field.tag)}:${JSON.stringify(field.value)}}`;
      continue;
    }
    out += `{${JSON.stringify(field.tag)}:{"ind1":${JSON.stringify(field.ind1)},"ind2":${JSON.stringify(field.ind2)},"subfields":[`;
    for (let j = 0; j < field.subfields.length; j++) {
      const sf = field.subfields[j]!;
      out += `${j > 0 ? ',' : ''}{${JSON.stringify(sf.code)}:${JSON.stringify(sf.value)}}`;
    }
    out += ']}}';
  }
  return `${out}]}`;
}
