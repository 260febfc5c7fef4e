// /patrons: list and harvest, read, find, create, change and delete patrons; validate a barcode and
// PIN (PC reservation and print systems, at every login) and authenticate a patron.
import { Type, type TSchema } from 'typebox';
import { access } from '../http/access.ts';
import { MetadataAnswer, metadataQuery, parseMetadataFields } from '../http/metadata.ts';
import { fail } from '../shared/errors.ts';
import { recordLink } from '../http/links.ts';
import { parseCommonList, parseFields, recordListQuery } from '../http/params.ts';
import { parseRecordId } from '../shared/filters.ts';
import { errorRef, fixedFieldsSchema, LinkAnswer, recordHeader } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import { CIRCULATION_FIELDS, PATRON_FIELDS, presentPatron, type PatronField } from './present.ts';
import { FIND_TAGS, METADATA_FIELDS, type PatronService } from './service.ts';
import { VAR_FIELD_TAGS, WRITABLE_FIXED_FIELDS } from './input.ts';

const Phone = Type.Object(
  { number: Type.String(), type: Type.Optional(Type.String({ description: 't telephone (default), p second telephone.' })) },
  { additionalProperties: false },
);
const Address = Type.Object(
  { lines: Type.Array(Type.String()), type: Type.Optional(Type.String({ description: 'a address (default), h second address.' })) },
  { additionalProperties: false },
);

const Subfield = Type.Object({ tag: Type.String(), content: Type.String() }, { additionalProperties: false });
/** A patron varField as a read answers it: {"fieldTag", "content"}, or the MARC form it was written in. */
const PatronVarField = Type.Union([
  Type.Object({ fieldTag: Type.String(), content: Type.String() }, { additionalProperties: false }),
  Type.Object(
    { fieldTag: Type.String(), marcTag: Type.String(), ind1: Type.String(), ind2: Type.String(), subfields: Type.Array(Subfield) },
    { additionalProperties: false },
  ),
]);
// Members a form lacks may come as null, as Sierra answers them; the MARC form is checked member by
// member in src/patrons/var-fields.ts, so that a refusal names the member (varFields[0].subfields[1].tag).
// Null comes first: tried after text, the validator (which coerces types) would turn null into "".
const nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([Type.Null(), schema]));
const VarFieldWrite = Type.Object(
  {
    fieldTag: Type.String(),
    content: nullable(Type.String()),
    marcTag: nullable(Type.String()),
    ind1: nullable(Type.String()),
    ind2: nullable(Type.String()),
    subfields: nullable(Type.Unknown()),
  },
  { additionalProperties: false },
);

// A property for each of PATRON_FIELDS (the `satisfies` checks it): Fastify drops from an answer any field its schema does not name.
export const PatronSchema = Type.Object(
  {
    ...recordHeader,
    suppressed: Type.Optional(Type.Boolean()),
    names: Type.Optional(Type.Array(Type.String())),
    barcodes: Type.Optional(Type.Array(Type.String())),
    expirationDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
    birthDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD' })),
    emails: Type.Optional(Type.Array(Type.String())),
    phones: Type.Optional(Type.Array(Phone)),
    addresses: Type.Optional(Type.Array(Address)),
    patronType: Type.Optional(Type.Integer()),
    homeLibraryCode: Type.Optional(Type.String()),
    homeLibrary: Type.Optional(Type.Object({ code: Type.String(), name: Type.String() })),
    message: Type.Optional(Type.Object({ code: Type.String(), accountMessages: Type.Array(Type.String()) })),
    patronCodes: Type.Optional(
      Type.Object(
        { pcode1: Type.String(), pcode2: Type.String(), pcode3: Type.Integer(), pcode4: Type.Integer() },
        {
          description:
            "Fixed fields 44, 45, 46 and 126 where the library profile defines them and the patron has a value; '-', '-', 0, 0 otherwise.",
        },
      ),
    ),
    blockInfo: Type.Optional(Type.Object({ code: Type.String() })),
    autoBlockInfo: Type.Optional(
      Type.Object(
        { code: Type.String() },
        {
          description:
            "The library's automatic blocks (its profile's blocks): x owes more than the limit, o too many overdue items, - none.",
        },
      ),
    ),
    uniqueIds: Type.Optional(Type.Array(Type.String())),
    pMessage: Type.Optional(Type.String()),
    moneyOwed: Type.Optional(Type.String({ description: 'Decimal string with two places, e.g. "12.30".' })),
    fixedFields: fixedFieldsSchema('patron'),
    varFields: Type.Optional(
      Type.Array(PatronVarField, {
        description:
          'Each value as {"fieldTag", "content"}, or in the MARC form it was written in ({"fieldTag", "marcTag", "ind1", "ind2", "subfields"}); first {"fieldTag": "=", "content": "********"} when the patron has a PIN (the same content for every PIN).',
      }),
    ),
  } satisfies Record<PatronField, TSchema>,
  { $id: 'Patron', additionalProperties: false },
);
const PatronList = Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Ref('Patron')) });

const text = (description?: string) => Type.Optional(Type.String(description ? { description } : {}));
/** The body of POST /patrons (creating) and PUT /patrons/{id}; SOAP's PatronUpdate takes the latter's members. */
export const PatronWrite = (creating: boolean) =>
  Type.Object(
    {
      names: Type.Optional(
        Type.Array(Type.String(), { description: creating ? 'At least one (here or as varFields n); "Last, First".' : '"Last, First".' }),
      ),
      barcodes: Type.Optional(
        Type.Array(Type.String(), { description: 'Each belongs to one live patron; given on PUT, they replace all.' }),
      ),
      pin: Type.Optional(Type.String({ maxLength: 128, description: '4 to 64 characters; stored only as a slow hash, never returned.' })),
      emails: Type.Optional(Type.Array(Type.String())),
      phones: Type.Optional(Type.Array(Phone)),
      addresses: Type.Optional(Type.Array(Address)),
      patronType: Type.Optional(Type.Integer({ minimum: 0, maximum: 255, description: 'A code from GET /patrons/metadata (default 0).' })),
      homeLibraryCode: text('A location code; empty clears.'),
      expirationDate: text('YYYY-MM-DD; empty clears.'),
      birthDate: text('YYYY-MM-DD; empty clears.'),
      blockInfo: Type.Optional(Type.Object({ code: Type.String() }, { additionalProperties: false })),
      moneyOwed: text('Decimal string with at most two decimals (a JSON number is accepted).'),
      message: Type.Optional(
        Type.Union(
          [
            Type.String(),
            Type.Null(),
            Type.Object({ code: Type.Optional(Type.String()), accountMessages: Type.Optional(Type.Array(Type.String())) }),
          ],
          {
            description: 'A message for the patron (or Sierra\'s {"accountMessages": [...]}); empty clears.',
          },
        ),
      ),
      suppressed: Type.Optional(Type.Boolean()),
      uniqueIds: Type.Optional(Type.Array(Type.String(), { description: 'Each belongs to one live patron; given, they replace all.' })),
      varFields: Type.Optional(
        Type.Array(VarFieldWrite, {
          description: `Sierra's varFields, as {"fieldTag", "content"} or in MARC form ({"fieldTag", "marcTag", "ind1", "ind2", "subfields": [{"tag", "content"}]}, kept as given; a name's subfields read as "<c> <a>, <b>"); each tag given replaces that field's values: ${Object.entries(
            VAR_FIELD_TAGS,
          )
            .map(([t, m]) => `${t} ${m}`)
            .join(', ')}. The PIN field (=) is never written: set the PIN with pin.`,
        }),
      ),
      fixedFields: Type.Optional(
        Type.Record(Type.String(), Type.Object({ label: Type.Optional(Type.String()), value: Type.Unknown() }), {
          description: `Sierra's fixedFields by number; written: ${Object.entries(WRITABLE_FIXED_FIELDS)
            .map(([n, m]) => `${n} ${m}`)
            .join(
              ', ',
            )}, and any field the library profile's patronFixedFields defines (its value one of the field's codes when it lists some).`,
        }),
      ),
    },
    { additionalProperties: false },
  );
const fieldsParam = Type.Optional(Type.String({ description: `Fields to return: ${PATRON_FIELDS.all.join(', ')}, or default.` }));
const ListQuery = Type.Object(
  {
    ...recordListQuery(PATRON_FIELDS),
  },
  { additionalProperties: false },
);
const FindQuery = Type.Object(
  {
    barcode: Type.Optional(Type.String()),
    varFieldTag: Type.Optional(
      Type.String({
        description: `${Object.entries(FIND_TAGS)
          .map(([t, k]) => `${t} ${k}`)
          .join(', ')}`,
      }),
    ),
    varFieldContent: Type.Optional(Type.String({ description: 'The exact content to match.' })),
    fields: fieldsParam,
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: Type.String() });
const Credentials = Type.Object(
  {
    barcode: Type.String({ maxLength: 200 }),
    pin: Type.String({ maxLength: 128 }),
    caseSensitivity: Type.Optional(Type.Boolean({ description: 'false: the barcode matches whatever its letter case (default true).' })),
  },
  { additionalProperties: false },
);
const AuthBody = Type.Object(
  {
    authMethod: Type.Optional(Type.String({ description: 'native (the only method).' })),
    patronId: Type.String({ maxLength: 200, description: "The patron's barcode." }),
    patronSecret: Type.String({ maxLength: 128, description: "The patron's PIN." }),
  },
  { additionalProperties: false },
);
const sec = { tags: ['patrons'] };
const validateErrors = { 400: errorRef, 401: errorRef, 403: errorRef, 429: errorRef, 503: errorRef };

/** The fields asked for (`fields`, or the default ones), and what reading them takes: the patron's loans and the library's blocks, when they show. */
export async function patronReading(patrons: PatronService, raw: string | undefined) {
  const fields = parseFields(raw, PATRON_FIELDS);
  if (!fields.some((f) => CIRCULATION_FIELDS.includes(f))) return { fields, extras: undefined, ctx: {} };
  const { extras, blocks } = await patrons.circulation();
  return { fields, extras, ctx: { blocks } };
}

export function patronRoutes(app: App, patrons: PatronService, publicBaseUrl: string | undefined): void {
  const reading = (raw: string | undefined) => patronReading(patrons, raw);

  app.get(
    '/patrons',
    {
      config: { access: access.need('Patrons_Read'), xml: 'patrons' },
      schema: { summary: 'List or harvest patrons', ...sec, querystring: ListQuery, response: { 200: PatronList } },
    },
    async (request) => {
      const { fields, extras, ctx } = await reading(request.query.fields);
      const filter = parseCommonList(request.query);
      const rows = await patrons.list({ ...filter, extras });
      return { total: rows.length, start: filter.offset, entries: rows.map((row) => presentPatron(row, fields, ctx)) };
    },
  );

  app.get(
    '/patrons/find',
    {
      config: { access: access.need('Patrons_Read'), xml: 'patron' },
      schema: {
        summary: "Find the one patron with a barcode, or with a varField's content",
        ...sec,
        querystring: FindQuery,
        response: { 200: Type.Ref('Patron'), 404: errorRef, 409: errorRef },
      },
    },
    async (request) => {
      const q = request.query;
      const { fields, extras, ctx } = await reading(q.fields);
      if (q.barcode !== undefined && (q.varFieldTag !== undefined || q.varFieldContent !== undefined)) {
        throw fail.invalidParameter('give barcode, or varFieldTag with varFieldContent, not both');
      }
      if (q.barcode !== undefined)
        return presentPatron(await patrons.find({ kind: 'barcode', value: q.barcode.trim() }, extras), fields, ctx);
      if (q.varFieldTag === undefined || q.varFieldContent === undefined)
        throw fail.missingParameter('barcode, or varFieldTag and varFieldContent, is required');
      const kind = FIND_TAGS[q.varFieldTag];
      if (!kind || !Object.hasOwn(FIND_TAGS, q.varFieldTag)) {
        throw fail.invalidParameter(`varFieldTag: "${q.varFieldTag}" cannot be searched; tags are ${Object.keys(FIND_TAGS).join(', ')}`);
      }
      return presentPatron(await patrons.find({ kind, value: q.varFieldContent.trim() }, extras), fields, ctx);
    },
  );

  app.get(
    '/patrons/metadata',
    {
      config: { access: access.need('Patrons_Read') },
      schema: {
        summary: 'Codes of the coded patron fields, with descriptions',
        ...sec,
        querystring: metadataQuery(METADATA_FIELDS, 'Accepted; descriptions are in English.'),
        response: { 200: MetadataAnswer },
      },
    },
    async (request) => {
      return patrons.metadata(parseMetadataFields(request.query.fields, METADATA_FIELDS));
    },
  );

  app.get(
    '/patrons/:id',
    {
      config: { access: access.need('Patrons_Read'), xml: 'patron' },
      schema: {
        summary: 'Get a patron',
        ...sec,
        params: IdParams,
        querystring: Type.Object({ fields: fieldsParam }, { additionalProperties: false }),
        response: { 200: Type.Ref('Patron'), 404: errorRef },
      },
    },
    async (request) => {
      const id = parseRecordId('id', request.params.id);
      const { fields, extras, ctx } = await reading(request.query.fields);
      return presentPatron(await patrons.get(id, extras), fields, ctx);
    },
  );

  app.post(
    '/patrons',
    {
      config: { access: access.need('Patrons_Write') },
      schema: {
        summary: 'Create a patron',
        ...sec,
        body: PatronWrite(true),
        response: { 200: LinkAnswer, 409: errorRef },
      },
    },
    async (request) => {
      const id = await patrons.create(request.body);
      return { link: recordLink(request, publicBaseUrl, 'patrons', id) };
    },
  );

  app.put(
    '/patrons/:id',
    {
      config: { access: access.need('Patrons_Write') },
      schema: {
        summary: 'Change a patron (the fields given)',
        ...sec,
        params: IdParams,
        body: PatronWrite(false),
        response: { 204: Type.Null(), 404: errorRef, 409: errorRef },
      },
    },
    async (request, reply) => {
      await patrons.update(parseRecordId('id', request.params.id), request.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/patrons/:id',
    {
      config: { access: access.need('Patrons_Write') },
      schema: {
        summary: "Delete a patron (leaves a tombstone; cancels the patron's holds)",
        ...sec,
        params: IdParams,
        response: { 204: Type.Null(), 404: errorRef },
      },
    },
    async (request, reply) => {
      const id = parseRecordId('id', request.params.id);
      await patrons.delete(id); // cancels the patron's holds in the same transaction
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/patrons/validate',
    {
      config: { access: access.need('Patrons_Validate') },
      schema: {
        summary: "Check a patron's barcode and PIN",
        description:
          '204 when they match; 400 "Invalid barcode or PIN" when not; 429 (code 134) after too many failures for the barcode or the API key.',
        ...sec,
        body: Credentials,
        response: { 204: Type.Null(), ...validateErrors },
      },
    },
    async (request, reply) => {
      const { barcode, pin, caseSensitivity } = request.body;
      await patrons.validate(barcode, pin, request.principal!.keyId, caseSensitivity ?? true);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/patrons/auth',
    {
      config: { access: access.need('Patrons_Validate') },
      schema: {
        summary: "Authenticate a patron by barcode and PIN; answers the patron's id",
        ...sec,
        body: AuthBody,
        response: { 200: Type.String({ description: 'The patron id, as text (e.g. 1000042).' }), ...validateErrors },
      },
    },
    async (request, reply) => {
      const { authMethod, patronId, patronSecret } = request.body;
      if (authMethod !== undefined && authMethod !== 'native') throw fail.invalidParameter('authMethod: only native is supported');
      const id = await patrons.validate(patronId, patronSecret, request.principal!.keyId);
      return reply.type('text/plain; charset=utf-8').send(id);
    },
  );
}
