// Patrons: /patrons, PIN validation, `carrel patrons`.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { patronCommands } from './commands.ts';
import { PatronSchema, patronRoutes } from './routes.ts';
import { PatronService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    patrons: PatronService;
  }
}

export const patrons: Domain = {
  name: 'patrons',
  services: ({ db, reads, config, services }) => ({
    // Deleting a patron cancels its holds and ends its catalogue sessions in the same transaction
    // (HoldService and PatronSessionService, built after this one).
    patrons: new PatronService(
      db,
      config.pinLimits,
      services.attempts,
      {
        prepare: (tx, id) => services.holds.lockQueuesOf(tx, id),
        finish: async (tx, id) => {
          await services.holds.cancelHoldsIn(tx, id);
          await services.patronSessions.endAllOf(tx, id);
        },
      },
      services.library,
      // A new PIN ends the patron's catalogue sessions (PatronSessionService, built after this one).
      (tx, id) => services.patronSessions.endAllOf(tx, id),
      reads,
    ),
  }),
  register: async (app, { services, config }) => {
    app.addSchema(PatronSchema);
    await v6(app, (api) => patronRoutes(api, services.patrons, config.publicBaseUrl));
  },
  commands: patronCommands,
};
