// /vendors: list and read vendors; create and change them (Acquisitions_Write); /vendors/{id}/edi:
// their EDI identity and how Carrel reaches their server (Carrel's own resource: Sierra keeps EDI
// settings outside its API). The password is written, never answered.
import { Type, type TSchema } from 'typebox';
import { access } from '../../http/access.ts';
import { recordLink } from '../../http/links.ts';
import { DEFAULT_LIMIT, pagingQuery, parseFields } from '../../http/params.ts';
import { parseIdFilter, parseRecordId } from '../../shared/filters.ts';
import { errorRef, LinkAnswer } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { PROTOCOLS, QUALIFIERS, type VendorEdiService } from './edi.ts';
import type { VendorService } from './service.ts';
import { VENDOR_FIELDS, presentVendor, type VendorField } from './present.ts';

const optionalText = (max: number, description?: string) =>
  Type.Optional(Type.String({ maxLength: max, ...(description ? { description } : {}) }));

// A property for each of VENDOR_FIELDS (the `satisfies` checks it): Fastify drops from an answer any field its schema does not name.
export const VendorSchema = Type.Object(
  {
    id: Type.String(),
    code: Type.Optional(Type.String()),
    vendorName: Type.Optional(Type.String()),
    accountingUnit: Type.Optional(Type.Integer()),
    address1: Type.Optional(Type.String()),
    address2: Type.Optional(Type.String()),
    contact: Type.Optional(Type.String()),
    email: Type.Optional(Type.String()),
    phone: Type.Optional(Type.String()),
    acctNum: Type.Optional(Type.String({ description: 'The library’s account number with the vendor.' })),
    createdDate: Type.Optional(Type.String()),
    updatedDate: Type.Optional(Type.String()),
  } satisfies Record<VendorField, TSchema>,
  { $id: 'Vendor', additionalProperties: false },
);

const details = {
  accountingUnit: Type.Optional(Type.Integer({ minimum: 0, maximum: 999 })),
  address1: optionalText(500),
  address2: optionalText(500),
  contact: optionalText(200),
  email: optionalText(200),
  phone: optionalText(100),
  acctNum: optionalText(100),
};
const VendorCreate = Type.Object(
  {
    code: Type.String({ description: '1 to 15 lower-case letters or digits; cannot be changed later.' }),
    vendorName: Type.String({ maxLength: 200 }),
    ...details,
  },
  { additionalProperties: false },
);
const VendorUpdate = Type.Object(
  { vendorName: Type.Optional(Type.String({ maxLength: 200 })), ...details },
  { additionalProperties: false, description: 'Given fields change; an empty string (or null) clears a detail.' },
);
const IdParams = Type.Object({ id: Type.String() });
const fieldsParam = Type.Optional(Type.String({ description: `Fields: ${VENDOR_FIELDS.all.join(', ')}, or default.` }));

export function vendorRoutes(app: App, vendors: VendorService, publicBaseUrl: string | undefined): void {
  app.get(
    '/vendors',
    {
      config: { access: access.need('Acquisitions_Read') },
      schema: {
        summary: 'List vendors',
        tags: ['acquisitions'],
        querystring: Type.Object(
          { ...pagingQuery, id: Type.Optional(Type.String({ description: 'Ids: a list or a range [from,to].' })), fields: fieldsParam },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Ref('Vendor')) }),
        },
      },
    },
    async (request) => {
      const q = request.query;
      const fields = parseFields(q.fields, VENDOR_FIELDS);
      const offset = q.offset ?? 0;
      const rows = await vendors.list({
        id: q.id === undefined ? undefined : parseIdFilter('id', q.id),
        limit: q.limit ?? DEFAULT_LIMIT,
        offset,
      });
      return { total: rows.length, start: offset, entries: rows.map((row) => presentVendor(row, fields)) };
    },
  );

  app.get(
    '/vendors/:id',
    {
      config: { access: access.need('Acquisitions_Read') },
      schema: {
        summary: 'Get a vendor',
        tags: ['acquisitions'],
        params: IdParams,
        querystring: Type.Object({ fields: fieldsParam }, { additionalProperties: false }),
        response: { 200: Type.Ref('Vendor'), 404: errorRef },
      },
    },
    async (request) =>
      presentVendor(await vendors.get(parseRecordId('id', request.params.id)), parseFields(request.query.fields, VENDOR_FIELDS)),
  );

  app.post(
    '/vendors',
    {
      config: { access: access.need('Acquisitions_Write') },
      schema: {
        summary: 'Create a vendor',
        tags: ['acquisitions'],
        body: VendorCreate,
        response: { 200: LinkAnswer, 409: errorRef },
      },
    },
    async (request) => {
      const id = await vendors.create(request.body);
      return { link: recordLink(request, publicBaseUrl, 'vendors', id) };
    },
  );

  app.put(
    '/vendors/:id',
    {
      config: { access: access.need('Acquisitions_Write') },
      schema: {
        summary: 'Change a vendor’s name or details',
        tags: ['acquisitions'],
        params: IdParams,
        body: VendorUpdate,
        response: { 204: Type.Null(), 404: errorRef },
      },
    },
    async (request, reply) => {
      await vendors.update(parseRecordId('id', request.params.id), request.body);
      return reply.code(204).send(null);
    },
  );
}

const PartyId = Type.Object(
  {
    qualifier: Type.Union(
      QUALIFIERS.map((q) => Type.Literal(q)),
      { description: '31B: SAN; 14: GLN; 91/92: an identifier the supplier or the buyer assigned.' },
    ),
    id: Type.String({ maxLength: 40 }),
  },
  { additionalProperties: false },
);

export const VendorEdiSchema = Type.Object(
  {
    partyIds: Type.Array(PartyId, { description: 'How the vendor names itself in an interchange (UNB, NAD+SU).' }),
    libraryPartyId: Type.Union([PartyId, Type.Null()], { description: 'How this vendor knows the library (UNB sender, NAD+BY).' }),
    connection: Type.Union([
      Type.Object({
        protocol: Type.String(),
        host: Type.String(),
        port: Type.Integer(),
        user: Type.String(),
        passwordSet: Type.Boolean(),
        ordersFolder: Type.String(),
        filesFolder: Type.String(),
        hostKey: Type.Union([Type.String(), Type.Null()], {
          description: 'The SFTP host key fingerprint expected (SHA256:…); null: the next connection records the one offered.',
        }),
      }),
      Type.Null(),
    ]),
    ordersPickup: Type.Boolean({
      description: "The vendor collects its orders from out/ of its SFTP account on Carrel's door, rather than Carrel uploading them.",
    }),
  },
  { $id: 'VendorEdi', additionalProperties: false },
);

const VendorEdiUpdate = Type.Object(
  {
    partyIds: Type.Optional(Type.Array(PartyId, { maxItems: 20, description: 'Replaces the list.' })),
    libraryPartyId: Type.Optional(Type.Union([PartyId, Type.Null()])),
    connection: Type.Optional(
      Type.Union([
        Type.Object(
          {
            protocol: Type.Union(PROTOCOLS.map((p) => Type.Literal(p))),
            host: Type.String({ maxLength: 253 }),
            port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
            user: Type.String({ maxLength: 200 }),
            password: Type.Optional(Type.String({ maxLength: 1000, description: 'Kept sealed; absent: the one kept stays.' })),
            ordersFolder: Type.Optional(Type.String({ maxLength: 500, description: 'Where Carrel puts orders on the server.' })),
            filesFolder: Type.Optional(Type.String({ maxLength: 500, description: 'Where Carrel fetches responses and invoices.' })),
            hostKey: Type.Optional(
              Type.Union([Type.String({ maxLength: 100 }), Type.Null()], {
                description:
                  'SFTP only: the server’s host key fingerprint as ssh-keygen -lf prints it (SHA256:…). Absent: the one kept stays while host and port stay; null: the next connection records the one offered.',
              }),
            ),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ]),
    ),
    ordersPickup: Type.Optional(Type.Boolean({ description: "true: the vendor collects its orders from Carrel's SFTP door." })),
  },
  { additionalProperties: false, description: 'Given members change; null clears one.' },
);

export function vendorEdiRoutes(app: App, vendors: VendorService, edi: VendorEdiService): void {
  app.get(
    '/vendors/:id/edi',
    {
      config: { access: access.need('Acquisitions_Read') },
      schema: {
        summary: 'Get a vendor’s EDI settings',
        tags: ['acquisitions'],
        params: IdParams,
        response: { 200: Type.Ref('VendorEdi'), 404: errorRef },
      },
    },
    async (request) => {
      const vendor = await vendors.get(parseRecordId('id', request.params.id));
      return edi.get(vendor.id);
    },
  );

  app.put(
    '/vendors/:id/edi',
    {
      config: { access: access.need('Acquisitions_Write') },
      schema: {
        summary: 'Change a vendor’s EDI settings',
        tags: ['acquisitions'],
        params: IdParams,
        body: VendorEdiUpdate,
        response: { 200: Type.Ref('VendorEdi'), 404: errorRef, 409: errorRef },
      },
    },
    async (request) => {
      const vendor = await vendors.get(parseRecordId('id', request.params.id));
      return edi.set(vendor.id, request.body);
    },
  );
}
