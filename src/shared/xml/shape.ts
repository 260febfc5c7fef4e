// What a JSON Schema (as TypeBox writes it) means for XML: a scalar, an object with named members,
// a map keyed by any text, or an array. The writer, the reader and the XSD generator all ask this,
// so that the three read a schema alike.

/** Schemas registered by id (app.addSchema), for `$ref`. */
export type SchemaRefs = ReadonlyMap<string, unknown>;

type JsonSchema = Record<string, unknown>;

export type ScalarType = 'string' | 'integer' | 'number' | 'boolean' | 'any';

export interface Member {
  name: string;
  schema: unknown;
  required: boolean;
}

export type Shape = (
  | { kind: 'scalar'; type: ScalarType }
  | { kind: 'object'; members: Member[] }
  | { kind: 'map'; value: unknown }
  | { kind: 'array'; items: unknown }
) & {
  nullable: boolean;
  /** The registered id when the schema was a `$ref` (a named type in the XSD). */
  refName?: string;
  description?: string;
};

const asSchema = (schema: unknown): JsonSchema => (schema && typeof schema === 'object' ? (schema as JsonSchema) : {});

export function resolveRef(schema: unknown, refs: SchemaRefs): { schema: JsonSchema; refName?: string } {
  const plain = asSchema(schema);
  const ref = plain.$ref;
  if (typeof ref !== 'string') return { schema: plain };
  const name = ref.replace(/^#\/?(definitions\/|\$defs\/)?/, '').replace(/#$/, '');
  const target = refs.get(name);
  if (target === undefined) throw new Error(`the schema "${name}" is not registered`);
  return { schema: asSchema(target), refName: name };
}

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  if (typeof schema.type === 'string') return [schema.type];
  if ('const' in schema) return [schema.const === null ? 'null' : typeof schema.const === 'number' ? 'number' : typeof schema.const];
  return [];
}

function scalarOf(types: string[]): ScalarType {
  const kinds = new Set(types.map((t) => (t === 'integer' ? 'integer' : t)));
  if (kinds.size === 1) {
    const [only] = kinds;
    if (only === 'string' || only === 'integer' || only === 'number' || only === 'boolean') return only;
  }
  if (kinds.size === 2 && kinds.has('integer') && kinds.has('number')) return 'number';
  return 'any';
}

// Shapes already worked out, by the registered schemas and the schema: every answer asks again for
// every element it writes (a patron's forty members), and working each out again showed in the
// profile of SOAP lookups. Schemas are never changed once registered.
const known = new WeakMap<SchemaRefs, WeakMap<object, Shape>>();

/** What a schema means for XML. The shape returned is shared: copy it to change it. */
export function shapeOf(input: unknown, refs: SchemaRefs): Shape {
  if (!input || typeof input !== 'object') return shapeOfSchema(input, refs);
  let byRefs = known.get(refs);
  if (!byRefs) known.set(refs, (byRefs = new WeakMap()));
  let shape = byRefs.get(input);
  if (!shape) byRefs.set(input, (shape = shapeOfSchema(input, refs)));
  return shape;
}

function shapeOfSchema(input: unknown, refs: SchemaRefs): Shape {
  const { schema, refName } = resolveRef(input, refs);
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches)) {
    const shapes = branches.map((branch) => shapeOf(branch, refs));
    const nullOnly = branches.map((b) => isNullOnly(b, refs));
    const nullable = shapes.some((s) => s.nullable) || nullOnly.includes(true);
    const real = shapes.filter((_, i) => !nullOnly[i]);
    const base = { nullable, refName, description };
    if (real.length === 0) return { kind: 'scalar', type: 'any', ...base };
    if (real.every((s) => s.kind === 'object')) {
      // A member of every branch is required only where every branch requires it.
      const members = new Map<string, Member>();
      for (const shape of real) {
        for (const member of shape.kind === 'object' ? shape.members : []) {
          const known = members.get(member.name);
          members.set(member.name, known ? { ...known, required: known.required && member.required } : { ...member });
        }
      }
      for (const [name, member] of members) {
        if (!real.every((s) => s.kind === 'object' && s.members.some((m) => m.name === name))) member.required = false;
      }
      return { kind: 'object', members: [...members.values()], ...base };
    }
    if (real.length === 1) return { ...real[0]!, ...base, refName: refName ?? real[0]!.refName };
    if (real.every((s) => s.kind === 'scalar'))
      return { kind: 'scalar', type: scalarOf(real.map((s) => (s.kind === 'scalar' ? s.type : 'any'))), ...base };
    return { kind: 'scalar', type: 'any', ...base };
  }
  const types = typesOf(schema);
  const nullable = types.includes('null');
  const real = types.filter((t) => t !== 'null');
  const base = { nullable, refName, description };
  if (real.length === 1 && real[0] === 'array') return { kind: 'array', items: schema.items ?? {}, ...base };
  if ((real.length === 1 && real[0] === 'object') || (real.length === 0 && (schema.properties || schema.patternProperties))) {
    const properties = asSchema(schema.properties);
    const names = Object.keys(properties);
    const pattern = Object.values(asSchema(schema.patternProperties))[0];
    // An open object (no members named, any allowed: additionalProperties true) is a map of values of any shape.
    const extra =
      typeof schema.additionalProperties === 'object' ? schema.additionalProperties : schema.additionalProperties === true ? {} : undefined;
    if (names.length === 0 && (pattern !== undefined || extra !== undefined)) return { kind: 'map', value: pattern ?? extra, ...base };
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    return { kind: 'object', members: names.map((name) => ({ name, schema: properties[name], required: required.has(name) })), ...base };
  }
  return { kind: 'scalar', type: scalarOf(real), ...base };
}

function isNullOnly(schema: unknown, refs: SchemaRefs): boolean {
  const { schema: plain } = resolveRef(schema, refs);
  const types = typesOf(plain);
  return types.length === 1 && types[0] === 'null';
}
