// /branches and /branches/pickupLocations.
import { Type } from 'typebox';
import { access } from '../http/access.ts';
import { pagingQuery } from '../http/params.ts';
import type { App } from '../http/types.ts';
import type { BranchService } from './service.ts';

const Location = Type.Object({ code: Type.String(), name: Type.String() });

export function branchRoutes(app: App, branches: BranchService): void {
  app.get(
    '/branches',
    {
      config: { access: access.need('Branches_Read') },
      schema: {
        summary: 'List branches with their locations',
        tags: ['branches'],
        security: [{ bearer: [] }],
        querystring: Type.Object({ ...pagingQuery }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            total: Type.Integer(),
            start: Type.Integer(),
            entries: Type.Array(
              Type.Object({
                id: Type.String(),
                name: Type.String(),
                address: Type.Optional(Type.String()),
                locations: Type.Array(Location),
              }),
            ),
          }),
        },
      },
    },
    async (request) => {
      const offset = request.query.offset ?? 0;
      const list = await branches.list(request.query.limit ?? 50, offset);
      const locations = await branches.locations(list.map((b) => b.id));
      return {
        total: list.length,
        start: offset,
        entries: list.map((b) => ({
          id: String(b.id),
          name: b.name,
          ...(b.address ? { address: b.address } : {}),
          locations: locations.filter((l) => l.branch_id === b.id).map((l) => ({ code: l.code, name: l.name })),
        })),
      };
    },
  );

  app.get(
    '/branches/pickupLocations',
    {
      config: { access: access.need('Branches_Read') },
      schema: {
        summary: 'Locations where patrons can collect holds',
        tags: ['branches'],
        security: [{ bearer: [] }],
        response: {
          200: Type.Array(Type.Object({ code: Type.String(), name: Type.String(), holdShelfDays: Type.Integer() })),
        },
      },
    },
    async () =>
      (await branches.locations()).filter((l) => l.pickup).map((l) => ({ code: l.code, name: l.name, holdShelfDays: l.hold_shelf_days })),
  );
}
