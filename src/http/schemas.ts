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

/** The error answers a protected route can give, for its schema's response map. */
export const protectedErrors = { 400: errorRef, 401: errorRef, 403: errorRef, 503: errorRef };
