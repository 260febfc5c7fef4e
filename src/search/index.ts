// Search: GET /bibs/search over Carrel's own index, and `carrel search reindex`.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { searchCommands } from './commands.ts';
import { searchRoutes } from './routes.ts';
import { ListCache } from './list-cache.ts';
import { SearchService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    search: SearchService;
  }
}

export const search: Domain = {
  name: 'search',
  services: ({ reads, config }) => ({ search: new SearchService(reads, new ListCache(config.searchListCacheBytes)) }),
  register: async (app, { services }) => v6(app, (api) => searchRoutes(api, services.search, services.bibs)),
  commands: searchCommands,
};
