// Reads an element into the JSON value its schema describes: the inverse of writeXml. Strict: an
// element the schema does not name, a second element where one is allowed, text where elements are
// expected or a number that is not one are refused, naming the element's path (PlaceHold.pickupLocation).
// Constraints beyond shape (lengths, ranges, patterns) are left to the schema's validator.
import { shapeOf, type SchemaRefs } from './shape.ts';
import type { XmlElement } from './tree.ts';
import { XSI_NS } from './write.ts';

export class XmlValueError extends Error {
  constructor(
    /** Where: the element path, dotted. */
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

const NIL = `{${XSI_NS}}nil`;
const INTEGER = /^[+-]?\d{1,16}$/;
const DECIMAL = /^[+-]?(?:\d{1,20}(?:\.\d{0,20})?|\.\d{1,20})$/;

/** The value of element by schema; path names it in errors. Elements are matched by local name. */
export function valueFromXml(element: XmlElement, schema: unknown, refs: SchemaRefs, path = element.name): unknown {
  const shape = shapeOf(schema, refs);
  const nil = element.attributes[NIL];
  if (nil === 'true' || nil === '1') {
    if (!shape.nullable) throw new XmlValueError(path, 'cannot be nil');
    return null;
  }
  if (shape.kind === 'object' || shape.kind === 'map') {
    if (element.text.trim() !== '') throw new XmlValueError(path, 'holds text where elements were expected');
  } else if (element.children.length > 0) {
    throw new XmlValueError(path, `holds an element <${element.children[0]!.name}> where text was expected`);
  }
  switch (shape.kind) {
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const child of element.children) {
        const member = shape.members.find((m) => m.name === child.name);
        const where = `${path}.${child.name}`;
        // A member is in its parent's namespace (as the XSD qualifies it) or, as hand-written
        // requests often leave it, in none; one in any other namespace is someone else's element.
        if (child.ns !== element.ns && child.ns !== '')
          throw new XmlValueError(where, `is in the namespace "${child.ns}", not "${element.ns}"`);
        if (!member)
          throw new XmlValueError(where, `is not an element of ${element.name}; it has ${shape.members.map((m) => m.name).join(', ')}`);
        const memberShape = shapeOf(member.schema, refs);
        if (memberShape.kind === 'array') {
          const list = (result[child.name] ??= []) as unknown[];
          list.push(arrayEntry(child, memberShape.items, refs, `${where}[${list.length}]`));
        } else if (child.name in result) {
          throw new XmlValueError(where, 'is given more than once');
        } else {
          result[child.name] = valueFromXml(child, member.schema, refs, where);
        }
      }
      return result;
    }
    case 'map': {
      const result: Record<string, unknown> = {};
      for (const child of element.children) {
        const key = child.attributes.key;
        if (child.name !== 'entry' || key === undefined) throw new XmlValueError(`${path}.${child.name}`, 'expected <entry key="…">');
        if (Object.hasOwn(result, key)) throw new XmlValueError(`${path}.entry[${key}]`, 'is given more than once');
        result[key] = valueFromXml(child, shape.value, refs, `${path}.entry[${key}]`);
      }
      return result;
    }
    case 'array':
      // An array as the element itself (not as a member) is its <item> children.
      return element.children.map((child, i) => arrayEntry(child, shape.items, refs, `${path}[${i}]`));
    case 'scalar': {
      const text = element.text;
      switch (shape.type) {
        case 'string':
        case 'any':
          return text;
        case 'integer': {
          const trimmed = text.trim();
          if (!INTEGER.test(trimmed)) throw new XmlValueError(path, `"${clip(text)}" is not a whole number`);
          return Number(trimmed);
        }
        case 'number': {
          const trimmed = text.trim();
          if (!DECIMAL.test(trimmed)) throw new XmlValueError(path, `"${clip(text)}" is not a number`);
          return Number(trimmed);
        }
        case 'boolean': {
          const trimmed = text.trim();
          if (trimmed === 'true' || trimmed === '1') return true;
          if (trimmed === 'false' || trimmed === '0') return false;
          throw new XmlValueError(path, `"${clip(text)}" is not true or false`);
        }
      }
    }
  }
}

function arrayEntry(child: XmlElement, items: unknown, refs: SchemaRefs, path: string): unknown {
  const shape = shapeOf(items, refs);
  if (shape.kind !== 'array') return valueFromXml(child, items, refs, path);
  const inner = child.children.filter((c) => c.name === 'item');
  if (inner.length !== child.children.length) throw new XmlValueError(path, 'expected <item> elements');
  return inner.map((c, i) => valueFromXml(c, shape.items, refs, `${path}[${i}]`));
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
