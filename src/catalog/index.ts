// The public catalogue pages (/catalog): the same search and bibs services as the API, as HTML, and
// the patron's pages (sign-in, account, holds) over the patron, hold, circulation and fine services.
import type { Domain } from '../domain.ts';
import { catalogRoutes } from './routes.ts';
import { CatalogService } from './service.ts';
import { PatronAccount } from './patron/account.ts';

export const catalog: Domain = {
  name: 'catalog',
  register: async (app, { services, config, db, clock }) => {
    const pages = new CatalogService(services.search, services.bibs);
    const account = new PatronAccount(
      services.patrons,
      services.holds,
      services.circulation,
      services.bibs,
      services.branches,
      services.readingHistory,
      db,
      clock,
      services.patronSessions,
    );
    const patron = { sessions: services.patronSessions, account, httpsBase: config.publicBaseUrl?.startsWith('https://') ?? false };
    await app.register(async (scope) => catalogRoutes(scope, pages, config.libraryName, patron), { prefix: '/catalog' });
  },
};
