// JSON queries: Sierra's query language over bibs, items and patrons (POST /{bibs,items,patrons}/query).
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { queryRoutes } from './routes.ts';
import { QueryService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    queries: QueryService;
  }
}

export const query: Domain = {
  name: 'query',
  services: ({ db, reads, config, services }) => ({ queries: new QueryService(db, config.queryLimits, services.library, reads) }),
  register: async (app, { services, config }) => v6(app, (api) => queryRoutes(api, services.queries, config.publicBaseUrl)),
};
