// GET /invoices/metadata (the use tax rates) and the use tax codes themselves under /invoices/useTax.
import { Type } from 'typebox';
import { access } from '../../http/access.ts';
import { MetadataAnswer, metadataQuery, parseMetadataFields } from '../../http/metadata.ts';
import { errorRef } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { parseUseTaxCode, type UseTaxService } from './service.ts';

const METADATA_FIELDS = ['useTax'] as const;

const UseTaxCode = Type.Object(
  {
    code: Type.String(),
    rate: Type.String({ description: 'Percent, exactly as set: "7.75", "0", "8.125".' }),
    description: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const CodeParams = Type.Object({ code: Type.String() });

export function useTaxRoutes(app: App, useTax: UseTaxService): void {
  app.get(
    '/invoices/metadata',
    {
      config: { access: access.need('Invoices_Read') },
      schema: {
        summary: 'Use tax rates',
        description: 'The library’s use tax codes, each with its rate in percent in `desc`, exactly as the library set it.',
        tags: ['invoices'],
        querystring: metadataQuery(METADATA_FIELDS, 'Accepted for compatibility; rates read the same in every language.'),
        response: { 200: MetadataAnswer },
      },
    },
    async (request) => {
      const wanted = parseMetadataFields(request.query.fields, METADATA_FIELDS);
      return wanted.length ? useTax.metadata() : [];
    },
  );

  app.get(
    '/invoices/useTax',
    {
      config: { access: access.need('Invoices_Read') },
      schema: {
        summary: 'Use tax codes with their rates and descriptions',
        tags: ['invoices'],
        response: { 200: Type.Array(UseTaxCode) },
      },
    },
    async () =>
      (await useTax.list()).map((r) => ({ code: r.code, rate: r.rate, ...(r.description ? { description: r.description } : {}) })),
  );

  app.put(
    '/invoices/useTax/:code',
    {
      config: { access: access.need('Invoices_Write') },
      schema: {
        summary: 'Create a use tax code or set its rate',
        description:
          'The rate is percent, 0 to 100 with at most six decimals; send it as a string to keep trailing zeros. A description given replaces the old one (empty clears it); none keeps it. Unpaid invoices take a new rate when they are next written; paid invoices never change.',
        tags: ['invoices'],
        params: CodeParams,
        body: Type.Object(
          { rate: Type.String(), description: Type.Optional(Type.String({ maxLength: 200 })) },
          { additionalProperties: false },
        ),
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      await useTax.set(parseUseTaxCode('code', request.params.code), request.body.rate, request.body.description);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/invoices/useTax/:code',
    {
      config: { access: access.need('Invoices_Write') },
      schema: {
        summary: 'Remove a use tax code no invoice uses',
        tags: ['invoices'],
        params: CodeParams,
        response: { 204: Type.Null(), 404: errorRef, 409: errorRef },
      },
    },
    async (request, reply) => {
      await useTax.remove(parseUseTaxCode('code', request.params.code));
      return reply.code(204).send(null);
    },
  );
}
