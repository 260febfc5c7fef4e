// Holds: placing, changing and cancelling them, their queues and expiry; `carrel holds`, `carrel locations`.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { holdCommands } from './commands.ts';
import { HoldSchema, holdRoutes } from './routes.ts';
import { HoldService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    holds: HoldService;
  }
}

export const holds: Domain = {
  name: 'holds',
  services: ({ db, services }) => ({ holds: new HoldService(db, services.library, services.circLog, services.items, services.patrons) }),
  register: async (app, { services, config }) => {
    app.addSchema(HoldSchema);
    await v6(app, (api) => holdRoutes(api, services.holds, services, config.publicBaseUrl));
  },
  commands: holdCommands,
};
