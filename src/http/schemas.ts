// Response schemas shared by every route: the error body, listed once in the OpenAPI document.
import { Type } from 'typebox';
import { fixedFieldTable, type RecordKind } from '../shared/fixed-fields.ts';

export const ErrorBodySchema = Type.Object(
  {
    code: Type.Integer(),
    specificCode: Type.Integer(),
    httpStatus: Type.Integer(),
    name: Type.String(),
    description: Type.Optional(Type.String()),
  },
  { $id: 'ErrorBody', additionalProperties: false, description: 'The one error shape of the API.' },
);

export const errorRef = Type.Ref('ErrorBody');

/** What every record shows first (src/http/present.ts fills it): id, dates, deleted, the tombstone's deletedDate. */
export const recordHeader = {
  id: Type.String(),
  updatedDate: Type.Optional(Type.String()),
  createdDate: Type.Optional(Type.String()),
  deletedDate: Type.Optional(Type.String({ description: 'Only on a deleted record (its tombstone).' })),
  deleted: Type.Optional(Type.Boolean()),
};

/** The answer to a create: the new record's URL. */
export const LinkAnswer = Type.Object({ link: Type.String() });

/** Sierra's statgroup on circulation and hold requests (a query parameter or a body member). */
export const StatGroup = Type.Optional(
  Type.Integer({
    minimum: 0,
    maximum: 999,
    description: "The statistics group of the terminal or desk (Sierra's statgroup): kept with the event in sierra_view.circ_trans.",
  }),
);

const FixedFieldSchema = Type.Object(
  {
    label: Type.String(),
    value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]),
    display: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

/** A record type's `fixedFields`, described with the numbers and labels it can hold (src/shared/fixed-fields.ts). */
export function fixedFieldsSchema(kind: RecordKind) {
  const table = fixedFieldTable(kind)
    .map((f) => `${f.number} ${f.label}`)
    .join(', ');
  return Type.Optional(
    Type.Record(Type.String(), FixedFieldSchema, {
      description: `Sierra's fixed-length fields, keyed by number; those Carrel holds a value for: ${table}.`,
    }),
  );
}

/** A varField of an item or patron: a tag and its text. */
export const SimpleVarFields = Type.Optional(
  Type.Array(Type.Object({ fieldTag: Type.String(), content: Type.String() }, { additionalProperties: false })),
);
