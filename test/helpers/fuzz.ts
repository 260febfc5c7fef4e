// Requests generated from the OpenAPI document, for the fuzz test (test/http/fuzz.test.ts). Each
// operation's parameters and request body are JSON Schemas; valueOf() turns one into a fast-check
// arbitrary of valid values (real ids and codes from the seeded library where the member's name
// asks for one), and spoiled() makes a request invalid in one place: a hostile value in a
// parameter or body member, an unknown or repeated parameter, a missing member, a malformed or
// empty body, a wrong content type or authorization header.
import fc from 'fast-check';

export interface JsonSchema {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  $ref?: string;
  description?: string;
}

interface OpenApiParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: JsonSchema;
  description?: string;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  security?: unknown[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  /** "GET /v6/bibs/{id}" */
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  pathParams: Parameter[];
  query: Parameter[];
  body?: { required: boolean; schema: JsonSchema };
  /** The statuses its `responses` declare. */
  responses: Set<number>;
  /** It declares a security requirement (a bearer token). */
  secured: boolean;
  /** The fields of the record it answers, for `fields=`. */
  fields: string[];
}

/** Ids and codes of the seeded library, so that valid requests reach real records. */
export interface Library {
  bibs: string[];
  items: string[];
  itemBarcodes: string[];
  patrons: string[];
  patronBarcodes: string[];
  holds: string[];
  invoices: string[];
  lines: string[];
  vendors: string[];
  vendorCodes: string[];
  funds: string[];
  useTax: string[];
  locations: string[];
  pin: string;
  /** `Basic …` for a real key, for the token endpoint. */
  basic: string;
}

/** A JSON value with some members written as raw JSON text (numbers JSON.stringify cannot write). */
export class Raw {
  constructor(readonly text: string) {}
}

export interface FuzzRequest {
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What was spoiled, to name in a failure. */
  spoiled?: string;
}

/** The request plan before it is written out: path and query pieces already percent-encoded. */
interface Plan {
  path: Record<string, string>;
  query: [string, string][];
  body?: { value: unknown } | { text: string };
  contentType?: string;
  headers: Record<string, string>;
  spoiled?: string;
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const ref = (schema: JsonSchema | undefined): JsonSchema | undefined =>
    schema?.$ref ? doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')] : schema;
  // The record an answer carries: the first named schema inside the 200 answer (a list's entries, a search's bib).
  const recordOf = (schema: JsonSchema | undefined, depth = 0): JsonSchema | undefined => {
    if (!schema || depth > 4) return undefined;
    if (schema.$ref) return ref(schema);
    for (const member of [...Object.values(schema.properties ?? {}), ...(schema.items ? [schema.items] : [])]) {
      const found = recordOf(member, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      const toParam = (p: OpenApiParameter): Parameter => ({ name: p.name, required: p.required === true, schema: p.schema ?? {} });
      const json = op.requestBody?.content['application/json'];
      const answer = op.responses?.['200']?.content?.['application/json']?.schema;
      ops.push({
        id: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase() as Operation['method'],
        path,
        pathParams: params.filter((p) => p.in === 'path').map(toParam),
        query: params.filter((p) => p.in === 'query').map(toParam),
        body: op.requestBody ? { required: op.requestBody.required === true, schema: ref(json?.schema) ?? {} } : undefined,
        responses: new Set(
          Object.keys(op.responses ?? {})
            .map(Number)
            .filter(Number.isInteger),
        ),
        secured: (op.security?.length ?? 0) > 0,
        fields: Object.keys(recordOf(answer)?.properties ?? {}),
      });
    }
  }
  return ops;
}

// ---------------------------------------------------------------- valid values

const pick = <T>(values: readonly T[], fallback: fc.Arbitrary<T>): fc.Arbitrary<T> =>
  values.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 4 }, { arbitrary: fallback, weight: 1 }) : fallback;
const digits = fc.integer({ min: 1000000, max: 1009999 }).map(String);
const code = fc.stringMatching(/^[a-z0-9]{1,5}$/);
// Each of these mostly gives ordinary values, sometimes the edges a careful client may still send.
const edges = <T>(ordinary: fc.Arbitrary<T>, ...values: T[]) =>
  fc.oneof({ arbitrary: ordinary, weight: 4 }, { arbitrary: fc.constantFrom(...values), weight: 1 });
const money = edges(
  fc.tuple(fc.integer({ min: 0, max: 99999 }), fc.integer({ min: 0, max: 99 })).map(([a, b]) => `${a}.${String(b).padStart(2, '0')}`),
  '0',
  '0.1',
  '12.345',
  '9999999999999999.99',
  '99999999999999999999',
  '1e3',
  '-0.01',
  '.5',
  '5.',
  '1,000.00',
);
const day = edges(
  fc
    .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  '0001-01-01',
  '9999-12-31',
  '2024-02-29',
  '2023-02-29',
  '1970-01-01',
  '2026-1-2',
);
const instant = edges(
  fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => `${d.toISOString().slice(0, 19)}Z`),
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '1970-01-01T00:00:00Z',
  '2026-11-02T10:00:00.123Z',
  '2026-11-02T10:00:00+02:00',
  '2026-11-02',
);
const range = (one: fc.Arbitrary<string>) =>
  fc.oneof(
    one,
    fc.tuple(one, one).map(([a, b]) => `[${a},${b}]`),
    one.map((a) => `[${a},]`),
    one.map((b) => `[,${b}]`),
  );
const list = (one: fc.Arbitrary<string>) => fc.array(one, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(','));
const text = (maxLength = 20) =>
  fc.oneof({ arbitrary: fc.string({ maxLength }), weight: 3 }, { arbitrary: fc.string({ unit: 'grapheme', maxLength }), weight: 1 });

/** A MARC-in-JSON record with a title and an author, as POST and PUT /bibs take it. */
const marcRecord = fc
  .record({ title: fc.string({ minLength: 1, maxLength: 40 }), author: fc.string({ maxLength: 30 }) })
  .map(({ title, author }) => ({
    leader: '00000nam a2200000 a 4500',
    fields: [
      { '008': '260101s2026    xxu           000 0 eng d' },
      ...(author ? [{ '100': { ind1: '1', ind2: ' ', subfields: [{ a: author }] } }] : []),
      { '245': { ind1: '1', ind2: '0', subfields: [{ a: title }] } },
    ],
  }));

/** A value for a member or parameter whose name says what it holds; undefined when it does not. */
function named(name: string, where: 'path' | 'query' | 'body', op: Operation, lib: Library): fc.Arbitrary<unknown> | undefined {
  const ids = (values: string[]) => pick(values, digits);
  if (where === 'path') {
    // The resource is the segment before the parameter: /patrons/{id}, /invoices/lineItems/{id}, /useTax/{code}.
    const segment = op.path.split('/').at(op.path.split('/').findIndex((s) => s === `{${name}}`) - 1) ?? '';
    const byResource: Record<string, fc.Arbitrary<string>> = {
      bibs: ids(lib.bibs),
      items: ids(lib.items),
      patrons: ids(lib.patrons),
      holds: ids(lib.holds),
      invoices: ids(lib.invoices),
      lineItems: ids(lib.lines),
      vendors: ids(lib.vendors),
      funds: pick(lib.funds, code),
      useTax: pick(lib.useTax, fc.stringMatching(/^[a-z0-9]{1,3}$/)),
    };
    return byResource[segment] ?? ids(lib.bibs);
  }
  switch (name) {
    case 'id':
      return where === 'query' ? range(ids([...lib.bibs, ...lib.items, ...lib.patrons, ...lib.invoices, ...lib.vendors])) : undefined;
    case 'bibIds':
    case 'bibId':
      return where === 'query' ? list(ids(lib.bibs)) : ids(lib.bibs);
    case 'createdDate':
    case 'updatedDate':
    case 'deletedDate':
      return range(instant);
    case 'paidDate':
    case 'invDate':
      return where === 'query' ? range(day) : day;
    case 'expirationDate':
    case 'birthDate':
    case 'neededBy':
      return fc.oneof(day, fc.constant(''));
    case 'fields':
      return op.fields.length > 0
        ? fc.oneof(
            fc.constant('default'),
            fc.subarray(op.fields, { minLength: 1 }).map((f) => f.join(',')),
          )
        : fc.constant('default');
    case 'expand':
      return fc.constant('record');
    case 'location':
    case 'pickupLocation':
    case 'homeLibraryCode':
      return where === 'query' ? list(pick([...lib.locations, 'mn*'], code)) : pick(lib.locations, code);
    case 'status':
    case 'statusCode':
      return where === 'query' ? list(fc.constantFrom('-', 'o', 'p', 's', '!', 't', 'm')) : fc.constantFrom('o', 's', 'p', 'x');
    case 'recordType':
      return fc.constantFrom('b', 'i', 'j');
    case 'recordNumber':
      return fc.oneof(ids([...lib.bibs, ...lib.items]), ids(lib.bibs).map(Number));
    case 'itemBarcode':
      return pick(lib.itemBarcodes, text());
    case 'itemId':
      return ids(lib.items);
    case 'barcode':
    case 'patronId':
      return pick(lib.patronBarcodes, text());
    case 'pin':
    case 'patronSecret':
      return pick([lib.pin], fc.stringMatching(/^[0-9]{4,8}$/));
    case 'fund':
      return pick(lib.funds, code);
    case 'vendorCode':
      return pick(lib.vendorCodes, code);
    case 'useTaxCode':
      return pick(lib.useTax, fc.constant(''));
    case 'code':
      return fc.stringMatching(/^[a-z0-9]{1,15}$/);
    case 'amount':
    case 'shipping':
    case 'discount':
    case 'appropriation':
    case 'expenditure':
    case 'encumbrance':
    case 'moneyOwed':
      return money;
    case 'rate':
      return edges(
        fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 999 })).map(([a, b]) => `${a}.${b}`),
        '100',
        '100.000001',
        '0.0000001',
        '101',
        '7.750000',
      );
    case 'barcodes':
      // Barcodes other patrons hold, the same one twice, an empty one, one past the 64 characters kept.
      return fc.array(edges(pick([...lib.patronBarcodes, ...lib.itemBarcodes], text()), '', 'b'.repeat(65)), { maxLength: 3 });
    case 'currency':
      return fc.constantFrom('USD', 'EUR', 'GBP');
    case 'names':
      return fc.array(
        fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 12 })).map(([l, f]) => `${l}, ${f}`),
        {
          minLength: 1,
          maxLength: 2,
        },
      );
    case 'emails':
      return fc.array(fc.emailAddress(), { maxLength: 2 });
    case 'text':
      return fc.oneof(fc.constantFrom('history', 'war and peace', '"the war"', 'science -fiction', 'music OR art'), text(30));
    case 'language':
      return fc.constantFrom('en', 'eng', 'fre', 'ger');
    case 'materialType':
      return list(fc.constantFrom('a', 'g', 'j', 'm'));
    case 'decade':
      return list(fc.constantFrom('1990', '2000', '2010'));
    case 'varFieldTag':
      return fc.constantFrom('b', 'e', 'n', 'p', 'z');
    case 'varFieldContent':
      return pick(lib.patronBarcodes, text());
    case 'patronType':
      return fc.integer({ min: 0, max: 3 });
    case 'authMethod':
      return fc.constant('native');
  }
  return undefined;
}

/** Valid values for a schema, from its type and bounds (a member's name refines it: see named()). */
export function valueOf(
  schema: JsonSchema,
  lib: Library,
  op: Operation,
  name = '',
  where: 'path' | 'query' | 'body' = 'body',
): fc.Arbitrary<unknown> {
  const hinted = name ? named(name, where, op, lib) : undefined;
  if (hinted) return hinted;
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => valueOf(s, lib, op, name, where)));
  switch (schema.type) {
    case 'string': {
      // Sometimes as long as the schema lets it be (300 characters where it sets no bound).
      const longest = fc.constantFrom('x', 'é', '😀').map((c) => c.repeat(schema.maxLength ?? 300));
      const ordinary = text(Math.min(schema.maxLength ?? 20, 20)).filter((s) => s.length >= (schema.minLength ?? 0));
      return fc.oneof({ arbitrary: ordinary, weight: 9 }, { arbitrary: longest, weight: 1 });
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? -1000;
      const max = schema.maximum ?? 100000;
      // Mostly small values, where the records are; sometimes anywhere in the range.
      return fc.oneof(fc.integer({ min, max: Math.min(max, min + 20) }), fc.integer({ min, max }), fc.constantFrom(min, max));
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valueOf(schema.items ?? {}, lib, op, '', where), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object': {
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [member, s] of Object.entries(schema.properties ?? {})) model[member] = valueOf(s, lib, op, member, where);
      return fc.record(model, { requiredKeys: schema.required ?? [] });
    }
  }
  // No type: the bib routes' MARC body is documented only in words.
  if (op.path.startsWith('/v6/bibs'))
    return fc.oneof(
      marcRecord,
      marcRecord.map((marc) => ({ marc, suppressed: false })),
    );
  return fc.constant({});
}

// ---------------------------------------------------------------- hostile values

/** Text a client may send anywhere: control characters, half surrogates, numbers out of range, odd syntax. */
const HOSTILE_TEXT = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '',
  ' ',
  '-1',
  '0',
  '1.5',
  '9223372036854775808',
  '-9223372036854775809',
  '9007199254740993',
  '1e999',
  '-1e999',
  'NaN',
  'Infinity',
  '0x10',
  '+1',
  ' 1',
  '00000000000000000000000000000001',
  '[',
  ']',
  '[1,',
  '[,]',
  '[9223372036854775808,]',
  '[1000001,1e999]',
  ',',
  ',,,',
  'true',
  'null',
  '{}',
  '../../etc/passwd',
  "'; drop table bibs; --",
  '\\',
  '%',
  '*',
  '\u202e\uFEFF',
  '\r\n',
  'ı',
  '😀'.repeat(50),
  '2026-02-30',
  '2026-13-01',
  '0000-01-01',
  '-271821-04-20',
  '275760-09-14',
  '99999-12-31T23:59:59Z',
  '2026-11-02T25:00:00Z',
  '2026-11-02T10:00:00+99:00',
  'x'.repeat(5000),
] as const;

const anyCodeUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 });
// What the database cannot take comes most often: the input guard's cases (src/http/input-guard.ts).
const UNSTORABLE_TEXT = ['\u0000', 'a\u0000b', '\uD800', 'x\uDC00y', '9223372036854775808', '1e999', '-1e999', '-1'];
const hostileText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...UNSTORABLE_TEXT), weight: 3 },
  { arbitrary: fc.constantFrom(...HOSTILE_TEXT), weight: 3 },
  { arbitrary: anyCodeUnits, weight: 1 },
);

/** Percent-encoding that also writes half surrogates (as the bytes a lenient encoder would send). */
export function urlText(value: string): string {
  let out = '';
  for (const char of value) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      out += [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}

// Address text as it arrives, not as an encoder writes it: broken escapes, an encoded NUL or slash,
// overlong UTF-8, a path part past the router's limit. (Not %2e%2e: app.inject resolves it as "..",
// which sends the request to another route.)
const RAW_URL_TEXT = ['%', '%ZZ', '%C0%80', '%FF', '%E0%80', '%00', 'a%2Fb', '[1000001,1000050]', 'x'.repeat(600)];
const hostileUrl = fc.oneof({ arbitrary: hostileText.map(urlText), weight: 3 }, { arbitrary: fc.constantFrom(...RAW_URL_TEXT), weight: 1 });

/** A JSON value where a member should be: another type, a number out of range, hostile text. */
const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileText, weight: 4 },
  {
    arbitrary: fc.constantFrom<unknown>(
      new Raw('9223372036854775808'),
      new Raw('-9223372036854775809'),
      new Raw('1e999'),
      new Raw('-1e999'),
      new Raw('1E400'),
      new Raw('-0'),
      new Raw('0.000000000000000000000000000001'),
      -1,
      0,
      1.5,
      2 ** 53,
      true,
      false,
      null,
      [],
      {},
      [null],
      { '': '' },
      ['\u0000'],
      { a: { b: { c: '\uD800' } } },
    ),
    weight: 3,
  },
  { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 },
);

/** Whole bodies: empty, not JSON, JSON of the wrong kind, prototype pollution, too large. */
const HOSTILE_BODIES = [
  '',
  ' ',
  'null',
  '[]',
  '"x"',
  '123',
  '1e999',
  'true',
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '\u0000',
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  'NaN',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":"${'x'.repeat(1_100_000)}"}`,
];

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/marc',
  'application/marc-in-json',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
  'application/octet-stream',
  'application/jsonx',
  'x',
];

function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Every member path of a JSON value, to choose one to spoil. */
function memberPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object' || value instanceof Raw) return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...memberPaths(v, [...prefix, k])]);
}

function setAt(value: unknown, path: (string | number)[], replacement: unknown, remove = false): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as object) };
  if (rest.length === 0 && remove) {
    if (Array.isArray(copy)) copy.splice(head as number, 1);
    else delete copy[head as string];
  } else copy[head as string] = setAt(copy[head as string], rest, replacement, remove);
  return copy;
}

// ---------------------------------------------------------------- requests

/** Valid requests for an operation. */
export function validPlan(op: Operation, lib: Library, auth: string): fc.Arbitrary<Plan> {
  const path: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.pathParams) path[p.name] = valueOf(p.schema, lib, op, p.name, 'path').map((v) => urlText(String(v)));
  const query: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.query) query[p.name] = valueOf(p.schema, lib, op, p.name, 'query').map((v) => urlText(String(v)));
  const queryArb = fc.record(query, { requiredKeys: op.query.filter((p) => p.required).map((p) => p.name) });
  const isToken = op.path === '/v6/token';
  const headers: Record<string, string> = isToken ? { authorization: lib.basic } : op.secured ? { authorization: auth } : {};
  let body: fc.Arbitrary<Pick<Plan, 'body' | 'contentType'>> = fc.constant({});
  if (op.body) body = valueOf(op.body.schema, lib, op).map((value) => ({ body: { value }, contentType: 'application/json' }));
  else if (isToken) {
    // The token endpoint takes no body, JSON {} or the client-credentials form (docs/api-contract.md, "Keys, roles and permissions").
    body = fc.constantFrom(
      {},
      { body: { text: '{}' }, contentType: 'application/json' },
      { body: { text: 'grant_type=client_credentials' }, contentType: 'application/x-www-form-urlencoded' },
    );
  }
  return fc.record({ path: fc.record(path), query: queryArb, body }).map(({ path, query, body }) => ({
    path,
    query: Object.entries(query),
    headers: { ...headers },
    ...body,
  }));
}

/** The same requests, each spoiled in one place. */
export function spoiledPlan(op: Operation, lib: Library, auth: string): fc.Arbitrary<Plan> {
  return validPlan(op, lib, auth).chain((plan) => {
    // Most often a hostile value in a parameter or a body member, where the database is reached.
    const ways: fc.WeightedArbitrary<Plan>[] = [];
    const add = (weight: number, arbitrary: fc.Arbitrary<Plan>) => ways.push({ arbitrary, weight });
    const params = [...op.pathParams.map((p) => ['path', p.name] as const), ...op.query.map((p) => ['query', p.name] as const)];
    if (params.length > 0) {
      add(
        6,
        fc
          .tuple(fc.constantFrom(...params), hostileUrl)
          .map(([[where, name], value]) =>
            where === 'path'
              ? { ...plan, path: { ...plan.path, [name]: value }, spoiled: `path ${name}` }
              : { ...plan, query: [...plan.query.filter(([n]) => n !== name), [name, value]], spoiled: `query ${name}` },
          ),
      );
    }
    if (op.query.length > 0) {
      // A repeated parameter arrives as an array.
      add(
        1,
        fc.tuple(fc.constantFrom(...op.query.map((p) => p.name)), hostileUrl).map(([name, value]) => ({
          ...plan,
          query: [...plan.query, [name, value], [name, value]],
          spoiled: `repeated ${name}`,
        })),
      );
    }
    const requiredQuery = op.query.filter((p) => p.required);
    if (requiredQuery.length > 0) {
      add(
        1,
        fc
          .constantFrom(...requiredQuery)
          .map((p) => ({ ...plan, query: plan.query.filter(([n]) => n !== p.name), spoiled: `no ${p.name}` })),
      );
    }
    add(
      1,
      fc
        .tuple(fc.constantFrom('foo', 'LIMIT', '__proto__', 'constructor', 'id[]', 'fields[0]', '', '%00'), hostileUrl)
        .map(([name, value]) => ({ ...plan, query: [...plan.query, [name, value]], spoiled: `unknown parameter ${name}` })),
    );
    add(
      1,
      fc
        .constantFrom(
          '',
          'Bearer',
          'Bearer ',
          `${auth}x`,
          `bearer${auth.slice(6)}`,
          'Basic !!!',
          'Basic Og==',
          `Bearer ${'x'.repeat(5000)}`,
          'Negotiate abc',
        )
        .map((authorization) => ({
          ...plan,
          headers: { ...plan.headers, authorization },
          spoiled: `authorization ${authorization.slice(0, 20)}`,
        })),
    );
    add(
      1,
      fc
        .constantFrom('text/html', 'application/xml', 'application/marc', '*/*', 'x', '')
        .map((accept) => ({ ...plan, headers: { ...plan.headers, accept }, spoiled: `accept ${accept}` })),
    );
    if (op.method !== 'GET') {
      add(
        2,
        fc
          .constantFrom(...HOSTILE_BODIES)
          .map((text) => ({ ...plan, body: { text }, contentType: 'application/json', spoiled: `body ${text.slice(0, 20)}` })),
      );
      add(
        1,
        fc.tuple(fc.constantFrom(...WRONG_CONTENT_TYPES), fc.boolean()).map(([contentType, asForm]) => {
          const value = plan.body && 'value' in plan.body ? plan.body.value : {};
          const form =
            value !== null && typeof value === 'object'
              ? Object.entries(value)
                  .map(([k, v]) => `${urlText(k)}=${urlText(typeof v === 'string' ? v : JSON.stringify(v))}`)
                  .join('&')
              : '';
          return { ...plan, body: { text: asForm ? form : toJson(value) }, contentType, spoiled: `content type ${contentType}` };
        }),
      );
      add(1, fc.constant({ ...plan, body: undefined, contentType: undefined, spoiled: 'no body' }));
    }
    const value = plan.body && 'value' in plan.body ? plan.body.value : undefined;
    const members = memberPaths(value);
    if (members.length > 0) {
      add(
        6,
        fc.tuple(fc.constantFrom(...members), hostileJson).map(([at, replacement]) => ({
          ...plan,
          body: { value: setAt(value, at, replacement) },
          spoiled: `body member ${at.join('.')}`,
        })),
      );
      add(
        1,
        fc
          .constantFrom(...members)
          .map((at) => ({ ...plan, body: { value: setAt(value, at, undefined, true) }, spoiled: `no body member ${at.join('.')}` })),
      );
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      add(
        1,
        fc.tuple(fc.constantFrom('unknown', 'id', '__proto__', ''), hostileJson).map(([name, member]) => ({
          ...plan,
          body: { value: { ...value, [name]: member } },
          spoiled: `unknown body member ${name}`,
        })),
      );
    }
    return fc.oneof(...ways);
  });
}

export function toRequest(op: Operation, plan: Plan): FuzzRequest {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => plan.path[name] ?? '');
  const query = plan.query.map(([name, value]) => `${urlText(name)}=${value}`).join('&');
  const headers = { ...plan.headers };
  if (plan.contentType !== undefined) headers['content-type'] = plan.contentType;
  const payload = plan.body === undefined ? undefined : 'text' in plan.body ? plan.body.text : toJson(plan.body.value);
  return { method: op.method, url: query ? `${path}?${query}` : path, headers, payload, spoiled: plan.spoiled };
}
