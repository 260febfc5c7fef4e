// Saved queries: SQL over the sierra_view views kept by name and run over REST (/queries).
import rateLimit from '@fastify/rate-limit';
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
  services: ({ db, services }) => ({ savedQueries: new SavedQueryService(db, services.sql) }),
  register: async (app, { services, config }) => {
    app.addSchema(SavedQuerySchema);
    await v6(app, async (api) => {
      // Only routes that ask for it (config.rateLimit) are limited by address: a public query's results.
      await api.register(rateLimit, { global: false });
      savedQueryRoutes(api, services.savedQueries, config.publicBaseUrl, config.sql.publicPerMinute);
    });
  },
};
