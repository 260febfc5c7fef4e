// Circulation: checkouts and check-ins, which fill and trap holds.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { circulationRoutes } from './routes.ts';
import { CirculationService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    circulation: CirculationService;
  }
}

export const circulation: Domain = {
  name: 'circulation',
  services: ({ db, services }) => ({
    circulation: new CirculationService(db, services.library, services.holds, services.patrons, services.branches, services.fines),
  }),
  register: async (app, { services, config }) =>
    v6(app, (api) => circulationRoutes(api, services.circulation, services.items, config.publicBaseUrl)),
};
