// The library's own setup: its profile (branches, locations, types, the circulation rules matrix,
// hold rules, blocks, time zone), "today" where it is, and the rule for a loan.
import type { Domain } from '../domain.ts';
import { v6 } from '../domain.ts';
import { locationCommands, profileCommands } from './commands.ts';
import { libraryRoutes } from './routes.ts';
import { LibraryService } from './service.ts';

declare module '../domain.ts' {
  interface Services {
    library: LibraryService;
  }
}

export const library: Domain = {
  name: 'library',
  services: ({ db, clock }) => ({ library: new LibraryService(db, clock) }),
  register: async (app, { services }) => v6(app, (api) => libraryRoutes(api, services.library)),
  commands: (program, cli) => {
    profileCommands(program, cli);
    locationCommands(program, cli);
  },
};
