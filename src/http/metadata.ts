// What every GET /…/metadata route shares (docs/api-contract.md, "Metadata"): the `fields` and
// `language` parameters and the bare array of {field, values: [{code, desc}]} it answers.
import { Type } from 'typebox';
import { errors } from './errors.ts';

export function metadataQuery<F extends string>(fields: readonly F[], languageDescription: string) {
  return Type.Object(
    {
      fields: Type.Optional(Type.String({ description: `Comma-separated: ${fields.join(', ')} (default all).` })),
      language: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$', description: languageDescription })),
      // A resource-sharing hub (DCB) pages metadata as it pages records: taken, and every code comes in one answer.
      offset: Type.Optional(Type.Integer({ minimum: 0, description: 'Accepted; every code comes in one answer.' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, description: 'Accepted; every code comes in one answer.' })),
      deleted: Type.Optional(Type.Boolean({ description: 'Accepted; codes have no deleted state.' })),
    },
    { additionalProperties: false },
  );
}

export const MetadataAnswer = Type.Array(
  Type.Object({ field: Type.String(), values: Type.Array(Type.Object({ code: Type.String(), desc: Type.String() })) }),
);

/** The fields asked for (all when none are named); an unknown one is a 400 naming it. */
export function parseMetadataFields<F extends string>(raw: string | undefined, known: readonly F[]): F[] {
  const wanted = raw
    ?.split(',')
    .map((f) => f.trim())
    .filter(Boolean) ?? [...known];
  const unknown = wanted.filter((f) => !(known as readonly string[]).includes(f));
  if (unknown.length) throw errors.invalidParameter(`fields: ${unknown.join(', ')} not known; fields are ${known.join(', ')}`);
  return wanted as F[];
}
