// Saved queries: SQL over the sierra_view views kept by name and run over REST (/queries).
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { SavedQuerySchema, savedQueryRoutes } from './routes.ts';
import { SavedQueryService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    savedQueries: SavedQueryService;
  }
}

export const savedQueries: Domain = {
  name: 'savedQueries',
  services: ({ db, services, config }) => ({
    savedQueries: new SavedQueryService(db, services.sql, {
      running: config.sql.queryRuns,
      waiting: config.sql.queryRunsWaiting,
      // A run waits for its turn no longer than any statement waits for a connection.
      waitMs: config.dbConnectTimeoutSec * 1000,
      publicPerMinute: config.sql.publicPerMinute,
    }),
  }),
  register: async (app, { services, config }) => {
    app.addSchema(SavedQuerySchema);
    await v6(app, (api) => savedQueryRoutes(api, services.savedQueries, config.publicBaseUrl));
  },
};
