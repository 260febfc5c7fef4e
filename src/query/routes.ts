// POST /bibs/query, /items/query, /patrons/query: Sierra's JSON query language over live records.
import type { QueryRecord } from './parse.ts';
import { Type } from 'typebox';
import { access } from '../http/access.ts';
import { apiBase } from '../http/links.ts';
import { pagingQuery } from '../http/params.ts';
import { errorRef } from '../http/schemas.ts';
import type { App } from '../http/types.ts';
import type { Permission } from '../auth/roles.ts';
import { OPS } from './parse.ts';
import type { QueryService } from './service.ts';

const ENDPOINTS: [QueryRecord, string, Permission][] = [
  ['bib', 'bibs', 'Bibs_Read'],
  ['item', 'items', 'Items_Read'],
  ['patron', 'patrons', 'Patrons_Read'],
];

export function queryRoutes(app: App, queries: QueryService, publicBaseUrl: string | undefined): void {
  for (const [record, resource, permission] of ENDPOINTS) {
    app.post(
      `/${resource}/query`,
      {
        config: { access: access.need(permission), readsOnly: true },
        schema: {
          summary: `Find ${resource} by a JSON query`,
          description: `Sierra's JSON query (as Create Lists exports it): {"target": {"record": {"type": "${record}"}, "id": N | "tag": "t" | "field": {"tag"} | {"marcTag", "ind1", "ind2" ("?" any), "subfields"}}, "expr": {"op", "operands"}}, or {"queries": [q, "and", q, …]}, a group also as a plain array [q, "or", q]; expressions join the same way. Operators: ${Object.keys(OPS).join(', ')}. Text matches regardless of case; dates are MM-DD-YYYY or YYYY-MM-DD; relative dates count back from the library's today. Answers the links of the live ${resource} that match, in id order.`,
          tags: [resource],
          querystring: Type.Object(pagingQuery, { additionalProperties: false }),
          body: Type.Unknown(),
          response: {
            200: Type.Object({ total: Type.Integer(), start: Type.Integer(), entries: Type.Array(Type.Object({ link: Type.String() })) }),
            400: errorRef,
          },
        },
      },
      async (request) => {
        const offset = request.query.offset ?? 0;
        const ids = await queries.ids(record, request.body, request.query.limit ?? 50, offset);
        const base = apiBase(request, publicBaseUrl);
        return { total: ids.length, start: offset, entries: ids.map((id) => ({ link: `${base}/${resource}/${id}` })) };
      },
    );
  }
}
