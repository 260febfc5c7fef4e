// /branches, /branches/{id} and /branches/pickupLocations, in Sierra's shapes.
import { Type, type Static, type TSchema } from 'typebox';
import { access } from '../http/access.ts';
import { fieldSet, pagingQuery, parseFields } from '../http/params.ts';
import { presenter } from '../http/present.ts';
import { errorRef } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import { parseRecordId } from '../shared/filters.ts';
import type { BranchService, BranchWithLocations } from './service.ts';

const Location = Type.Object({ code: Type.String(), name: Type.String() });

// Sierra's branch fields; Carrel keeps no e-mail sender or coordinates, so those are never present.
export const BRANCH_FIELDS = fieldSet(['id', 'name', 'address', 'emailSource', 'emailReplyTo', 'latitude', 'longitude', 'locations']);
type BranchField = (typeof BRANCH_FIELDS.all)[number];

// A property for each of BRANCH_FIELDS (the `satisfies` checks it): Fastify drops from an answer any field its schema does not name.
const Branch = Type.Object({
  id: Type.String(),
  name: Type.Optional(Type.String()),
  address: Type.Optional(Type.String()),
  emailSource: Type.Optional(Type.String()),
  emailReplyTo: Type.Optional(Type.String()),
  latitude: Type.Optional(Type.String()),
  longitude: Type.Optional(Type.String()),
  locations: Type.Optional(Type.Array(Location)),
} satisfies Record<BranchField, TSchema>);

const fieldsQuery = {
  fields: Type.Optional(Type.String({ description: `Comma-separated: ${BRANCH_FIELDS.all.join(', ')} (default all).` })),
};

type Row = BranchWithLocations;
const presentFields = presenter<Row, BranchField>({
  id: (b) => String(b.id),
  name: (b) => b.name,
  address: (b) => b.address ?? undefined,
  emailSource: () => undefined,
  emailReplyTo: () => undefined,
  latitude: () => undefined,
  longitude: () => undefined,
  locations: (b) => b.locations.map((l) => ({ code: l.code, name: l.name })),
});
const presentBranch = (b: Row, fields: readonly BranchField[]) => presentFields(b, fields) as Static<typeof Branch>;

export function branchRoutes(app: App, branches: BranchService): void {
  app.get(
    '/branches',
    {
      config: { access: access.need('Branches_Read') },
      schema: {
        summary: 'List branches with their locations',
        tags: ['branches'],
        querystring: Type.Object({ ...pagingQuery, ...fieldsQuery }, { additionalProperties: false }),
        response: { 200: Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Branch) }) },
      },
    },
    async (request) => {
      const fields = parseFields(request.query.fields, BRANCH_FIELDS);
      const offset = request.query.offset ?? 0;
      const list = await branches.list(request.query.limit ?? 50, offset);
      return { total: list.length, start: offset, entries: list.map((b) => presentBranch(b, fields)) };
    },
  );

  app.get(
    '/branches/pickupLocations',
    {
      config: { access: access.need('Branches_Read') },
      schema: {
        summary: 'Locations where patrons can collect holds',
        tags: ['branches'],
        response: {
          200: Type.Array(Type.Object({ code: Type.String(), name: Type.String(), holdShelfDays: Type.Integer() })),
        },
      },
    },
    async () =>
      (await branches.locations()).filter((l) => l.pickup).map((l) => ({ code: l.code, name: l.name, holdShelfDays: l.hold_shelf_days })),
  );

  app.get(
    '/branches/:id',
    {
      config: { access: access.need('Branches_Read') },
      schema: {
        summary: 'Get a branch with its locations',
        tags: ['branches'],
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object(fieldsQuery, { additionalProperties: false }),
        response: { 200: Branch, 404: errorRef },
      },
    },
    async (request) => {
      const fields = parseFields(request.query.fields, BRANCH_FIELDS);
      return presentBranch(await branches.get(parseRecordId('id', request.params.id)), fields);
    },
  );
}
