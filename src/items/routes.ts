// /items: list (by bib, status, location, dates) and read items.
import { Type, type TSchema } from 'typebox';
import { access } from '../http/access.ts';
import { fail } from '../shared/errors.ts';
import { parseCommonList, parseFields, recordListQuery, commaList } from '../http/params.ts';
import { parseRecordId } from '../shared/filters.ts';
import { errorRef, fixedFieldsSchema, LinkAnswer, recordHeader, SimpleVarFields } from '../http/schemas.ts';
import { recordLink } from '../http/links.ts';
import type { App } from '../http/types.ts';
import { MetadataAnswer, metadataQuery, parseMetadataFields } from '../http/metadata.ts';
import { CODE_PATTERN } from '../library/profile.ts';
import { CIRCULATION_FIELDS, ITEM_FIELDS, presentItem, type ItemField } from './present.ts';

const METADATA_FIELDS = ['itemType', 'location', 'status'] as const;
/** A location code (the library's own: CODE_PATTERN), or the start of some, ending in *. */
const LOCATION_FILTER = new RegExp(`${CODE_PATTERN.slice(0, -1)}\\*?$`);
import type { ItemService } from './service.ts';

// A property for each of ITEM_FIELDS (the `satisfies` checks it): Fastify drops from an answer any field its schema does not name.
export const ItemSchema = Type.Object(
  {
    ...recordHeader,
    suppressed: Type.Optional(Type.Boolean()),
    bibIds: Type.Optional(Type.Array(Type.String())),
    location: Type.Optional(Type.Object({ code: Type.String(), name: Type.String() })),
    status: Type.Optional(Type.Object({ code: Type.String(), display: Type.String(), duedate: Type.Optional(Type.String()) })),
    volumes: Type.Optional(Type.Array(Type.String(), { description: 'Volume records are not kept: always empty.' })),
    barcode: Type.Optional(Type.String()),
    callNumber: Type.Optional(Type.String()),
    itemType: Type.Optional(Type.String()),
    transitInfo: Type.Optional(
      Type.Object(
        { to: Type.Object({ code: Type.String(), name: Type.String() }), forHold: Type.Boolean() },
        { description: 'Only while the item travels to the pickup location of the hold it was trapped for.' },
      ),
    ),
    copyNo: Type.Optional(Type.Integer({ description: "The item's place among its bib's items, in the order they were added." })),
    holdCount: Type.Optional(Type.Integer({ description: 'Active holds on this item (not on its bib).' })),
    fixedFields: fixedFieldsSchema('item'),
    varFields: SimpleVarFields,
  } satisfies Record<ItemField, TSchema>,
  { $id: 'Item', additionalProperties: false },
);

/** What a read of these fields needs besides the item's own columns. */
export const extrasFor = (fields: readonly ItemField[]) => ({ circulation: fields.some((f) => CIRCULATION_FIELDS.includes(f)) });

const ItemWrite = Type.Object(
  {
    bibIds: Type.Optional(
      Type.Array(Type.Union([Type.String(), Type.Integer()]), { description: 'Required on POST; given on PUT, they replace the links.' }),
    ),
    location: Type.Optional(Type.String()),
    status: Type.Optional(Type.String({ description: 'A code from GET /items/metadata (default - on POST).' })),
    barcode: Type.Optional(Type.String()),
    barcodes: Type.Optional(Type.Array(Type.String(), { description: "Sierra's form: one barcode." })),
    callNumber: Type.Optional(Type.String()),
    callNumbers: Type.Optional(Type.Array(Type.String(), { description: "Sierra's form: one call number." })),
    itemType: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
    messages: Type.Optional(Type.Array(Type.String(), { description: 'The item message (varField m); [] clears it.' })),
    owningLocations: Type.Optional(Type.Array(Type.String(), { description: "Accepted when it names the item's location." })),
    fixedFields: Type.Optional(
      Type.Record(Type.String(), Type.Object({ label: Type.Optional(Type.String()), value: Type.Unknown() }), {
        description: '61 item type, 79 location, 88 status.',
      }),
    ),
    varFields: Type.Optional(
      Type.Array(Type.Object({ fieldTag: Type.String(), content: Type.String() }), { description: 'b barcode, c call number, m message.' }),
    ),
  },
  { additionalProperties: false },
);

export function itemRoutes(app: App, items: ItemService, publicBaseUrl: string | undefined): void {
  const write = { config: { access: access.need('Items_Write') } };
  app.post(
    '/items',
    {
      ...write,
      schema: {
        summary: 'Create an item',
        description: 'Refused (409 code 132) when another live item has its barcode; its bibs and codes must exist.',
        tags: ['items'],
        body: ItemWrite,
        response: { 200: LinkAnswer, 400: errorRef, 409: errorRef },
      },
    },
    async (request) => ({ link: recordLink(request, publicBaseUrl, 'items', await items.create(request.body)) }),
  );
  app.put(
    '/items/:id',
    {
      ...write,
      schema: {
        summary: 'Change an item (the members given)',
        tags: ['items'],
        params: Type.Object({ id: Type.String() }),
        body: ItemWrite,
        response: { 204: Type.Null(), 400: errorRef, 404: errorRef, 409: errorRef },
      },
    },
    async (request, reply) => {
      await items.update(parseRecordId('id', request.params.id), request.body);
      return reply.code(204).send(null);
    },
  );
  app.delete(
    '/items/:id',
    {
      ...write,
      schema: {
        summary: 'Delete an item (leaves a tombstone)',
        description: 'Refused (409 code 132) while it is checked out or has active holds on it.',
        tags: ['items'],
        params: Type.Object({ id: Type.String() }),
        response: { 204: Type.Null(), 404: errorRef, 409: errorRef },
      },
    },
    async (request, reply) => {
      await items.delete(parseRecordId('id', request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/items',
    {
      config: { access: access.need('Items_Read'), xml: 'items' },
      schema: {
        summary: 'List items',
        tags: ['items'],
        querystring: Type.Object(
          {
            ...recordListQuery(ITEM_FIELDS),
            bibIds: Type.Optional(Type.String({ description: 'Items of these bibs: 1000001,1000002.' })),
            status: Type.Optional(Type.String({ description: 'Status codes, comma-separated (- is available).' })),
            location: Type.Optional(
              Type.String({ description: 'Location codes, comma-separated; mn* matches every code starting with mn.' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Ref('Item')) }),
        },
      },
    },
    async (request) => {
      const q = request.query;
      const fields = parseFields(q.fields, ITEM_FIELDS);
      const location = commaList(q.location);
      if (location?.some((l) => !LOCATION_FILTER.test(l)))
        throw fail.invalidParameter("location: codes are 1 to 20 letters, digits, '.', '_' or '-', optionally ending in *");
      const filter = parseCommonList(q);
      const rows = await items.list({
        ...filter,
        bibIds: commaList(q.bibIds)?.map((id) => parseRecordId('bibIds', id)),
        status: commaList(q.status),
        location,
        extras: extrasFor(fields),
      });
      return { total: rows.length, start: filter.offset, entries: rows.map((row) => presentItem(row, fields)) };
    },
  );

  app.get(
    '/items/metadata',
    {
      config: { access: access.need('Items_Read') },
      schema: {
        summary: "Codes of the coded item fields (the library's item types and locations, the statuses), with descriptions",
        tags: ['items'],
        querystring: metadataQuery(METADATA_FIELDS, 'Accepted; descriptions are as the library wrote them.'),
        response: { 200: MetadataAnswer },
      },
    },
    async (request) => items.metadata(parseMetadataFields(request.query.fields, METADATA_FIELDS)),
  );

  app.get(
    '/items/:id',
    {
      config: { access: access.need('Items_Read'), xml: 'item' },
      schema: {
        summary: 'Get an item',
        tags: ['items'],
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object({ fields: Type.Optional(Type.String()) }, { additionalProperties: false }),
        response: { 200: Type.Ref('Item'), 404: errorRef },
      },
    },
    async (request) => {
      const fields = parseFields(request.query.fields, ITEM_FIELDS);
      return presentItem(await items.get(parseRecordId('id', request.params.id), extrasFor(fields)), fields);
    },
  );
}
