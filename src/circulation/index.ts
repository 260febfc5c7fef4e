// Circulation: checkouts and check-ins, which fill and trap holds.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { circulationRoutes } from './routes.ts';
import { CirculationService } from './service.ts';
import { ReadingHistoryService } from './history/service.ts';
import { historyRoutes } from './history/routes.ts';

declare module '../domain.ts' {
  interface Services {
    circulation: CirculationService;
    readingHistory: ReadingHistoryService;
  }
}

export const circulation: Domain = {
  name: 'circulation',
  services: ({ db, services }) => {
    const readingHistory = new ReadingHistoryService(db);
    return {
      readingHistory,
      circulation: new CirculationService(
        db,
        services.library,
        services.holds,
        services.items,
        services.patrons,
        services.branches,
        services.fines,
        readingHistory,
        services.circLog,
      ),
    };
  },
  register: async (app, { services, config }) =>
    v6(app, (api) => {
      circulationRoutes(api, services.circulation, services.items, config.publicBaseUrl);
      historyRoutes(api, services.readingHistory, config.publicBaseUrl);
    }),
};
