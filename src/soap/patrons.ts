// PatronLookup, PatronValidate and PatronUpdate: GET /patrons/{id} (or find), POST
// /patrons/validate and PUT /patrons/{id} over SOAP, with the same services, answers and permissions.
import { Type } from 'typebox';
import { PATRON_FIELDS, presentPatron } from '../patrons/present.ts';
import { patronReading, PatronWrite } from '../patrons/routes.ts';
import { fail } from '../shared/errors.ts';
import { parseRecordId } from '../shared/filters.ts';
import type { SoapOperation } from './operation.ts';

const WAYS = ['barcode', 'id', 'uniqueId'] as const;

export const PATRON_OPERATIONS: SoapOperation[] = [
  {
    name: 'PatronLookup',
    summary: 'A patron, found by exactly one of barcode, id (the record number) or uniqueId: the record GET /v6/patrons/{id} answers.',
    permission: 'Patrons_Read',
    input: Type.Object(
      {
        barcode: Type.Optional(Type.String({ maxLength: 200 })),
        id: Type.Optional(Type.String({ maxLength: 18, description: 'The record number, digits only (1000042).' })),
        uniqueId: Type.Optional(Type.String({ maxLength: 200 })),
        fields: Type.Optional(Type.String({ description: `Fields to return: ${PATRON_FIELDS.all.join(', ')}, or default.` })),
      },
      { additionalProperties: false },
    ),
    output: Type.Ref('Patron'),
    async run(args, { services }) {
      const given = WAYS.filter((way) => args[way] !== undefined);
      if (given.length === 0) throw fail.missingParameter('give one of barcode, id or uniqueId');
      if (given.length > 1) throw fail.invalidParameter(`give one of barcode, id or uniqueId, not ${given.join(' and ')}`);
      const { fields, extras, ctx } = await patronReading(services.patrons, args.fields as string | undefined);
      const value = String(args[given[0]!]);
      const row =
        given[0] === 'id'
          ? await services.patrons.get(parseRecordId('id', value), extras)
          : await services.patrons.find({ kind: given[0] === 'barcode' ? 'barcode' : 'uniqueId', value: value.trim() }, extras);
      return presentPatron(row, fields, ctx);
    },
  },
  {
    name: 'PatronValidate',
    summary:
      "Checks a patron's barcode and PIN, as POST /v6/patrons/validate does, with its limits: a wrong barcode or PIN is a fault (code 108, Invalid barcode or PIN), too many failures for the barcode or the API key a fault with code 134. Answers the patron's id.",
    permission: 'Patrons_Validate',
    input: Type.Object(
      {
        barcode: Type.String({ maxLength: 200 }),
        pin: Type.String({ maxLength: 128 }),
        caseSensitivity: Type.Optional(
          Type.Boolean({ description: 'false: the barcode matches whatever its letter case (default true).' }),
        ),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ id: Type.String({ description: 'The patron id (1000042).' }) }, { additionalProperties: false }),
    async run(args, { services, principal }) {
      // Counted per API key and per patron, as REST counts them: one limit whichever door asks.
      const id = await services.patrons.validate(
        args.barcode as string,
        args.pin as string,
        principal.keyId,
        (args.caseSensitivity as boolean | undefined) ?? true,
      );
      return { id };
    },
  },
  {
    name: 'PatronUpdate',
    summary: 'Changes the members given of the patron with this id, as PUT /v6/patrons/{id} does (the same members and checks).',
    permission: 'Patrons_Write',
    input: Type.Object(
      { id: Type.String({ maxLength: 18, description: 'The record number, digits only.' }), ...PatronWrite(false).properties },
      { additionalProperties: false },
    ),
    output: Type.Object({}, { additionalProperties: false }),
    async run(args, { services }) {
      const { id, ...input } = args;
      await services.patrons.update(parseRecordId('id', id as string), input);
      return {};
    },
  },
];
