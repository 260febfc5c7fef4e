// Writes a JSON value as XML by its schema (the mapping is in index.ts). Only members the schema
// names are written, as the JSON answers' serializer does; the order is the schema's.
import { shapeOf, type SchemaRefs } from './shape.ts';

export type { SchemaRefs } from './shape.ts';

export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

// Characters XML 1.0 cannot carry at all (C0 controls but tab, newline and return; lone
// surrogates; U+FFFE/U+FFFF) become U+FFFD rather than making the document unreadable.
// eslint-disable-next-line no-control-regex -- these control characters are exactly what must be matched
const NOT_XML = /[\0-\x08\v\f\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;
const SPECIAL = /[&<>"]/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text (or an attribute's value) escaped for XML. */
export function escapeXmlText(text: string): string {
  return text.replace(NOT_XML, '\ufffd').replace(SPECIAL, (c) => ENTITY[c]!);
}

export interface WriteOptions {
  /** The default namespace of the element and everything in it. */
  namespace?: string;
}

/** `<name>…</name>` for value by schema (not an array); declares xsi on the element when a null needs it. */
export function writeXml(name: string, value: unknown, schema: unknown, refs: SchemaRefs, options: WriteOptions = {}): string {
  const parts: string[] = [];
  writeElement(parts, name, value, schema, refs, 0);
  const body = parts.join('');
  if (body === '') return `<${name}/>`;
  const declarations =
    (options.namespace !== undefined ? ` xmlns="${escapeXmlText(options.namespace)}"` : '') +
    (body.includes(' xsi:nil="true"') ? ` xmlns:xsi="${XSI_NS}"` : '');
  // The first element's opening tag is `<name` followed by '>', '/' or ' ': declarations go right after the name.
  return declarations ? `<${name}${declarations}${body.slice(name.length + 1)}` : body;
}

// Deep enough for every answer Carrel has; a deeper value is a bug (a cycle), not data.
const MAX_DEPTH = 64;

function writeElement(
  parts: string[],
  name: string,
  value: unknown,
  schema: unknown,
  refs: SchemaRefs,
  depth: number,
  attributes = '',
): void {
  if (depth > MAX_DEPTH) throw new Error(`XML writer: <${name}> is nested deeper than ${MAX_DEPTH}`);
  if (value === undefined) return;
  if (value === null) {
    parts.push(`<${name}${attributes} xsi:nil="true"/>`);
    return;
  }
  const shape = shapeOf(schema, refs);
  if (shape.kind === 'array') {
    if (!Array.isArray(value)) throw new Error(`XML writer: <${name}> should hold an array`);
    // An array member is its element repeated; an array directly inside an array wraps each entry in <item>.
    for (const entry of value) {
      if (Array.isArray(entry)) {
        parts.push(`<${name}${attributes}>`);
        writeElement(parts, 'item', entry, shape.items, refs, depth + 1);
        parts.push(`</${name}>`);
      } else {
        writeElement(parts, name, entry, shape.items, refs, depth + 1, attributes);
      }
    }
    return;
  }
  if (shape.kind === 'object' && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    parts.push(`<${name}${attributes}>`);
    for (const member of shape.members) writeElement(parts, member.name, record[member.name], member.schema, refs, depth + 1);
    parts.push(`</${name}>`);
    return;
  }
  if (shape.kind === 'map' && typeof value === 'object' && !Array.isArray(value)) {
    parts.push(`<${name}${attributes}>`);
    for (const [key, entry] of Object.entries(value as Record<string, unknown>)) {
      writeElement(parts, 'entry', entry, shape.value, refs, depth + 1, ` key="${escapeXmlText(key)}"`);
    }
    parts.push(`</${name}>`);
    return;
  }
  // A scalar, or a value whose schema allows anything: objects and arrays there are written as JSON text.
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  parts.push(text === '' ? `<${name}${attributes}/>` : `<${name}${attributes}>${escapeXmlText(text)}</${name}>`);
}
