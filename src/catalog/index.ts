// The public catalogue pages (/catalog): the same search and bibs services as the API, as HTML.
import type { Domain } from '../domain.ts';
import { catalogRoutes } from './routes.ts';
import { CatalogService } from './service.ts';

export const catalog: Domain = {
  name: 'catalog',
  register: async (app, { services, config }) => {
    const pages = new CatalogService(services.search, services.bibs);
    await app.register(async (scope) => catalogRoutes(scope, pages, config.libraryName), { prefix: '/catalog' });
  },
};
