// XML Schema for what writeXml writes and valueFromXml reads, made from the same JSON Schemas: a
// registered schema (a `$ref`) becomes a named complex type, written once; every other object
// an anonymous one where it is used.
import { escapeXmlText, XSI_NS } from './write.ts';
import { shapeOf, type ScalarType, type SchemaRefs, type Shape } from './shape.ts';

export { XSI_NS } from './write.ts';
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

const SCALAR: Record<ScalarType, string> = {
  string: 'xs:string',
  integer: 'xs:long',
  number: 'xs:decimal',
  boolean: 'xs:boolean',
  any: 'xs:string',
};

export interface XsdElement {
  name: string;
  schema: unknown;
}

/** An `<xs:schema>` declaring each element at the top level, in targetNamespace (elements qualified). */
export function xsdTypes(targetNamespace: string, elements: readonly XsdElement[], refs: SchemaRefs): string {
  const named = new Map<string, string>();
  const pending: { name: string; shape: Shape }[] = [];
  const context: Context = { refs, named, pending };
  const top = elements.map(({ name, schema }) => {
    const shape = shapeOf(schema, refs);
    if (shape.kind === 'array') throw new Error(`XSD: the top-level element ${name} cannot be an array`);
    return element(name, shape, context, '', true);
  });
  // Named types are written as they are first used; one may use others, written after it.
  while (pending.length > 0) {
    const next = pending.shift()!;
    named.set(next.name, complexType(next.shape, context, ` name="${next.name}"`));
  }
  return [
    `<xs:schema xmlns:xs="${XSD_NS}" xmlns:tns="${escapeXmlText(targetNamespace)}" targetNamespace="${escapeXmlText(targetNamespace)}" elementFormDefault="qualified">`,
    ...top,
    ...named.values(),
    '</xs:schema>',
  ].join('\n');
}

interface Context {
  refs: SchemaRefs;
  named: Map<string, string>;
  pending: { name: string; shape: Shape }[];
}

function occurs(minOccurs: string, maxOccurs: string): string {
  return (minOccurs ? ` minOccurs="${minOccurs}"` : '') + (maxOccurs ? ` maxOccurs="${maxOccurs}"` : '');
}

/** An element declaration for a member (or a top-level element, where occurrence is not written). */
function element(name: string, shape: Shape, context: Context, occurrence: string, top = false): string {
  const documentation = shape.description ? annotation(shape.description) : '';
  const nillable = shape.nullable ? ' nillable="true"' : '';
  if (shape.kind === 'array') {
    const items = shapeOf(shape.items, context.refs);
    const repeated = top ? '' : occurs('0', 'unbounded');
    if (items.kind === 'array') {
      return `<xs:element name="${name}"${repeated}${nillable}>${documentation}<xs:complexType><xs:sequence>${element('item', items, context, '')}</xs:sequence></xs:complexType></xs:element>`;
    }
    return element(name, { ...items, description: shape.description ?? items.description, nullable: items.nullable }, context, repeated);
  }
  const occurrence_ = top ? '' : occurrence;
  if (shape.kind === 'scalar') {
    return `<xs:element name="${name}" type="${SCALAR[shape.type]}"${occurrence_}${nillable}${documentation ? `>${documentation}</xs:element>` : '/>'}`;
  }
  if (shape.refName !== undefined) {
    if (!context.named.has(shape.refName) && !context.pending.some((p) => p.name === shape.refName)) {
      context.named.set(shape.refName, ''); // its place in the output: filled in when its turn comes
      context.pending.push({ name: shape.refName, shape: { ...shape, description: undefined } });
    }
    return `<xs:element name="${name}" type="tns:${shape.refName}"${occurrence_}${nillable}${documentation ? `>${documentation}</xs:element>` : '/>'}`;
  }
  return `<xs:element name="${name}"${occurrence_}${nillable}>${documentation}${complexType(shape, context, '')}</xs:element>`;
}

function complexType(shape: Shape, context: Context, nameAttribute: string): string {
  if (shape.kind === 'object') {
    const members = shape.members.map((member) =>
      element(member.name, shapeOf(member.schema, context.refs), context, member.required ? '' : occurs('0', '')),
    );
    return `<xs:complexType${nameAttribute}><xs:sequence>${members.join('')}</xs:sequence></xs:complexType>`;
  }
  if (shape.kind === 'map') {
    const value = shapeOf(shape.value, context.refs);
    const key = '<xs:attribute name="key" type="xs:string" use="required"/>';
    let entry: string;
    if (value.kind === 'scalar') {
      entry = `<xs:complexType><xs:simpleContent><xs:extension base="${SCALAR[value.type]}">${key}</xs:extension></xs:simpleContent></xs:complexType>`;
    } else if (value.kind === 'object') {
      const inner = complexType({ ...value, refName: undefined }, context, '');
      const end = inner.lastIndexOf('</xs:complexType>');
      entry = `${inner.slice(0, end)}${key}</xs:complexType>`;
    } else {
      entry = `<xs:complexType><xs:simpleContent><xs:extension base="xs:string">${key}</xs:extension></xs:simpleContent></xs:complexType>`;
    }
    return `<xs:complexType${nameAttribute}><xs:sequence><xs:element name="entry"${occurs('0', 'unbounded')}${value.nullable ? ' nillable="true"' : ''}>${entry}</xs:element></xs:sequence></xs:complexType>`;
  }
  if (shape.kind === 'scalar') {
    return `<xs:complexType${nameAttribute}><xs:simpleContent><xs:extension base="${SCALAR[shape.type]}"/></xs:simpleContent></xs:complexType>`;
  }
  throw new Error('XSD: an array cannot be a named type');
}

function annotation(text: string): string {
  return `<xs:annotation><xs:documentation>${escapeXmlText(text)}</xs:documentation></xs:annotation>`;
}

/** For readers of a schema: the namespace xsi:nil belongs to. */
export const NIL_ATTRIBUTE = `{${XSI_NS}}nil`;
