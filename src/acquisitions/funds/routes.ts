// /funds: list and read funds with their balances; create and change them (Acquisitions_Write).
import { Type, type TSchema } from 'typebox';
import { access } from '../../http/access.ts';
import { recordLink } from '../../http/links.ts';
import { pagingQuery, parseFields } from '../../http/params.ts';
import { errorRef, LinkAnswer } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import type { FundService } from './service.ts';
import { FUND_FIELDS, presentFund, type FundField } from './present.ts';

const money = (description: string) => Type.String({ description: `${description} Decimal string with two places ("1500.00").` });

// A property for each of FUND_FIELDS (the `satisfies` checks it): Fastify drops from an answer any field its schema does not name.
export const FundSchema = Type.Object(
  {
    code: Type.Optional(Type.String()),
    fundName: Type.Optional(Type.String()),
    accountingUnit: Type.Optional(Type.Integer()),
    currency: Type.Optional(Type.String({ description: 'ISO 4217 code of the fund’s amounts; invoices charging the fund are in it.' })),
    appropriation: Type.Optional(money('Money the library gave the fund.')),
    expenditure: Type.Optional(money('Paid invoice lines charged to the fund (plus the opening balance).')),
    encumbrance: Type.Optional(money('Unpaid invoice lines charged to the fund (plus the opening balance).')),
    freeBalance: Type.Optional(money('appropriation − expenditure − encumbrance; negative when overspent.')),
    note: Type.Optional(Type.String()),
    createdDate: Type.Optional(Type.String()),
    updatedDate: Type.Optional(Type.String()),
  } satisfies Record<FundField, TSchema>,
  { $id: 'Fund', additionalProperties: false },
);

const moneyInput = (what: string) =>
  Type.Optional(Type.String({ description: `${what}: decimal string such as "1500.00" (a JSON number is accepted too).` }));
const FundCreate = Type.Object(
  {
    code: Type.String({ description: '1 to 15 lower-case letters or digits; cannot be changed later.' }),
    fundName: Type.String({ maxLength: 100 }),
    accountingUnit: Type.Optional(Type.Integer({ minimum: 0, maximum: 999 })),
    currency: Type.Optional(Type.String({ description: 'ISO 4217 code (default USD); cannot be changed later.' })),
    appropriation: moneyInput('Appropriation'),
    expenditure: moneyInput('Opening expenditure (default 0)'),
    encumbrance: moneyInput('Opening encumbrance (default 0)'),
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
const FundUpdate = Type.Object(
  {
    fundName: Type.Optional(Type.String({ maxLength: 100 })),
    accountingUnit: Type.Optional(Type.Integer({ minimum: 0, maximum: 999 })),
    appropriation: moneyInput('Appropriation'),
    note: Type.Optional(Type.String({ maxLength: 500, description: 'Empty or null clears it.' })),
  },
  { additionalProperties: false },
);
const CodeParams = Type.Object({ code: Type.String() });
const FieldsQuery = Type.Object(
  { fields: Type.Optional(Type.String({ description: `Fields: ${FUND_FIELDS.all.join(', ')}, or default.` })) },
  { additionalProperties: false },
);

export function fundRoutes(app: App, funds: FundService, publicBaseUrl: string | undefined): void {
  app.get(
    '/funds',
    {
      config: { access: access.need('Acquisitions_Read') },
      schema: {
        summary: 'List funds with their balances',
        description: 'Sorted by code.',
        tags: ['acquisitions'],
        querystring: Type.Object({ ...pagingQuery, fields: FieldsQuery.properties.fields }, { additionalProperties: false }),
        response: {
          200: Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Ref('Fund')) }),
        },
      },
    },
    async (request) => {
      const fields = parseFields(request.query.fields, FUND_FIELDS);
      const offset = request.query.offset ?? 0;
      const rows = await funds.list(request.query.limit ?? 50, offset);
      return { total: rows.length, start: offset, entries: rows.map((row) => presentFund(row, fields)) };
    },
  );

  app.get(
    '/funds/:code',
    {
      config: { access: access.need('Acquisitions_Read') },
      schema: {
        summary: 'Get a fund',
        tags: ['acquisitions'],
        params: CodeParams,
        querystring: FieldsQuery,
        response: { 200: Type.Ref('Fund'), 404: errorRef },
      },
    },
    async (request) => presentFund(await funds.get(request.params.code), parseFields(request.query.fields, FUND_FIELDS)),
  );

  app.post(
    '/funds',
    {
      config: { access: access.need('Acquisitions_Write') },
      schema: {
        summary: 'Create a fund',
        tags: ['acquisitions'],
        body: FundCreate,
        response: { 200: LinkAnswer, 409: errorRef },
      },
    },
    async (request) => {
      const code = await funds.create(request.body);
      return { link: recordLink(request, publicBaseUrl, 'funds', code) };
    },
  );

  app.put(
    '/funds/:code',
    {
      config: { access: access.need('Acquisitions_Write') },
      schema: {
        summary: 'Change a fund’s name, accounting unit, appropriation or note',
        tags: ['acquisitions'],
        params: CodeParams,
        body: FundUpdate,
        response: { 204: Type.Null(), 404: errorRef },
      },
    },
    async (request, reply) => {
      await funds.update(request.params.code, request.body);
      return reply.code(204).send(null);
    },
  );
}
