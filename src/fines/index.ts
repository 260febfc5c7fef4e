// Fines: what patrons owe (overdue fines by the circulation rules, manual charges) and payments on it.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { fineCommands } from './commands.ts';
import { fineRoutes } from './routes.ts';
import { FineService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    fines: FineService;
  }
}

export const fines: Domain = {
  name: 'fines',
  services: ({ db, services }) => ({ fines: new FineService(db, services.library, services.patrons, services.circLog) }),
  register: async (app, { services, config }) => v6(app, (api) => fineRoutes(api, services.fines, config.publicBaseUrl)),
  commands: fineCommands,
};
