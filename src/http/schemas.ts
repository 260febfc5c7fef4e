// Response schemas shared by every route: the error body, listed once in the OpenAPI document.
import { Type } from 'typebox';

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
